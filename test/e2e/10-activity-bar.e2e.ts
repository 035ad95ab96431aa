// A person opens VS Code with the VSIX installed: the Model Access entry is in the activity bar, and its
// Models view explains what to do next (the walkthrough step before set the service URL and left no key,
// so: set an API key).
import * as assert from 'node:assert/strict';
import { e2e } from './session';
import { activityBarEntry, openViewContainer, readViewText, screenshot, viewPane } from './helpers';

describe('Model Access in the activity bar', () => {
  it('shows the Model Access entry', async () => {
    await activityBarEntry(e2e.page).waitFor({ state: 'visible', timeout: 30_000 });
  });

  it('opens the Models view with a welcome message', async () => {
    await openViewContainer(e2e.page);
    await viewPane(e2e.page, 'Models').waitFor({ state: 'visible', timeout: 30_000 });
    // The view shows its welcome content or a message once the extension has activated and registered
    // its tree (before that VS Code says that no data provider is registered).
    const notReady = (t: string) => t.length === 0 || /no data provider registered/i.test(t);
    let text = '';
    for (let i = 0; i < 100 && notReady(text); i++) {
      text = await readViewText(e2e.page, 'Models');
      if (notReady(text)) {
        await e2e.page.waitForTimeout(200);
      }
    }
    await screenshot(e2e.page, 'models-view-welcome');
    assert.ok(!notReady(text), `the extension did not fill the Models view: ${JSON.stringify(text)}`);
    console.log(`      view text: ${JSON.stringify(text.slice(0, 160))}`);
  });
});
