import * as vscode from 'vscode';
import type { ModelEntry, PostEndpoint } from '../../api/types';
import { parseBaseUrl } from '../../api/baseUrl';
import { modelFromArg } from '../../domain/commandArgs';
import { clean, displayEnds, displayText, type DisplayText } from '../../common/text';
import { l10n } from '../../platform/l10n';
import type { Services } from '../../services';
import { ENDPOINTS, readEndpoint } from '../../domain/payload/endpointHeader';
import { importCurl } from './core/curlImport';
import { parsePayload } from '../../domain/payload/parse';
import { textToSend } from '../send/core/sendText';
import { starterRequest } from '../payloads/core/templates';
import { SNIPPET_TARGETS, snippetTarget } from './core/codeSnippets/targets';
import { snippetHeaders, type SnippetHeader } from './core/codeSnippets/request';
import type { PayloadDocuments } from '../payloads/payloadDocuments';
import type { ScratchFiles } from '../payloads/scratchFiles';
import type { Environment } from '../../domain/environments';
import { commandEnvironment } from '../../platform/environments';
import { variableContext } from '../../domain/payload/variableContext';
import { resolvePayload } from '../../domain/payload/variables';
import { payloadEnvironment } from '../payloads/variableEditing';
import type { EnvAccess } from '../../platform/envAccess';

/**
 * The origin and prefix (`https://host/api`) of `env` (default: the active environment), or undefined
 * when none is usable.
 */
function serviceRoot(deps: Services, env: Environment | undefined = deps.environments.active): string | undefined {
  const url = env?.baseUrl;
  if (!url) {
    return undefined;
  }
  try {
    const base = parseBaseUrl(url, true);
    return `${base.origin}${base.prefix}`;
  } catch {
    return undefined;
  }
}

/** The environment's extra headers for a snippet: plain ones as they are, secret ones read from a variable. */
function headersOf(env: Environment | undefined): SnippetHeader[] {
  return env ? snippetHeaders(env.headers, env.secretHeaders) : [];
}

/**
 * Copy as Code: `arg` is a payload (its URI, or none for the active editor) or a model (a tree node or id);
 * `targetArg` and `endpointArg` answer the quick picks (tests, other commands). Returns the copied snippet.
 */
export async function copyAsCode(
  deps: Services,
  payloads: PayloadDocuments,
  envAccess: EnvAccess,
  arg: unknown,
  targetArg?: unknown,
  endpointArg?: unknown,
): Promise<string | undefined> {
  const again = () => copyAsCode(deps, payloads, envAccess, arg, targetArg, endpointArg);
  const request = await requestFor(deps, payloads, envAccess, arg, endpointArg, again);
  if (!request) {
    return undefined;
  }
  const target =
    snippetTarget(targetArg) ??
    (
      await deps.ui.pick(
        SNIPPET_TARGETS.map((t) => ({ label: clean(t.label), description: clean(t.description), target: t })),
        {
          title: l10n.t('Copy POST {0} as code', clean(request.endpoint)),
          placeHolder: l10n.t('Which language?'),
        },
      )
    )?.target;
  if (!target) {
    return undefined;
  }
  const code = target.write(request);
  await deps.ui.copy(code);
  const copied = request.serviceRoot
    ? l10n.t('Copied the request as {0}. It reads the key from MODEL_ACCESS_API_KEY.', clean(target.label))
    : l10n.t(
        'Copied the request as {0}. It reads the service URL from MODEL_ACCESS_BASE_URL and the key from MODEL_ACCESS_API_KEY.',
        clean(target.label),
      );
  const secretVariables = (request.headers ?? []).flatMap((h) => ('variable' in h ? [h.variable] : []));
  void deps.ui.info(
    secretVariables.length
      ? l10n.t('{0} Set {1} to the secret headers’ values first.', copied, clean(secretVariables.join(', ')))
      : copied,
  );
  return code;
}

/**
 * A request as it was sent (the conversation panel's raw exchange): its endpoint, its JSON as it may be shown
 * (secret references as written) and the name of the environment it went to.
 */
export interface SentRequest {
  sent: true;
  endpoint: string;
  json: string;
  environment?: string;
}

function isSentRequest(arg: unknown): arg is SentRequest {
  const r = arg as Partial<SentRequest> | undefined;
  return (
    typeof r === 'object' &&
    r !== null &&
    r.sent === true &&
    typeof r.endpoint === 'string' &&
    typeof r.json === 'string'
  );
}

async function requestFor(
  deps: Services,
  payloads: PayloadDocuments,
  envAccess: EnvAccess,
  arg: unknown,
  endpointArg: unknown,
  again: () => Promise<unknown>,
) {
  if (isSentRequest(arg)) {
    // The request of record: nothing is read from (or opened of) the payload, which may have changed since.
    const env = deps.environments.find(arg.environment) ?? deps.environments.active;
    let body: unknown;
    try {
      body = JSON.parse(arg.json);
    } catch {
      void deps.ui.error(l10n.t('The request as sent is not readable JSON; nothing was copied.'));
      return undefined;
    }
    const endpoint = ENDPOINTS.find((e) => e.path === arg.endpoint)?.path ?? '/v1/responses';
    return { serviceRoot: serviceRoot(deps, env), endpoint, body, headers: headersOf(env) };
  }
  const editorArg = arg instanceof vscode.Uri || arg === undefined;
  const editor =
    arg instanceof vscode.Uri && arg.toString() !== vscode.window.activeTextEditor?.document.uri.toString()
      ? await vscode.window.showTextDocument(arg, { preview: false })
      : vscode.window.activeTextEditor;
  if (editorArg && editor && payloads.isPayload(editor.document)) {
    const doc = editor.document;
    const selection = editor.selection.isEmpty
      ? undefined
      : { start: doc.offsetAt(editor.selection.start), end: doc.offsetAt(editor.selection.end) };
    const parsed = parsePayload(textToSend(doc.getText(), selection).text);
    if (!parsed.ok) {
      void deps.ui.error(
        l10n.t(
          'Not valid JSON at line {0}, column {1} ({2}); fix it to copy the request as code.',
          parsed.problem.line,
          parsed.problem.column,
          clean(parsed.problem.message),
        ),
      );
      return undefined;
    }
    const target = payloadEnvironment(doc.getText(), deps.environments);
    if (target.missing !== undefined) {
      void deps.ui.error(
        l10n.t(
          'This payload is pinned to environment {0} (// @env), which is not configured; nothing was copied.',
          clean(target.missing),
        ),
      );
      return undefined;
    }
    // Secrets ($env values) stay as written: copied code is pasted and kept where a secret must not be. The
    // payload reads only the names Send would let it read (its file's policy, an untrusted workspace's too).
    const resolved = resolvePayload(
      parsed.value,
      variableContext(target.env, { envPolicy: envAccess.policyFor(doc.uri) }),
    );
    if (resolved.problems.length > 0) {
      const message = l10n.t('Nothing was copied: {0}.', clean(resolved.problems[0].message));
      if (resolved.problems.some((p) => p.refusedEnv !== undefined)) {
        // Allow NAME remembers the name for this workspace and copies again.
        void envAccess
          .offerAllow(deps.ui, message, resolved.problems)
          .then((allowed) => (allowed ? again() : undefined));
      } else {
        void deps.ui.error(message);
      }
      return undefined;
    }
    return {
      serviceRoot: serviceRoot(deps, target.env),
      endpoint: readEndpoint(doc.getText()) ?? '/v1/responses',
      body: JSON.parse(resolved.shownJson) as unknown,
      headers: headersOf(target.env),
    };
  }
  // A row under an environment's root: the code calls that environment's service.
  const rowTarget = commandEnvironment(deps.environments, deps.ui, arg);
  if (!rowTarget) {
    return undefined;
  }
  const model = modelFromArg(arg, deps.catalog.models) ?? (await pickModel(deps));
  if (!model) {
    return undefined;
  }
  const endpoint =
    ENDPOINTS.find((e) => e.path === endpointArg)?.path ??
    (
      await deps.ui.pick(
        ENDPOINTS.map((e) => ({ label: e.label, description: clean(`POST ${e.path}`), path: e.path })),
        { title: l10n.t('Code that calls {0}', clean(model.id)), placeHolder: l10n.t('Which endpoint?') },
      )
    )?.path;
  if (!endpoint) {
    return undefined;
  }
  // Code, not a payload: nothing resolves `{{…}}` there, so the id goes in as listed.
  const body: unknown = starterRequest(endpoint, model.id, deps.config.requestTemplates);
  return {
    serviceRoot: serviceRoot(deps, rowTarget.env),
    endpoint: endpoint as PostEndpoint,
    body,
    headers: headersOf(rowTarget.env),
  };
}

async function pickModel(deps: Services): Promise<ModelEntry | undefined> {
  await deps.catalog.ensureLoaded();
  if (deps.catalog.models.length === 0) {
    void deps.ui.info(l10n.t('Open a payload, or load the model list first (Model Access: Refresh Models).'));
    return undefined;
  }
  const pick = await deps.ui.pick(
    deps.catalog.models.map((m) => ({
      label: displayEnds(m.id, 60),
      description: displayText(m.family ?? ''),
      model: m,
    })),
    {
      title: l10n.t('Copy as code: which model?'),
      placeHolder: l10n.t('Type to search by id or family'),
      matchOnDescription: true,
    },
  );
  return pick?.model;
}

/**
 * Import cURL: `arg` is the command text (tests, other commands); else an input box, filled with the
 * selection or the clipboard when either holds a curl command. Returns the new payload's editor.
 */
export async function importCurlCommand(
  deps: Services,
  scratch: ScratchFiles,
  arg: unknown,
): Promise<vscode.TextEditor | undefined> {
  let text = typeof arg === 'string' ? arg : undefined;
  let from = '';
  if (text === undefined) {
    // A multi-line command keeps its line breaks only when read from the selection or the clipboard; an
    // input box flattens it (the words are the same either way).
    const editor = vscode.window.activeTextEditor;
    const selected = editor && !editor.selection.isEmpty ? editor.document.getText(editor.selection) : '';
    const looksLikeCurl = (t: string) => /^\s*(\$\s+)?curl(\.exe)?\s/i.test(t);
    // The clipboard only when the selection holds no command: in VS Code for the Web, reading it may need the
    // browser's permission, and without it VS Code shows an error and waits until that is dismissed.
    const clipboard = looksLikeCurl(selected)
      ? ''
      : await vscode.env.clipboard.readText().then(
          (t) => t,
          () => '',
        );
    if (looksLikeCurl(selected)) {
      [text, from] = [selected, 'selection'];
    } else if (looksLikeCurl(clipboard)) {
      [text, from] = [clipboard, 'clipboard'];
    } else {
      text = await deps.ui.input({
        title: l10n.t('Import cURL'),
        prompt: l10n.t(
          'Paste a curl command (bash or PowerShell) that POSTs JSON to /v1/responses, /v1/chat or /v1/embeddings',
        ),
        ignoreFocusOut: true,
      });
    }
  }
  if (text === undefined || text.trim() === '') {
    return undefined;
  }
  const result = importCurl(text, serviceRoot(deps));
  if (!result.ok) {
    void deps.ui.error(l10n.t('Import cURL: {0}', clean(result.message)));
    return undefined;
  }
  // A curl command is text from elsewhere (a page, a chat, a colleague): it keeps the `{{$env}}` policy of a
  // file outside the scratch folder.
  const editor = await scratch.create(result.endpoint, result.json, 'elsewhere');
  void deps.ui.info(
    result.notes.length
      ? l10n.t('{0} {1}', imported(from, result.endpoint), clean(result.notes.join(' ')))
      : imported(from, result.endpoint),
  );
  return editor;
}

/** "Imported the curl command (from the selection) as a new payload for POST …." */
function imported(from: string, endpoint: string): DisplayText {
  const path = clean(endpoint);
  return from === 'selection'
    ? l10n.t('Imported the curl command from the selection as a new payload for POST {0}.', path)
    : from === 'clipboard'
      ? l10n.t('Imported the curl command from the clipboard as a new payload for POST {0}.', path)
      : l10n.t('Imported the curl command as a new payload for POST {0}.', path);
}
