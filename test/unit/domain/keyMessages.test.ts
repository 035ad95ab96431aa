import * as assert from 'node:assert/strict';
import { ENV_KEY_NAME, KeyMessages } from '../../../src/domain/keyMessages';

describe('domain/keyMessages', () => {
  const url = 'https://ws.example/api';
  const scope = 'https://ws.example';

  it('names where the key comes from: the environment variable or the stored scope', () => {
    assert.equal(ENV_KEY_NAME, 'MODEL_ACCESS_API_KEY');
    assert.equal(
      KeyMessages.consentQuestion(url, scope, true),
      `Use the key from MODEL_ACCESS_API_KEY with ${url}, set by this workspace?`,
    );
    assert.equal(
      KeyMessages.consentQuestion(url, scope, false),
      `Use the key stored for ${scope} with ${url}, set by this workspace?`,
    );
    assert.match(KeyMessages.notAllowed(url, scope, true), /The key from MODEL_ACCESS_API_KEY is not sent there/);
    assert.match(
      KeyMessages.notAllowed(url, scope, false),
      new RegExp(`The key stored for ${scope} is not sent there`),
    );
    assert.match(KeyMessages.consentDetail(url), /point Model Access at https:\/\/ws\.example\/api\. Whoever wrote/);
  });

  it('says where a saved key will be sent, and when a workspace chose the URL', () => {
    assert.equal(
      KeyMessages.setKeyPrompt(scope, true, false),
      `Stored in VS Code's SecretStorage for ${scope}: sent to any path there, never to another server.`,
    );
    assert.equal(
      KeyMessages.setKeyPrompt(`${scope}/api`, false, false),
      `Stored in VS Code's SecretStorage for ${scope}/api: sent only to URLs under that path.`,
    );
    assert.match(
      KeyMessages.setKeyPrompt(scope, true, true),
      /never to another server\. This URL was set by this workspace's settings \(modelAccess\.baseUrl\), not by you\.$/,
    );
  });

  it('counts the models a saved key sees, and neutralises a hostile URL in what a person reads', () => {
    assert.equal(KeyMessages.keySaved(scope, 1), `API key saved for ${scope}: it sees 1 model.`);
    assert.equal(KeyMessages.keySavedLog(scope, 3), `API key saved for ${scope}; it sees 3 models.`);
    const hostile = 'https://x\n[click](command:evil)\u202e';
    assert.ok(!KeyMessages.allowAlready(hostile).includes('\n'));
    assert.ok(!KeyMessages.allowAlready(hostile).includes('\u202e'));
  });

  it('the Allow Stored Key command says why there is nothing to allow, naming the URL', () => {
    assert.equal(KeyMessages.allowNoUrl(), 'No service URL is set, so there is no key to allow.');
    assert.equal(
      KeyMessages.allowNothingToAsk(url),
      `The service URL ${url} comes from your own settings: its key is used without asking.`,
    );
    assert.equal(KeyMessages.allowNoKey(url), `No API key is stored for ${url}. Run "Model Access: Set API Key".`);
    assert.equal(KeyMessages.allowAlready(url), `The key is already allowed for ${url} in this workspace.`);
  });

  it('saving and removing a key name the scope, in notifications and in the log', () => {
    assert.equal(KeyMessages.setKeyTitle(scope), `Model Access: API Key for ${scope}`);
    assert.equal(KeyMessages.keySaved(scope, 2), `API key saved for ${scope}: it sees 2 models.`);
    assert.equal(KeyMessages.keySaved(scope, 0), `API key saved for ${scope}: it sees 0 models.`);
    assert.equal(KeyMessages.keySavedLog(scope, 1), `API key saved for ${scope}; it sees 1 model.`);
    assert.equal(KeyMessages.keySavedUncheckedLog(scope), `API key saved for ${scope} without a successful check.`);
    assert.equal(KeyMessages.keyRemoved(scope), `API key for ${scope} removed.`);
    assert.equal(KeyMessages.keyRemovedLog(scope), `API key removed for ${scope}.`);
  });

  it('every place that names a key says where it comes from: stored (for which scope), MODEL_ACCESS_API_KEY, or none', () => {
    assert.equal(KeyMessages.keySource('secretStorage', scope), `stored key for ${scope}`);
    assert.equal(KeyMessages.keySource('secretStorage'), 'stored key');
    assert.equal(KeyMessages.keySource('environment', scope), 'key from MODEL_ACCESS_API_KEY');
    assert.equal(KeyMessages.keySource(undefined), 'no key');
  });
});
