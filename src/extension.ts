import * as vscode from 'vscode';
import * as chat from './chat';
import * as checks from './checks';
import { useBundle } from './common/l10n';
import { clean } from './common/text';
import * as explorer from './explorer';
import { l10n } from './platform/l10n';
import { RedactingLog } from './platform/log';
import { activationFailed } from './platform/ui';
import * as references from './references';
import * as requests from './requests';
import { createServices } from './services';
import type { ModelAccessApi } from './testApi';
import * as setup from './setup';

/** The features, each wired the same way: `register(services)` returns what to dispose. */
const FEATURES = [setup, explorer, requests, chat, checks, references];

export function activate(context: vscode.ExtensionContext): ModelAccessApi | undefined {
  let log: RedactingLog | undefined;
  try {
    // VS Code loaded l10n/bundle.l10n.<language>.json for vscode.l10n.t; the pure modules get the same one.
    if (vscode.l10n.bundle) {
      useBundle(vscode.l10n.bundle);
    }
    log = new RedactingLog();
    context.subscriptions.push(log);
    const services = createServices(context, log);
    for (const feature of FEATURES) {
      context.subscriptions.push(...feature.register(services));
    }
    // Each feature has added its part by now (src/testApi.ts names them; the integration tests use every one).
    const testApi = services.testApi as unknown as ModelAccessApi;
    return context.extensionMode === vscode.ExtensionMode.Test ? testApi : undefined;
  } catch (e) {
    // VS Code does not tell the user about a failed activation; say what broke.
    const message = e instanceof Error ? e.message : String(e);
    log?.error(`Activation failed: ${message}`);
    activationFailed(l10n.t('Model Access could not start: {0}', clean(log?.redactor.redact(message) ?? message)));
    return undefined;
  }
}

export function deactivate(): void {
  // Everything is disposed through context.subscriptions.
}
