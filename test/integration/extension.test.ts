// The extension loads in a real VS Code, activates, and its Models view opens.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ModelAccessApi } from '../../src/testApi';
import { Views } from '../../src/ids';
import { EXTENSION_ID, activateExtension, eventually } from './helpers';

describe('extension', () => {
  it('is installed from the development path and activates', async () => {
    const ext = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(ext, `${EXTENSION_ID} is not loaded`);
    await activateExtension();
    assert.equal(ext.isActive, true);
  });

  it('opens the Model Access view container and the Models view', async () => {
    const api = await activateExtension<ModelAccessApi>();
    const view = api.view.treeView;
    await vscode.commands.executeCommand('workbench.action.closeSidebar');
    await eventually(() => !view.visible, 5000, 'the Models view hidden with the side bar');
    await vscode.commands.executeCommand(`workbench.view.extension.${Views.container}`);
    await eventually(() => view.visible, 5000, 'the Models view shown by its container');
    await vscode.commands.executeCommand('workbench.action.closeSidebar');
    await eventually(() => !view.visible, 5000, 'the Models view hidden again');
    await vscode.commands.executeCommand(`${Views.models}.focus`);
    await eventually(() => view.visible, 5000, 'the Models view shown by its focus command');
  });
});
