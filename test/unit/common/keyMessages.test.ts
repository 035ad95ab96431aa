import * as assert from 'node:assert/strict';
import { ENV_KEY_NAME, KeyMessages } from '../../../src/common/keyMessages';

describe('common/keyMessages', () => {
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
});
