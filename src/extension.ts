import * as vscode from 'vscode';
import * as chat from './chat';
import { msg } from './common/text';
import * as explorer from './explorer';
import { RedactingLog } from './platform/log';
import { activationFailed } from './platform/ui';
import * as requests from './requests';
import { createServices, type ModelAccessApi } from './services';
import * as setup from './setup';

/** The features, each wired the same way: `register(services)` returns what to dispose. */
const FEATURES = [setup, explorer, requests, chat];

export function activate(context: vscode.ExtensionContext): ModelAccessApi | undefined {
  let log: RedactingLog | undefined;
  try {
    log = new RedactingLog();
    context.subscriptions.push(log);
    const services = createServices(context, log);
    for (const feature of FEATURES) {
      context.subscriptions.push(...feature.register(services));
    }
    return context.extensionMode === vscode.ExtensionMode.Test ? (services.testApi as ModelAccessApi) : undefined;
  } catch (e) {
    // VS Code does not tell the user about a failed activation; say what broke.
    const message = e instanceof Error ? e.message : String(e);
    log?.error(`Activation failed: ${message}`);
    activationFailed(msg`Model Access could not start: ${log?.redactor.redact(message) ?? message}`);
    return undefined;
  }
}

export function deactivate(): void {
  // Everything is disposed through context.subscriptions.
}
