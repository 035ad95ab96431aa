import * as assert from 'node:assert/strict';
import { debounce } from '../../../src/common/debounce';

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('common/debounce', () => {
  it('runs once, after the last call of a burst', async () => {
    let runs = 0;
    const d = debounce(() => runs++, 30);
    d();
    await wait(10);
    d();
    await wait(10);
    d();
    assert.equal(runs, 0);
    await wait(60);
    assert.equal(runs, 1);
    d();
    await wait(60);
    assert.equal(runs, 2, 'a later call runs again');
  });

  it('drops a pending run on cancel, and can be used again afterwards', async () => {
    let runs = 0;
    const d = debounce(() => runs++, 20);
    d.cancel();
    d();
    d.cancel();
    await wait(50);
    assert.equal(runs, 0);
    d();
    await wait(50);
    assert.equal(runs, 1);
  });
});
