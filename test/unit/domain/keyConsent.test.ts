// Allowing a stored key for a service URL chosen by workspace settings: asked once per workspace and URL,
// never twice while the question is open, not again by itself after "Not now".
import * as assert from 'node:assert/strict';
import {
  askWith,
  KEY_NOT_ALLOWED,
  KeyConsent,
  type ConsentMemento,
  type ConsentQuestion,
} from '../../../src/domain/keyConsent';
import { describeFailure } from '../../../src/domain/failure';

/** An in-memory workspaceState. */
function memento(): ConsentMemento & { data: Map<string, unknown> } {
  const data = new Map<string, unknown>();
  return {
    data,
    get: <T>(key: string, defaultValue: T) => (data.has(key) ? (data.get(key) as T) : defaultValue),
    update: async (key: string, value: unknown) => void (value === undefined ? data.delete(key) : data.set(key, value)),
  };
}

/** An ask function whose answers the test gives, one question at a time. */
function asker() {
  const asked: ConsentQuestion[] = [];
  let answer: ((allowed: boolean) => void) | undefined;
  return {
    asked,
    ask: (q: ConsentQuestion) =>
      new Promise<boolean>((resolve) => {
        asked.push(q);
        answer = resolve;
      }),
    answer(allowed: boolean) {
      assert.ok(answer, 'a question is open');
      const a = answer;
      answer = undefined;
      a(allowed);
    },
  };
}

const tick = () => new Promise<void>((resolve) => setImmediate(resolve));
const question = (url = 'https://gw/team-b'): ConsentQuestion => ({
  url,
  keyScope: 'https://gw',
  keySource: 'secretStorage',
});

describe('auth/keyConsent', () => {
  it('asks once while the question is open: every request meanwhile gets the same answer', async () => {
    const a = asker();
    const consent = new KeyConsent(memento(), a.ask);
    const requests = Array.from({ length: 20 }, () => consent.request(question()));
    await tick();
    assert.equal(a.asked.length, 1);
    assert.ok(consent.isAsking('https://gw/team-b'));
    a.answer(true);
    assert.deepEqual(await Promise.all(requests), Array(20).fill(true));
    assert.equal(a.asked.length, 1);
    assert.ok(!consent.isAsking('https://gw/team-b'));
  });

  it('"Allow" is remembered in workspace state, per URL; the same URL is not asked again', async () => {
    const a = asker();
    const state = memento();
    const consent = new KeyConsent(state, a.ask);
    const first = consent.request(question('https://gw/team-b/'));
    await tick();
    a.answer(true);
    assert.equal(await first, true);
    assert.ok(consent.isAllowed('https://gw/team-b'));
    assert.ok(consent.isAllowed('https://gw/team-b/v1'), 'a trailing slash or /v1 is the same URL');
    assert.equal(await consent.request(question()), true);
    assert.equal(a.asked.length, 1);
    assert.ok(!consent.isAllowed('https://gw/team-c'), 'another URL is not allowed');
    assert.ok(!consent.isAllowed('https://gw'), 'nor the origin');

    // Another window of the same workspace reads the same state; another workspace does not.
    assert.ok(new KeyConsent(state, a.ask).isAllowed('https://gw/team-b'));
    assert.ok(!new KeyConsent(memento(), a.ask).isAllowed('https://gw/team-b'));
  });

  it('after "Not now" nothing asks again by itself; the person can ask again', async () => {
    const a = asker();
    const consent = new KeyConsent(memento(), a.ask);
    const first = consent.request(question());
    await tick();
    a.answer(false);
    assert.equal(await first, false);
    assert.ok(consent.isDeclined('https://gw/team-b'));
    for (let i = 0; i < 10; i++) {
      assert.equal(await consent.request(question()), false);
    }
    assert.equal(a.asked.length, 1, 'refreshes after "Not now" do not ask');
    const again = consent.request(question(), { again: true });
    await tick();
    assert.equal(a.asked.length, 2);
    a.answer(true);
    assert.equal(await again, true);
    assert.ok(consent.isAllowed('https://gw/team-b') && !consent.isDeclined('https://gw/team-b'));
  });

  it('a failing or dismissed question means no', async () => {
    const consent = new KeyConsent(memento(), async () => {
      throw new Error('the dialog could not be shown');
    });
    assert.equal(await consent.request(question()), false);
    assert.ok(!consent.isAllowed('https://gw/team-b'));
  });

  it('allow() and forget() tell listeners; answers to a request do not (the requester carries on)', async () => {
    const a = asker();
    const consent = new KeyConsent(memento(), a.ask);
    let changes = 0;
    const sub = consent.onDidChange(() => changes++);
    const p = consent.request(question());
    await tick();
    a.answer(true);
    await p;
    assert.equal(changes, 0);
    await consent.forget('https://gw/team-b');
    assert.ok(!consent.isAllowed('https://gw/team-b'));
    await consent.allow('https://gw/team-x');
    assert.ok(consent.isAllowed('https://gw/team-x'));
    await consent.forget();
    assert.ok(!consent.isAllowed('https://gw/team-x'));
    assert.equal(changes, 3);
    sub.dispose();
    await consent.allow('https://gw/team-y');
    assert.equal(changes, 3);
  });

  it('the modal names the workspace URL and the prefix the key was stored for; only "Allow" allows', async () => {
    const shown: string[][] = [];
    let reply: string | undefined = 'Allow';
    const ask = askWith(async (message, detail, ...actions) => {
      shown.push([message, detail, ...actions]);
      return reply;
    });
    assert.equal(
      await ask({ url: 'https://gw/team-b', keyScope: 'https://gw/team-a', keySource: 'secretStorage' }),
      true,
    );
    assert.equal(
      shown[0][0],
      'Use the key stored for https://gw/team-a with https://gw/team-b, set by this workspace?',
    );
    assert.match(
      shown[0][1],
      /workspace's settings \(modelAccess\.baseUrl\) point Model Access at https:\/\/gw\/team-b/,
    );
    assert.deepEqual(shown[0].slice(2), ['Allow', 'Not now']);
    reply = 'Not now';
    assert.equal(await ask(question()), false);
    reply = undefined;
    assert.equal(await ask(question()), false);
    await ask({ url: 'https://gw/team-b', keyScope: 'https://gw', keySource: 'environment' });
    assert.match(shown[3][0], /^Use the key from MODEL_ACCESS_API_KEY with https:\/\/gw\/team-b/);
  });

  it('a request refused for lack of an allowance offers the Allow action', () => {
    const failure = describeFailure({ kind: 'config', code: KEY_NOT_ALLOWED, message: 'not allowed yet' });
    assert.equal(failure.action, 'allowKey');
    assert.equal(failure.message, 'not allowed yet');
    assert.equal(describeFailure({ kind: 'config', message: 'no URL' }).action, 'setBaseUrl');
  });

  it('forgetting one URL keeps the others allowed; allowing twice keeps one entry', async () => {
    const m = memento();
    const consent = new KeyConsent(m, async () => false);
    await consent.allow('https://a.example');
    await consent.allow('https://a.example/');
    await consent.allow('https://b.example');
    assert.deepEqual(m.data.get('modelAccess.keyAllowedFor'), ['https://a.example', 'https://b.example']);
    await consent.forget('https://a.example');
    assert.ok(!consent.isAllowed('https://a.example'));
    assert.ok(consent.isAllowed('https://b.example'));
    await consent.forget();
    assert.ok(!consent.isAllowed('https://b.example'));
  });
});
