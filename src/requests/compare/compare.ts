import * as vscode from 'vscode';
import { isServiceError } from '../../api/errors';
import type { ModelService, PostEndpoint } from '../../api/types';
import { environmentFromArg, modelFromArg } from '../../domain/commandArgs';
import type { Environment } from '../../domain/environments';
import { commandEnvironment } from '../../platform/environments';
import type { ModelCatalog } from '../../platform/catalog';
import { payloadEnvironment, unresolvedMessage } from '../payloads/variableEditing';
import { variableContext } from '../../domain/payload/variableContext';
import { resolvePayload, type ResolvedPayload } from '../../domain/payload/variables';
import type { EnvAccess } from '../../platform/envAccess';
import { newNonce } from '../../common/html';
import { clean, displayText, type DisplayText } from '../../common/text';
import { modelCount } from '../../common/counts';
import { Commands } from '../../ids';
import { modelPickItems } from '../../platform/modelPicks';
import type { Services } from '../../services';
import {
  comparisonHtml,
  comparisonView,
  MAX_COMPARE,
  MIN_COMPARE,
  parseComparisonMessage,
  payloadFor,
  columnText,
  fitColumn,
  type ComparisonRun,
  type ComparisonView,
} from './core/comparison';
import { ENDPOINTS, readEndpoint } from '../../domain/payload/endpointHeader';
import { parsePayload, payloadModel, wantsStream } from '../../domain/payload/parse';
import { addEvent, newStreamState } from '../send/core/streamText';
import { readAnswer } from '../../domain/answer';
import { clientOrReport, followOutcome, isServiceFailure, offerWayOut } from '../send/exchange';
import { answerColumn, COMPARE_VIEW_TYPE } from '../answers/answerPlacement';
import { describeFailure, type Failure } from '../../domain/failure';
import { clip } from '../answers/core/responseFormat';
import type { RequestHistory } from '../send/history';
import { l10n } from '../../platform/l10n';

export { COMPARE_VIEW_TYPE };

/** What was compared, enough to run it again. */
export interface ComparisonRequest {
  endpoint: PostEndpoint;
  /** The payload as JSON (its `model` is replaced for each run). */
  payload: Record<string, unknown>;
  models: string[];
  /** The environment it is sent to, by name (undefined: the active one at each run). */
  environment?: string;
  /** The payload's file: which `{{$env NAME}}` it may read (core/variables.ts `EnvPolicy`). */
  source?: vscode.Uri;
}

export type CompareOutcome =
  { kind: 'compared'; view: ComparisonView; runs: ComparisonRun[] } | { kind: 'notRun'; message: string };

/**
 * Compare Models: the active payload sent to 2–6 models at once, each with its own `model`, drawn side by
 * side in one webview (a strict CSP; the page draws text with `textContent` only). Cancel aborts every
 * request; each run goes into the history; Compare again runs the same payload and models once more.
 */
export class ModelComparisons implements vscode.Disposable {
  private panel: vscode.WebviewPanel | undefined;
  private controllers: AbortController[] = [];
  private lastRequest: ComparisonRequest | undefined;
  /** What made each run fail, for the way out the notification offers (kept beside the runs the page draws). */
  private readonly failures = new WeakMap<ComparisonRun, Failure>();
  /** The view as last drawn (tests read it). */
  view: ComparisonView | undefined;

  constructor(
    private readonly deps: Services,
    private readonly history: RequestHistory,
    private readonly isPayload: (doc: vscode.TextDocument) => boolean,
    private readonly envAccess: EnvAccess,
  ) {}

  /**
   * `arg`: a model to preselect (Model Details' Compare with…, a row of the Models view), or `{ models }` to skip
   * the pick. A row under an environment's root (or `{ model, environment }`) compares on that environment's
   * service and offers its models; otherwise the payload goes where Send would send it (its `// @env` line, else
   * the active environment).
   */
  async compare(arg?: unknown): Promise<CompareOutcome> {
    const named = environmentFromArg(arg);
    const row = named === undefined ? undefined : commandEnvironment(this.deps.environments, this.deps.ui, arg);
    if (named !== undefined && !row) {
      return { kind: 'notRun', message: noLongerConfigured(named) };
    }
    const doc = this.payloadDocument();
    if (!doc) {
      const message = l10n.t('Open a payload to compare models on it (Model Access: New Request… makes one).');
      void this.deps.ui.info(message, l10n.t('New Request…')).then((a) => {
        if (a) {
          // The new payload keeps the row's environment (pinned to it, as New Request from the row does).
          const model = modelFromArg(arg, this.deps.catalog.models);
          void vscode.commands.executeCommand(Commands.newRequest, model && { model, environment: named });
        }
      });
      return { kind: 'notRun', message };
    }
    const pinned = row ? undefined : payloadEnvironment(doc.getText(), this.deps.environments);
    if (pinned?.missing !== undefined) {
      const message = l10n.t(
        'Nothing was sent: this payload is pinned to environment {0} (// @env), and no environment has that name in modelAccess.environments.',
        clean(pinned.missing),
      );
      void this.deps.ui.error(message);
      return { kind: 'notRun', message };
    }
    const env = row ? row.env : pinned?.env;
    const parsed = parsePayload(doc.getText());
    if (!parsed.ok) {
      const p = parsed.problem;
      const message = l10n.t(
        'Nothing was sent: the payload is not valid JSON at line {0}, column {1} ({2}).',
        p.line,
        p.column,
        clean(p.message),
      );
      void this.deps.ui.error(message);
      return { kind: 'notRun', message };
    }
    const payload = payloadFor(parsed.value, '');
    if (!payload) {
      const message = l10n.t('Nothing was sent: only a payload that is a JSON object can name a model.');
      void this.deps.ui.error(message);
      return { kind: 'notRun', message };
    }
    const endpoint = readEndpoint(doc.getText()) ?? (await this.askEndpoint());
    if (!endpoint) {
      return { kind: 'notRun', message: l10n.t('No endpoint was chosen; nothing was sent.') };
    }
    const models = await this.pickModels(arg, payloadModel(parsed.value), this.catalogOf(env), endpoint);
    if (typeof models === 'string') {
      return { kind: 'notRun', message: models };
    }
    // A row's or a pinned payload's environment stays the comparison's, also when it runs again after a switch.
    const environment = row?.name ?? (pinned?.pinned ? env?.name : undefined);
    return this.run({
      endpoint,
      payload: parsed.value as Record<string, unknown>,
      models,
      environment,
      source: doc.uri,
    });
  }

  /** Runs the last comparison again. */
  async again(): Promise<CompareOutcome> {
    if (!this.lastRequest) {
      return this.compare();
    }
    return this.run(this.lastRequest);
  }

  cancel(): void {
    for (const c of this.controllers) {
      c.abort();
    }
  }

  /** The payload in the active editor, else the one most recently visible or opened. */
  private payloadDocument(): vscode.TextDocument | undefined {
    const active = vscode.window.activeTextEditor?.document;
    if (active && this.isPayload(active)) {
      return active;
    }
    return (
      vscode.window.visibleTextEditors.map((e) => e.document).find((d) => this.isPayload(d)) ??
      [...vscode.workspace.textDocuments].reverse().find((d) => this.isPayload(d))
    );
  }

  private async askEndpoint(): Promise<PostEndpoint | undefined> {
    const pick = await this.deps.ui.pick(
      ENDPOINTS.map((e) => ({ label: l10n.t('POST {0}', clean(e.path)), description: clean(e.label), path: e.path })),
      { title: l10n.t('Compare models on which endpoint?') },
    );
    return pick?.path;
  }

  /** The list of `env`'s models (the shared catalog for the active environment). */
  private catalogOf(env: Environment | undefined): ModelCatalog {
    return env && env.name !== this.deps.environments.active?.name
      ? this.deps.catalogs.catalogFor(env)
      : this.deps.catalog;
  }

  private async pickModels(
    arg: unknown,
    current: string | undefined,
    catalog: ModelCatalog,
    endpoint: PostEndpoint,
  ): Promise<string[] | DisplayText> {
    const given = (arg as { models?: unknown } | undefined)?.models;
    let models: string[];
    if (Array.isArray(given)) {
      models = given.filter((m): m is string => typeof m === 'string');
    } else {
      await catalog.ensureLoaded();
      const preselected = new Set([modelFromArg(arg, catalog.models)?.id, current].filter((id): id is string => !!id));
      // The models that suit the endpoint first (chat models for a chat payload); the others after them.
      const items = modelPickItems(catalog.models, preselected, endpoint, Date.now(), this.deps.config.prices);
      if (items.length === 0) {
        const message = l10n.t('No models to compare: the model list is empty or could not be loaded.');
        void this.deps.ui.info(message);
        return message;
      }
      const picked = await this.deps.ui.pickMany(items, {
        title: l10n.t('Compare models: pick {0} to {1}', MIN_COMPARE, MAX_COMPARE),
        placeHolder: l10n.t('Type to search by id or version; check the models to send the payload to'),
        matchOnDescription: true,
      });
      if (!picked) {
        return l10n.t('No models were picked; nothing was sent.');
      }
      models = picked.map((p) => p.model?.id).filter((id): id is string => id !== undefined);
    }
    models = [...new Set(models)];
    if (models.length < MIN_COMPARE || models.length > MAX_COMPARE) {
      const message = l10n.t(
        'Pick between {0} and {1} models to compare ({2} picked); nothing was sent.',
        MIN_COMPARE,
        MAX_COMPARE,
        models.length,
      );
      void this.deps.ui.warn(message);
      return message;
    }
    return models;
  }

  private async run(request: ComparisonRequest): Promise<CompareOutcome> {
    const target =
      request.environment === undefined
        ? { env: this.deps.environments.active }
        : commandEnvironment(this.deps.environments, this.deps.ui, { environment: request.environment });
    if (!target) {
      return { kind: 'notRun', message: noLongerConfigured(request.environment ?? '') };
    }
    // `{{…}}` resolved for each run as Send resolves them, `{{model}}` being that run's model; an unknown one
    // sends nothing.
    const context = variableContext(target.env, { envPolicy: this.envAccess.policyFor(request.source) });
    const bodies = request.models.map((model) => resolvePayload(payloadFor(request.payload, model), context));
    const unresolved = bodies.find((b) => b.problems.length > 0);
    if (unresolved) {
      const message = unresolvedMessage(unresolved.problems);
      if (unresolved.problems.some((p) => p.refusedEnv !== undefined)) {
        void this.envAccess
          .offerAllow(this.deps.ui, message, unresolved.problems)
          .then((allowed) => (allowed ? this.run(request) : undefined));
      } else {
        void this.deps.ui.error(message);
      }
      return { kind: 'notRun', message };
    }
    bodies.forEach((b) => b.secrets.forEach((secret) => this.deps.log.redactor.add(secret)));
    const client = await clientOrReport(this.deps, target.env);
    if ('notReady' in client) {
      return { kind: 'notRun', message: client.notReady };
    }
    this.cancel();
    this.lastRequest = request;
    const controllers = request.models.map(() => new AbortController());
    this.controllers = controllers;
    const stream = wantsStream(request.payload);
    const now = Date.now();
    const runs: ComparisonRun[] = request.models.map((model) => ({
      model,
      startedAt: now,
      streaming: stream,
      text: '',
    }));
    const panel = this.showPanel();
    // Another environment than the active one: the tab says where the payload went.
    const elsewhere = target.env && target.env.name !== this.deps.environments.active?.name;
    panel.title = elsewhere ? `Compare Models · ${displayText(target.env?.name, 40)}` : 'Compare Models';
    this.view = comparisonView(request.endpoint, runs, Date.now());
    panel.webview.html = comparisonHtml(this.view, newNonce(), panel.webview.cspSource);
    const redraw = () => {
      this.view = this.redacted(comparisonView(request.endpoint, runs, Date.now()));
      if (this.panel === panel) {
        void panel.webview.postMessage(this.view);
      }
    };
    const timer = setInterval(redraw, 150);
    try {
      await vscode.window.withProgress(
        {
          location: vscode.ProgressLocation.Notification,
          title: l10n.t('Model Access: comparing {0}', modelCount(request.models.length)),
          cancellable: true,
        },
        async (_progress, token) => {
          token.onCancellationRequested(() => controllers.forEach((c) => c.abort()));
          await Promise.all(
            runs.map((r, i) =>
              this.runOne(client, request.endpoint, bodies[i], r, controllers[i], stream).then(() => {
                if (r.status !== undefined && r.status < 400) {
                  // Counted in the Usage view; the column shows its cost, and the cheapest is marked.
                  r.priced = this.deps.meter.record({ model: r.model, environment: target.env?.name, usage: r.usage });
                }
              }),
            ),
          );
        },
      );
    } finally {
      clearInterval(timer);
      if (this.controllers === controllers) {
        this.controllers = [];
      }
    }
    redraw();
    // One at a time: each add reads the list the previous one wrote.
    for (const r of runs) {
      await this.history.add({
        id: `${r.startedAt}-${Math.random().toString(36).slice(2, 8)}`,
        endpoint: request.endpoint,
        model: r.model,
        environment: target.env?.name,
        status: r.status,
        ended: r.cancelled ? 'cancelled' : r.error && r.status !== undefined && stream ? 'failed' : undefined,
        at: new Date(r.startedAt).toISOString(),
        elapsedMs: (r.endedAt ?? Date.now()) - r.startedAt,
        payload: JSON.stringify(payloadFor(request.payload, r.model), null, 2),
        summary: clip(this.deps.log.redactor.removeSecrets(r.error ?? r.text)),
      });
    }
    this.reportFailures(runs, target.env);
    return { kind: 'compared', view: this.view, runs };
  }

  private async runOne(
    client: ModelService,
    endpoint: PostEndpoint,
    /** The payload as sent: its model this run's, its references resolved (their secrets redacted in the answer). */
    body: ResolvedPayload,
    run: ComparisonRun,
    controller: AbortController,
    stream: boolean,
  ): Promise<void> {
    const limit = this.deps.config.maxResponseBytes;
    try {
      const result = await client.post(endpoint, body.json, {
        secrets: body.secrets,
        stream,
        signal: controller.signal,
      });
      run.status = result.status;
      run.firstByteMs = result.firstByteMs;
      if (result.error) {
        run.error = result.error.message;
        this.failures.set(run, describeFailure(result.error));
      }
      if (result.body) {
        run.text = columnText(result.body.json) ?? result.body.text;
        run.usage = readAnswer(result.body.json).usage;
      }
      if (result.events) {
        const state = newStreamState();
        for await (const event of result.events) {
          addEvent(state, event);
          if (run.firstTextAt === undefined && state.text.length > 0) {
            run.firstTextAt = Date.now();
          }
          run.text = state.text;
          if (state.text.length > limit) {
            run.error = `The answer passed the size limit (modelAccess.limits.maxResponseMegabytes) and was stopped there.`;
            controller.abort();
            break;
          }
        }
        run.usage = state.reader.answer().usage;
        if (state.error) {
          run.error = state.error;
        }
      }
    } catch (e) {
      if (isServiceError(e) && e.kind === 'aborted') {
        run.cancelled = run.error === undefined;
        run.error ??= l10n.t('Cancelled.');
      } else {
        run.error = isServiceError(e) ? e.message : l10n.t('The request failed unexpectedly.');
        this.failures.set(run, describeFailure(e));
      }
    }
    if (controller.signal.aborted && run.error === undefined) {
      run.cancelled = true;
      run.error = l10n.t('Cancelled.');
    }
    run.endedAt = Date.now();
  }

  /**
   * A failure about the service or the key (the same for every model) is said once, with the way out the
   * Models view offers — Set API Key…, Retry (the comparison again), Diagnose Connection — and the status bar
   * follows it; one model's own failure stays in its column. Every run answered: a failure is over.
   */
  private reportFailures(runs: readonly ComparisonRun[], env: Environment | undefined): void {
    const failed = runs.find((r) => {
      const f = this.failures.get(r);
      return f !== undefined && isServiceFailure(f);
    });
    const failure = failed && this.failures.get(failed);
    if (failed && failure) {
      followOutcome(this.deps, env, failure);
      const message = l10n.t('Compare Models: {0}', clean(this.deps.log.redactor.removeSecrets(failed.error ?? '')));
      offerWayOut(this.deps, message, failure, () => this.again());
    } else if (runs.some((r) => r.status !== undefined && r.status < 400)) {
      followOutcome(this.deps, env, undefined);
    }
  }

  /** The view with the key removed from every answer and error (the tail of a long answer, with a margin). */
  private redacted(view: ComparisonView): ComparisonView {
    const redact = this.deps.log.redactor.removeSecrets;
    return {
      ...view,
      columns: view.columns.map((c) => ({ ...c, text: fitColumn(c.text, redact), error: redact(c.error) })),
    };
  }

  private showPanel(): vscode.WebviewPanel {
    if (this.panel) {
      this.panel.reveal(undefined, true);
      return this.panel;
    }
    const panel = vscode.window.createWebviewPanel(
      COMPARE_VIEW_TYPE,
      'Compare Models',
      // With the answers, beside the payload — never a third column.
      { viewColumn: answerColumn(), preserveFocus: true },
      { enableScripts: true, enableCommandUris: false, localResourceRoots: [], retainContextWhenHidden: true },
    );
    panel.onDidDispose(() => {
      if (this.panel === panel) {
        this.panel = undefined;
        this.cancel();
      }
    });
    panel.webview.onDidReceiveMessage((m: unknown) => {
      const action = parseComparisonMessage(m);
      if (action === 'cancel') {
        this.cancel();
      } else if (action === 'again') {
        void this.again();
      }
    });
    this.panel = panel;
    return panel;
  }

  dispose(): void {
    this.cancel();
    this.panel?.dispose();
  }
}

/** What commandEnvironment told the person, as the outcome's message. */
function noLongerConfigured(name: string): DisplayText {
  return l10n.t('The environment {0} is no longer configured; refresh the Models view.', clean(name));
}
