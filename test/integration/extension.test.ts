// The extension loads in a real VS Code, activates, and its Models view opens.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { EXTENSION_ID, activateExtension } from './helpers';

describe('extension', () => {
  it('is installed from the development path and activates', async () => {
    const ext = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(ext, `${EXTENSION_ID} is not loaded`);
    await activateExtension();
    assert.equal(ext.isActive, true);
  });

  it('opens the Model Access view container and the Models view', async () => {
    await vscode.commands.executeCommand('workbench.view.extension.modelAccess');
    await vscode.commands.executeCommand('modelAccess.models.focus');
  });
});
