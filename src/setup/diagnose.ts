import * as vscode from 'vscode';
import { originOf } from '../api/baseUrl';
import { BuiltinCommands, Commands } from '../ids';
import { FAILURE_ACTIONS, type FailureAction } from '../domain/failure';
import type { NextStep } from '../api/diagnose';
import { describeKeySource } from '../platform/apiKeys';
import type { Services } from '../services';
import { clean } from '../common/text';
import { l10n } from '../platform/l10n';
import { onFirstUse } from '../common/onFirstUse';
import { rateLimitsLine } from './core/rateLimitsLine';

/** The probes (api/diagnose.ts, dist/diagnose.js by esbuild.js) load when the command first runs. */
const probes = onFirstUse(() => require('../api/diagnose') as typeof import('../api/diagnose'));

export const DIAGNOSIS_SCHEME = 'model-access-diagnosis';

/** Read-only Markdown reports of Diagnose Connection, one per origin; running it again refreshes the tab. */
class DiagnosisDocuments implements vscode.TextDocumentContentProvider {
  readonly contents = new Map<string, string>();
  private readonly _onDidChange = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this._onDidChange.event;

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.contents.get(uri.toString()) ?? 'Run "Model Access: Diagnose Connection" to fill this report.\n';
  }

  set(uri: vscode.Uri, text: string): void {
    this.contents.set(uri.toString(), text);
    this._onDidChange.fire(uri);
  }

  dispose(): void {
    this._onDidChange.dispose();
  }
}

/** Diagnose Connection and Set Client Certificate Passphrase. */
export function diagnoseCommands(services: Services): vscode.Disposable[] {
  const docs = new DiagnosisDocuments();
  return [
    docs,
    vscode.workspace.registerTextDocumentContentProvider(DIAGNOSIS_SCHEME, docs),
    // `environment`: a name (the row under that environment's root in the Models view); none: the active one.
    vscode.commands.registerCommand(Commands.diagnoseConnection, (environment?: unknown) =>
      runDiagnosis(services, docs, typeof environment === 'string' ? environment : undefined),
    ),
    vscode.commands.registerCommand(Commands.setClientCertificatePassphrase, () => setPassphrase(services)),
  ];
}

/** The environment named `name`, else the active one, with its URL as the settings gave it. */
function environmentOf(services: Services, name?: string) {
  const env = name === undefined ? services.environments.active : services.environments.find(name);
  return { env, baseUrl: env && { url: env.baseUrl, source: env.source } };
}

async function runDiagnosis(
  services: Services,
  docs: DiagnosisDocuments,
  environmentName?: string,
): Promise<vscode.TextDocument | undefined> {
  const { config, connection, ui } = services;
  const { env, baseUrl } = environmentOf(services, environmentName);
  const origin = baseUrl && originOf(baseUrl.url);
  if (!baseUrl || !origin) {
    void ui.warn(l10n.t('Set the service URL first: Diagnose Connection reports on that service.'));
    return undefined;
  }
  const state = await connection.state(env);
  const options = config.clientOptions(baseUrl.url);
  // The client certificate only where a request would present it: not to a workspace's URL before it is allowed.
  const certificateWithheld = Boolean(
    options.tls?.clientCertificate && !connection.certificateAllowed({ baseUrl: baseUrl.url, source: baseUrl.source }),
  );
  if (certificateWithheld) {
    options.tls = { ...options.tls, clientCertificate: undefined };
  }
  const passphrase = options.tls?.clientCertificate ? await connection.passphrases?.get(baseUrl.url) : undefined;
  const passphraseStored = options.tls?.clientCertificate ? Boolean(passphrase) : undefined;
  if (options.tls?.clientCertificate && passphrase) {
    options.tls = { ...options.tls, clientCertificate: { ...options.tls.clientCertificate, passphrase } };
  }
  const report = await vscode.window.withProgress(
    {
      location: vscode.ProgressLocation.Notification,
      title: l10n.t('Diagnosing the connection to {0}…', clean(origin)),
    },
    () =>
      probes().diagnoseReport({
        baseUrl: baseUrl.url,
        proxy: options.proxy,
        tls: options.tls,
        keySource: describeKeySource(state.keySource, state.keyScope),
        rateLimits: rateLimitsOf(services, env?.name),
        hasKey: state.keySource !== undefined,
        passphraseStored,
        certificateWithheld,
        probe: async () => {
          try {
            const client = await connection.getClient(env);
            return client.probe ? await client.probe() : { elapsedMs: 0, error: 'not available' };
          } catch (e) {
            return { elapsedMs: 0, error: `not sent: ${e instanceof Error ? e.message : String(e)}` };
          }
        },
      }),
  );
  // Every secret the extension knows is scrubbed once more, whatever a server or a system message held.
  const text = services.log.redactor.redact(report.markdown);
  const uri = vscode.Uri.from({ scheme: DIAGNOSIS_SCHEME, path: `/${new URL(origin).host}.md` });
  docs.set(uri, text);
  const doc = await vscode.workspace.openTextDocument(uri);
  // Read as a page (headings, lists, the chain as a table), as Model Cards are; every value in it was made
  // inert Markdown text by the probes (api/diagnose.ts), so nothing from the network becomes markup.
  await vscode.commands.executeCommand(BuiltinCommands.showMarkdownPreview, uri);
  offerWayOut(services, report.next, env?.name);
  return doc;
}

/** The report's next step as our own commands' buttons (the preview cannot run command links). */
const WAYS_OUT: Record<NextStep, FailureAction[]> = {
  working: ['retry'],
  key: ['setApiKey'],
  address: ['setBaseUrl', 'diagnose'],
  trust: ['diagnose'],
  later: ['diagnose', 'showLog'],
};

function offerWayOut(services: Services, next: NextStep, environment: string | undefined): void {
  const message =
    next === 'working'
      ? l10n.t('Diagnose Connection: the service answers. The report is open beside your work.')
      : l10n.t('Diagnose Connection found a problem; the report ends with what to do next.');
  const actions = WAYS_OUT[next].map((a) => FAILURE_ACTIONS[a]);
  const editEnvironment = l10n.t('Edit Environment…');
  // An environment from modelAccess.environments is corrected where it is written, not with Set Service URL.
  const env = environment === undefined ? undefined : services.environments.find(environment);
  const titles = actions.map((a) =>
    a === FAILURE_ACTIONS.setBaseUrl && env && !env.shorthand && env.source !== 'environment'
      ? editEnvironment
      : a.title,
  );
  const shown = next === 'working' ? services.ui.info(message, ...titles) : services.ui.warn(message, ...titles);
  void Promise.resolve(shown).then((chosen) => {
    const i = chosen === undefined ? -1 : titles.indexOf(chosen as never);
    if (i < 0) {
      return undefined;
    }
    if (titles[i] === editEnvironment) {
      return vscode.commands.executeCommand(Commands.editEnvironment, environment);
    }
    const command = actions[i].command;
    // Set API Key and Diagnose act on the environment the report is about; the others on the active one.
    return command === Commands.setApiKey || command === Commands.diagnoseConnection
      ? vscode.commands.executeCommand(command, environment)
      : vscode.commands.executeCommand(command);
  });
}

async function setPassphrase(services: Services): Promise<'stored' | 'cleared' | 'cancelled' | 'noUrl'> {
  const { ui, connection } = services;
  const { baseUrl } = environmentOf(services);
  const origin = baseUrl && originOf(baseUrl.url);
  if (!baseUrl || !origin || !connection.passphrases) {
    void ui.warn(l10n.t('Set the service URL first: the passphrase is stored for that service only.'));
    return 'noUrl';
  }
  const value = await ui.input({
    title: l10n.t('Client certificate passphrase for {0}', clean(origin)),
    prompt: l10n.t(
      'The passphrase of the key or PKCS#12 file in modelAccess.tls.clientCertificate. Leave empty to remove it.',
    ),
    password: true,
    ignoreFocusOut: true,
  });
  if (value === undefined) {
    return 'cancelled';
  }
  await connection.passphrases.set(baseUrl.url, value);
  void ui.info(
    value
      ? l10n.t('The client certificate passphrase is stored for {0}.', clean(origin))
      : l10n.t('The client certificate passphrase for {0} was removed.', clean(origin)),
  );
  return value ? 'stored' : 'cleared';
}

/** The last rate limits the environment's service announced, in words; undefined when it announced none. */
function rateLimitsOf(services: Services, environment: string | undefined): string | undefined {
  const limits = services.meter.limitsOf(environment);
  return limits && rateLimitsLine(limits, Date.now());
}
