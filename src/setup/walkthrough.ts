import * as vscode from 'vscode';
import { Commands, Walkthrough, BuiltinCommands } from '../ids';

/**
 * "Model Access: Get Started" reopens the walkthrough VS Code offers on first install
 * (`contributes.walkthroughs` in package.json). The steps themselves need no code: each is completed by
 * the command or context key named in its `completionEvents`.
 */
export function walkthroughCommands(context: vscode.ExtensionContext): vscode.Disposable[] {
  return [
    vscode.commands.registerCommand(Commands.openWalkthrough, () =>
      vscode.commands.executeCommand(
        BuiltinCommands.openWalkthrough,
        `${context.extension.id}#${Walkthrough.id}`,
        false,
      ),
    ),
  ];
}
