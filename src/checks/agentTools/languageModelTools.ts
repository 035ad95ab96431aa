/**
 * The agent tools in VS Code (loaded on first use, in dist/checks.js: ../runner.ts): the host the core runs on here — the
 * workspace folders, the configured environments and their keys (ServiceConnection), the `{{$env}}` names this
 * workspace allows (EnvAccess) — and each tool's prepareInvocation and invoke. run_checks and send_payload are
 * planned in prepareInvocation and the person is asked (which service, how many requests, which files); invoke
 * sends only what was confirmed, and plans again to be sure the files did not grow in between.
 */
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { fetchCard } from '../../api/cardFetch';
import { clean } from '../../common/text';
import type { Environment } from '../../domain/environments';
import { describeFailure } from '../../domain/failure';
import { displayUrl } from '../../domain/keyScope';
import { scratchOrigin } from '../../domain/payload/kind';
import { variableContext } from '../../domain/payload/variableContext';
import { EnvAccess } from '../../platform/envAccess';
import { l10n } from '../../platform/l10n';
import { readPayloadFile } from '../../platform/payloadFiles';
import type { Services } from '../../services';
import { LIMITS, READ_ONLY, type ToolName } from './core/definitions';
import type { PayloadRef, ToolHost } from './core/host';
import { errorResult } from './core/result';
import { invokeTool, planSending, type SendPlan } from './core/tools';

const PAYLOAD = /\.jsonc?$/i;
const MAX_PAYLOAD_BYTES = 1024 * 1024;

function inside(folder: string, file: string): boolean {
  const rel = path.relative(folder, file);
  return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel);
}

/** The real path of a file-scheme URI inside one of the workspace folders, or undefined (outside, missing). */
async function realInside(uri: vscode.Uri): Promise<vscode.Uri | undefined> {
  if (uri.scheme !== 'file') {
    return vscode.workspace.getWorkspaceFolder(uri) ? uri : undefined;
  }
  try {
    const real = await fs.realpath(uri.fsPath);
    for (const folder of vscode.workspace.workspaceFolders ?? []) {
      if (folder.uri.scheme === 'file' && inside(await fs.realpath(folder.uri.fsPath), real)) {
        return vscode.Uri.file(real);
      }
    }
  } catch {
    // Missing: nothing to read.
  }
  return undefined;
}

/** The agent tools' host in the extension host. */
export function vscodeToolHost(deps: Services): ToolHost {
  const scratch = vscode.Uri.joinPath(deps.context.globalStorageUri, 'scratch');
  // The names Send lets a payload of this workspace read: a file an agent names is never the person's own.
  const envAccess = new EnvAccess(deps.context.workspaceState, (uri) => scratchOrigin(uri, scratch));
  const environmentOf = (name: string | undefined): Environment | string => {
    const env = name === undefined ? deps.environments.active : deps.environments.find(name);
    if (env) {
      return env;
    }
    if (name === undefined) {
      return 'no service is configured: the person sets one with Model Access: Set Service URL';
    }
    const names = deps.environments.list.map((e) => e.name).join(', ');
    return `no environment is called ${name}${names ? `; the environments are: ${names}` : ''}`;
  };
  return {
    async describeService(name) {
      const env = environmentOf(name);
      return typeof env === 'string' ? { problem: env } : `${displayUrl(env.baseUrl)} (environment ${env.name})`;
    },
    async service(name) {
      const env = environmentOf(name);
      if (typeof env === 'string') {
        return { problem: env };
      }
      try {
        const client = await deps.connection.getClient(env);
        return {
          client,
          variables: variableContext(env, { envPolicy: envAccess.policyFor(undefined) }),
          service: displayUrl(env.baseUrl),
          environment: env.name,
          origin: new URL(env.baseUrl).origin,
        };
      } catch (e) {
        return { problem: describeFailure(e).message };
      }
    },
    async findPayloads(patterns, max) {
      const folders = vscode.workspace.workspaceFolders ?? [];
      if (folders.length === 0) {
        return { files: [], unmatched: [], problems: ['no workspace folder is open'] };
      }
      const files: PayloadRef[] = [];
      const unmatched: string[] = [];
      for (const pattern of patterns) {
        const before = files.length;
        for (const folder of folders) {
          const found = /[*?{[]/.test(pattern)
            ? await vscode.workspace.findFiles(
                new vscode.RelativePattern(folder, pattern),
                '**/node_modules/**',
                max + 1,
              )
            : [vscode.Uri.joinPath(folder.uri, pattern)];
          for (const uri of found) {
            const real = PAYLOAD.test(uri.path) ? await realInside(uri) : undefined;
            if (real && !files.some((f) => f.key === uri.toString())) {
              files.push({ name: vscode.workspace.asRelativePath(uri, folders.length > 1), key: uri.toString() });
            }
            if (files.length >= max) {
              return { files, unmatched, problems: [] };
            }
          }
        }
        if (files.length === before) {
          unmatched.push(pattern);
        }
      }
      return { files, unmatched, problems: [] };
    },
    async readPayload(ref) {
      const uri = vscode.Uri.parse(ref.key, true);
      // What the person sees, saved or not.
      const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === ref.key);
      if (open) {
        return open.getText();
      }
      const real = await realInside(uri);
      if (!real) {
        return undefined;
      }
      try {
        const stat = await vscode.workspace.fs.stat(real);
        return stat.size > MAX_PAYLOAD_BYTES
          ? undefined
          : new TextDecoder().decode(await vscode.workspace.fs.readFile(real));
      } catch {
        return undefined;
      }
    },
    async readBeside(ref, name) {
      const read = await readPayloadFile(vscode.Uri.parse(ref.key, true), name, scratch);
      return read.ok
        ? read
        : {
            ok: false,
            reason:
              read.reason === 'outside'
                ? 'it lies outside the workspace folder, and files outside it are not read'
                : 'no such file',
          };
    },
    async fetchCard(url, service, signal) {
      const env = deps.environments.find(service.environment);
      return fetchCard(url, {
        maxBytes: LIMITS.cardBytes,
        timeoutMs: LIMITS.cardTimeoutMs,
        signal,
        network: await deps.connection.keylessNetwork(env),
      });
    },
    redact: (text) => deps.log.redactor.removeSecrets(text),
    onSecrets: (secrets) => secrets.forEach((s) => deps.log.redactor.add(s)),
    now: () => Date.now(),
  };
}

function signalOf(token: vscode.CancellationToken): AbortSignal {
  const controller = new AbortController();
  token.onCancellationRequested(() => controller.abort());
  if (token.isCancellationRequested) {
    controller.abort();
  }
  return controller.signal;
}

/** The plans people confirmed, by the input each was made for (a prepare need not be followed by an invoke). */
const confirmed = new Map<string, SendPlan>();
const MAX_CONFIRMED = 20;
const keyOf = (name: ToolName, input: unknown) => `${name}\u0000${JSON.stringify(input ?? {})}`;

/** What the person is asked before run_checks or send_payload sends: where to, how many requests, which files. */
function confirmation(name: ToolName, plan: SendPlan): vscode.LanguageModelToolConfirmationMessages {
  const services = clean(plan.services.join(', '));
  const files = clean(plan.files.join(', '));
  const text =
    name === 'send_payload'
      ? l10n.t(
          "An agent asks to send {0} to {1}: 1 request, on the organization's budget. The answer goes back to the agent.",
          files,
          services,
        )
      : l10n.t(
          "An agent asks to run the checks of {0}: {1} requests to {2}, on the organization's budget (graders may add requests). The results go back to the agent.",
          files,
          plan.requests,
          services,
        );
  return {
    title:
      name === 'send_payload'
        ? l10n.t('Send a payload to {0}?', services)
        : l10n.t('Run checks against {0}?', services),
    // appendText escapes Markdown: file names and URLs stay text.
    message: new vscode.MarkdownString().appendText(text),
  };
}

export interface AgentTools {
  prepare(
    name: ToolName,
    options: vscode.LanguageModelToolInvocationPrepareOptions<unknown>,
    token: vscode.CancellationToken,
  ): Promise<vscode.PreparedToolInvocation>;
  invoke(
    name: ToolName,
    options: vscode.LanguageModelToolInvocationOptions<unknown>,
    token: vscode.CancellationToken,
  ): Promise<vscode.LanguageModelToolResult>;
}

export function agentTools(deps: Services): AgentTools {
  const host = vscodeToolHost(deps);
  const result = (text: string) => new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(text)]);
  return {
    async prepare(name, options) {
      if (READ_ONLY[name]) {
        return {
          invocationMessage:
            name === 'list_models' ? l10n.t('Reading the registry’s models') : l10n.t('Reading a model and its card'),
        };
      }
      const plan = await planSending(name, options.input, host);
      if (!plan || plan.problem !== undefined) {
        // Nothing will be sent: invoke answers with the problem, so there is nothing to ask.
        return { invocationMessage: l10n.t('Checking the request') };
      }
      confirmed.set(keyOf(name, options.input), plan);
      if (confirmed.size > MAX_CONFIRMED) {
        confirmed.delete(confirmed.keys().next().value as string);
      }
      return {
        invocationMessage:
          name === 'send_payload'
            ? l10n.t('Sending {0}', clean(plan.files.join(', ')))
            : l10n.t('Running {0} checks', plan.requests),
        confirmationMessages: confirmation(name, plan),
      };
    },
    async invoke(name, options, token) {
      const signal = signalOf(token);
      if (!READ_ONLY[name]) {
        const key = keyOf(name, options.input);
        const asked = confirmed.get(key);
        confirmed.delete(key);
        const now = await planSending(name, options.input, host);
        if (now && now.problem === undefined) {
          const same =
            asked !== undefined &&
            now.requests <= asked.requests &&
            now.services.every((s) => asked.services.includes(s)) &&
            now.files.every((f) => asked.files.includes(f));
          if (!same) {
            // Never sent without the person's yes: not asked (no prepareInvocation), or the files grew since.
            return result(
              errorResult(
                `${name} was not run: what it would now send (requests: ${now.requests}; to: ${now.services.join(', ')}) is not what the person confirmed; call it again`,
                host.redact,
              ).text,
            );
          }
        }
      }
      return result((await invokeTool(name, options.input, host, signal)).text);
    },
  };
}
