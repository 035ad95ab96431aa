import { onFirstUse } from '../common/onFirstUse';
import { EnvAccess } from '../platform/envAccess';
import { readPayloadFile } from '../platform/payloadFiles';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { describeFailure } from '../domain/failure';
import { variableContext } from '../domain/payload/variableContext';
import { scratchOrigin } from '../domain/payload/kind';
import { displayText } from '../common/text';
import { l10n } from '../platform/l10n';
import type { Services } from '../services';
import { hasChecks, readCheckLines } from './core/checkFile';
import { readDataset } from '../domain/payload/dataset';
import type { FileResult, RowResult, Target } from './core/fileRun';
import type { Table } from './core/resultsTable';
import type { ModelGrid } from './core/modelGrid';
import type { ChecksSettings } from './settings';
import { ModelFollow } from './modelFollow';
import { rowChildOf, rowChildren } from './rowChildren';
import { CheckCosts } from './checkCosts';

/** What integration tests observe and drive. */
export interface ChecksApi {
  controller: vscode.TestController;
  /** Finds every payload with checks again (the workspace and the scratch folder). */
  refresh(): Promise<void>;
  /** Runs the checks of these items (every one when omitted); resolves when the run ended. */
  run(items?: readonly vscode.TestItem[], models?: readonly string[], token?: vscode.CancellationToken): Promise<void>;
  /** What the last runs reported per test item id (Test Explorer's results are not readable through the API). */
  outcomes(): ReadonlyMap<string, CheckOutcome>;
  /** The table of the last run (a row per request), and the per-model table of a several-models run. */
  lastTable(): Table | undefined;
  lastModelTable(): Table | undefined;
  /** The grid of the last several-models run (Results Across Models). */
  lastModelGrid(): ModelGrid | undefined;
  /** The run profile (tests start a continuous run through its handler). */
  profile: vscode.TestRunProfile;
  /** Resolves once the latest registry change was followed (outdated marks, continuous runs, an accepted offer). */
  modelChangesFollowed(): Promise<void>;
  /** The test item ids the latest registry change marked outdated. */
  lastInvalidated(): readonly string[];
}

const MAX_FILES = 5000;

/** The run code (dist/checks.js), loaded on the first run. */
const load = onFirstUse(() => require('./runner') as typeof import('./runner'));

/** What a run reported for one test item. */
export interface CheckOutcome {
  state: 'passed' | 'failed' | 'errored' | 'skipped';
  duration?: number;
  messages: { message: string; line?: number; expected?: string; actual?: string }[];
}

const DATA_ROW = /^row:(\d+)$/;
/** A payload's child for one model of its last several-models run: `…#model:<id>`. */
const MODEL_CHILD = '#model:';

/** The tag of a test whose attempts both passed and failed in its last run (`// @repeat`). */
export const FLAKY_TAG = new vscode.TestTag('flaky');

/** The run, with every result it is given also kept in `outcomes`. */
function recording(run: vscode.TestRun, outcomes: Map<string, CheckOutcome>): vscode.TestRun {
  const put = (
    item: vscode.TestItem,
    state: CheckOutcome['state'],
    messages?: vscode.TestMessage | readonly vscode.TestMessage[],
    duration?: number,
  ) => {
    const list = messages === undefined ? [] : Array.isArray(messages) ? messages : [messages as vscode.TestMessage];
    outcomes.set(item.id, {
      state,
      duration,
      messages: list.map((m) => ({
        message: typeof m.message === 'string' ? m.message : m.message.value,
        line: m.location?.range.start.line,
        expected: m.expectedOutput,
        actual: m.actualOutput,
      })),
    });
  };
  return Object.assign(Object.create(run) as vscode.TestRun, {
    passed: (item: vscode.TestItem, duration?: number) => (
      put(item, 'passed', undefined, duration),
      run.passed(item, duration)
    ),
    failed: (item: vscode.TestItem, m: vscode.TestMessage | readonly vscode.TestMessage[], duration?: number) => (
      put(item, 'failed', m, duration),
      run.failed(item, m, duration)
    ),
    errored: (item: vscode.TestItem, m: vscode.TestMessage | readonly vscode.TestMessage[], duration?: number) => (
      put(item, 'errored', m, duration),
      run.errored(item, m, duration)
    ),
    skipped: (item: vscode.TestItem) => (put(item, 'skipped'), run.skipped(item)),
    started: (item: vscode.TestItem) => run.started(item),
    enqueued: (item: vscode.TestItem) => run.enqueued(item),
    appendOutput: (output: string, location?: vscode.Location, item?: vscode.TestItem) =>
      run.appendOutput(output, location, item),
    end: () => run.end(),
  });
}

/**
 * Test Explorer for payload checks: every payload with `// @expect` lines in the workspace and the scratch
 * folder is a test labelled with its file name, under its folder; a payload over a dataset has a child per
 * row. A run sends each request through the environment's client (the payload's `// @env` or the active
 * one), and a failure is a message at its expectation's line with expected and actual.
 */
export class ChecksController implements vscode.Disposable {
  readonly controller = vscode.tests.createTestController('modelAccess.checks', l10n.t('Model Access Checks'));
  private readonly disposables: vscode.Disposable[] = [];
  private table: Table | undefined;
  private models: Table | undefined;
  private grid: ModelGrid | undefined;
  /** The last several-models run (payload, models asked, rows): a re-run of some models replaces their rows. */
  private acrossModels: { uri: string; models: readonly string[]; rows: readonly RowResult[] } | undefined;
  private readonly outcomes = new Map<string, CheckOutcome>();
  private readonly scratch: vscode.Uri;
  private readonly envAccess: EnvAccess;
  private readonly follow: ModelFollow;
  private readonly profile: vscode.TestRunProfile;

  /** Counts and prices each answered request; warns before a run past the service's remaining requests. */
  private readonly costs: CheckCosts;

  constructor(
    private readonly deps: Services,
    private readonly settings: ChecksSettings,
  ) {
    this.scratch = vscode.Uri.joinPath(deps.context.globalStorageUri, 'scratch');
    this.costs = new CheckCosts(deps);
    this.envAccess = new EnvAccess(deps.context.workspaceState, (uri) => scratchOrigin(uri, this.scratch));
    this.controller.resolveHandler = async (item) => {
      if (!item) {
        await this.refresh();
      }
    };
    this.controller.refreshHandler = () => this.refresh();
    this.follow = new ModelFollow(
      {
        controller: this.controller,
        payloadItems: () => this.payloadItems(),
        read: (uri) => this.read(uri),
        readBeside: (uri, file) => readPayloadFile(uri, file, this.scratch).then((r) => (r.ok ? r.text : undefined)),
        variables: (pinned, uri) => {
          const env = pinned === undefined ? this.deps.environments.active : this.deps.environments.find(pinned);
          return pinned !== undefined && !env
            ? undefined
            : variableContext(env, { envPolicy: this.envAccess.policyFor(uri) });
        },
        get maxRows() {
          return settings.maxRows;
        },
        run: (request, token) => this.runRequest(request, token),
      },
      deps,
    );
    // A continuous run re-runs the checks whose models a refresh finds changed (ModelFollow).
    this.profile = this.controller.createRunProfile(
      l10n.t('Run Checks'),
      vscode.TestRunProfileKind.Run,
      (request, token) => (request.continuous ? this.follow.watch(request, token) : this.runRequest(request, token)),
      true,
      undefined,
      true,
    );
    const watcher = vscode.workspace.createFileSystemWatcher('**/*.{json,jsonc,jsonl,ndjson,csv}');
    const changed = (uri: vscode.Uri) => void this.fileChanged(uri);
    this.disposables.push(
      watcher,
      watcher.onDidCreate(changed),
      watcher.onDidChange(changed),
      watcher.onDidDelete((uri) => this.remove(uri)),
      this.follow,
      vscode.workspace.onDidSaveTextDocument((doc) => changed(doc.uri)),
      vscode.workspace.onDidOpenTextDocument((doc) => {
        if (doc.uri.scheme === 'file' && /\.jsonc?$/i.test(doc.fileName)) {
          this.update(doc.uri, doc.getText());
        }
      }),
    );
  }

  get api(): ChecksApi {
    return {
      controller: this.controller,
      refresh: () => this.refresh(),
      run: (items, models, token) => this.runItems(items, models, token),
      outcomes: () => this.outcomes,
      lastTable: () => this.table,
      lastModelTable: () => this.models,
      lastModelGrid: () => this.grid,
      profile: this.profile,
      modelChangesFollowed: () => this.follow.settled(),
      lastInvalidated: () => this.follow.lastInvalidated(),
    };
  }

  /** Runs the checks whose models changed (Run Checks Affected by Model Changes); the ids of the items run. */
  runAffectedByModelChanges(): Promise<string[]> {
    return this.follow.runAffected();
  }

  /** Every payload's test item; the workspace is looked through first when none is known yet. */
  private async payloadItems(): Promise<vscode.TestItem[]> {
    if (this.controller.items.size === 0) {
      await this.refresh();
    }
    const out: vscode.TestItem[] = [];
    this.controller.items.forEach((folder) => folder.children.forEach((file) => void out.push(file)));
    return out;
  }

  /** Every `.json`/`.jsonc` file of the workspace and the scratch folder, as tests when they hold checks. */
  async refresh(): Promise<void> {
    const found = await vscode.workspace.findFiles('**/*.{json,jsonc}', '**/{node_modules,.git}/**', MAX_FILES);
    let scratch: vscode.Uri[] = [];
    try {
      scratch = (await vscode.workspace.fs.readDirectory(this.scratch))
        .filter(([name, type]) => type === vscode.FileType.File && /\.jsonc?$/i.test(name))
        .map(([name]) => vscode.Uri.joinPath(this.scratch, name));
    } catch {
      // No scratch folder yet.
    }
    const seen = new Set<string>();
    for (const uri of [...found, ...scratch]) {
      const text = await this.read(uri);
      if (text !== undefined && this.update(uri, text)) {
        seen.add(uri.toString());
      }
    }
    // Payloads that lost their checks or their file since the last look.
    this.controller.items.forEach((folder) => {
      folder.children.forEach((file) => {
        if (!seen.has(file.id)) {
          folder.children.delete(file.id);
        }
      });
      if (folder.children.size === 0) {
        this.controller.items.delete(folder.id);
      }
    });
  }

  private async read(uri: vscode.Uri): Promise<string | undefined> {
    const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
    if (open) {
      return open.getText();
    }
    try {
      return new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
    } catch {
      return undefined;
    }
  }

  private async fileChanged(uri: vscode.Uri): Promise<void> {
    if (/\.(jsonl|ndjson|csv)$/i.test(uri.path)) {
      // A dataset changed: the payloads reading it get their rows again.
      this.controller.items.forEach((folder) =>
        folder.children.forEach((file) => {
          if (file.uri && file.children.size > 0) {
            void this.read(file.uri).then((t) => t !== undefined && this.update(file.uri as vscode.Uri, t));
          }
        }),
      );
      return;
    }
    const text = await this.read(uri);
    if (text !== undefined) {
      this.update(uri, text);
    }
  }

  private folderOf(uri: vscode.Uri): { id: string; label: string } {
    if (uri.toString().startsWith(this.scratch.toString())) {
      return { id: `folder:${this.scratch.toString()}`, label: l10n.t('Scratch payloads') };
    }
    const dir = vscode.Uri.joinPath(uri, '..');
    // With several workspace folders, the relative path starts with the folder's name.
    const relative = vscode.workspace.asRelativePath(dir);
    return { id: `folder:${dir.toString()}`, label: relative === dir.fsPath ? path.basename(dir.fsPath) : relative };
  }

  /** Adds, updates or removes the test of one payload; true when it is (now) a test. */
  private update(uri: vscode.Uri, text: string): boolean {
    const folder = this.folderOf(uri);
    let group = this.controller.items.get(folder.id);
    if (!hasChecks(text)) {
      group?.children.delete(uri.toString());
      if (group && group.children.size === 0) {
        this.controller.items.delete(folder.id);
      }
      return false;
    }
    if (!group) {
      group = this.controller.createTestItem(folder.id, folder.label);
      group.sortText = folder.label;
      this.controller.items.add(group);
    }
    let item = group.children.get(uri.toString());
    if (!item) {
      item = this.controller.createTestItem(uri.toString(), path.basename(uri.path), uri);
      group.children.add(item);
    }
    const lines = readCheckLines(text);
    const first = lines.expectations[0]?.line ?? 0;
    item.range = new vscode.Range(first, 0, first, 0);
    item.error = undefined;
    const each = lines.each;
    // The results of the last several-models run stay under the payload until the next one.
    const perModel = modelChildren(item);
    if (!each || each.problem) {
      item.children.replace(perModel);
      return true;
    }
    void readPayloadFile(uri, each.file, this.scratch).then((data) => {
      const rows = data.ok ? readDataset(data.text, each.file) : undefined;
      const fileItem = item as vscode.TestItem;
      if (!rows) {
        fileItem.children.replace(perModel);
        fileItem.error =
          !data.ok && data.reason === 'outside'
            ? l10n.t(
                'The dataset {0} is outside the workspace folder of this payload: Model Access reads datasets and schemas only inside it.',
                displayText(each.file),
              )
            : l10n.t('The dataset {0} cannot be read', displayText(each.file));
        return;
      }
      fileItem.children.replace([
        ...rowChildren(
          this.controller,
          fileItem,
          uri,
          { file: each.file, line: each.line, rows },
          this.settings.maxRows,
        ),
        ...perModel,
      ]);
    });
    return true;
  }

  private remove(uri: vscode.Uri): void {
    const folder = this.controller.items.get(this.folderOf(uri).id);
    folder?.children.delete(uri.toString());
    if (folder && folder.children.size === 0) {
      this.controller.items.delete(folder.id);
    }
  }

  private async runItems(
    items?: readonly vscode.TestItem[],
    models?: readonly string[],
    token?: vscode.CancellationToken,
  ): Promise<void> {
    const source = new vscode.CancellationTokenSource();
    try {
      await this.runRequest(new vscode.TestRunRequest(items), token ?? source.token, models);
    } finally {
      source.dispose();
    }
  }

  /** The payload items a request names (a folder is all of its payloads), with the rows asked for. */
  private collect(request: vscode.TestRunRequest): Map<vscode.TestItem, Set<number> | undefined> {
    const out = new Map<vscode.TestItem, Set<number> | undefined>();
    const excluded = new Set((request.exclude ?? []).map((i) => i.id));
    const add = (item: vscode.TestItem) => {
      if (excluded.has(item.id)) {
        return;
      }
      if (item.id.startsWith('folder:')) {
        item.children.forEach(add);
        return;
      }
      if (item.id.includes(MODEL_CHILD) && item.parent) {
        add(item.parent);
        return;
      }
      const row = DATA_ROW.exec(item.id.slice(item.id.lastIndexOf('#') + 1));
      if (row && item.parent) {
        if (out.has(item.parent) && out.get(item.parent) === undefined) {
          return;
        }
        const rows = out.get(item.parent) ?? new Set<number>();
        rows.add(Number(row[1]));
        out.set(item.parent, rows);
        return;
      }
      out.set(item, undefined);
    };
    if (request.include) {
      request.include.forEach(add);
    } else {
      this.controller.items.forEach(add);
    }
    return out;
  }

  async runRequest(
    request: vscode.TestRunRequest,
    token: vscode.CancellationToken,
    models?: readonly string[],
  ): Promise<void> {
    if (!request.include) {
      await this.refresh();
    }
    // Running only the children of models runs their payloads on those models again.
    const asked = request.include?.map((i) => i.id.split(MODEL_CHILD)[1]);
    const rerun = !models?.length && !!asked?.length && asked.every((m) => m !== undefined);
    if (rerun) {
      models = [...new Set(asked as string[])];
    }
    const items = this.collect(request);
    this.costs.startRun();
    const run = recording(this.controller.createTestRun(request), this.outcomes);
    const abort = new AbortController();
    const cancel = token.onCancellationRequested(() => abort.abort());
    const tables: Table[] = [];
    try {
      for (const item of items.keys()) {
        run.enqueued(item);
      }
      for (const [item, rows] of items) {
        if (abort.signal.aborted) {
          run.skipped(item);
          item.children.forEach((c) => run.skipped(c));
          continue;
        }
        tables.push(await this.runFile(run, item, rows, abort.signal, models, rerun));
      }
    } finally {
      cancel.dispose();
      const rows = tables.flatMap((t) => t.rows);
      if (tables.length > 0) {
        this.table = { columns: tables[0].columns, rows };
      }
      run.end();
    }
  }

  private async runFile(
    run: vscode.TestRun,
    item: vscode.TestItem,
    onlyRows: Set<number> | undefined,
    signal: AbortSignal,
    models: readonly string[] | undefined,
    rerun = false,
  ): Promise<Table> {
    const uri = item.uri as vscode.Uri;
    run.started(item);
    const text = (await this.read(uri)) ?? '';
    const started = Date.now();
    const files = new Map<string, string | undefined>();
    // Datasets and schemas next to the payload, read before the run (the core reads them synchronously).
    const lines = readCheckLines(text);
    const wanted = [
      ...(lines.each ? [lines.each.file] : []),
      ...lines.expectations.flatMap((l) => (l.expectation?.kind === 'schema' ? [l.expectation.file] : [])),
    ];
    for (const f of wanted) {
      const read = await readPayloadFile(uri, f, this.scratch);
      files.set(f, read.ok ? read.text : undefined);
    }
    const childOf = (line: number | undefined) => rowChildOf(item, line);
    const { runCheckFile, resultsTable, modelTable, tableAsText } = load();
    // Repeated requests are reported once all their attempts are in (finishRepeated).
    const repeated = (lines.repeat?.count ?? 1) > 1;
    // Where the requests go (the payload's pinned environment, else the active one): counted and priced there.
    let environment: string | undefined;
    const result = await runCheckFile(text, {
      graderModels: this.settings.graders,
      onDefaultEmbeddings: (model) =>
        run.appendOutput(
          `${displayText(
            model === undefined
              ? l10n.t(
                  'similar: the service lists no current embeddings model; name one in modelAccess.checks.graders or // @grader',
                )
              : l10n.t(
                  "similar compares with {0} (default: the service's newest current embeddings model)",
                  displayText(model),
                ),
            300,
          )}\r\n`,
          undefined,
          item,
        ),
      onlyRows,
      target: async (pinned) => {
        environment = pinned ?? this.deps.environments.active?.name;
        if (lines.expectations.some((l) => l.expectation?.kind === 'cost' || l.expectation?.kind === 'totalCost')) {
          // A cost is judged at the registry's price: the environment's model list holds it.
          await this.deps.meter.loadPrices(environment);
        }
        return this.target(pinned, uri);
      },
      beforeRequests: (count) => this.costs.confirm(count, environment),
      // `// @expect cost` and `total cost` at the model's price in that environment (registry and setting).
      priceOf: (model) => this.deps.meter.priceOf(model, environment),
      readText: (f) => files.get(f) ?? undefined,
      concurrency: this.settings.concurrency,
      maxRows: this.settings.maxRows,
      maxResponseBytes: this.deps.config.maxResponseBytes,
      redact: this.deps.log.redactor.removeSecrets,
      models,
      signal,
      onSecrets: (secrets) => secrets.forEach((s) => this.deps.log.redactor.add(s)),
      onStart: (planned) => {
        const child = childOf(planned.row?.line);
        // On several models a row's requests are the models' children's (their rows are not reported alone).
        if (child && !models?.length) {
          run.started(child);
        }
      },
      onResult: (row) => {
        this.costs.record(row, environment);
        const child = childOf(row.row?.line);
        if (child && !models?.length && !repeated) {
          this.report(run, child, uri, row);
        }
        this.reportGrades(run, uri, child ?? item, row);
      },
    });
    if (repeated && !models?.length && !result.notRunnable) {
      this.finishRepeated(run, item, uri, result, Date.now() - started, childOf, lines.repeat?.line ?? 0);
    } else {
      this.finishFile(run, item, uri, result, Date.now() - started, models);
    }
    const table = resultsTable(result.rows);
    if (table.rows.length > 1 || result.dataset) {
      run.appendOutput(`${tableAsText(table).replace(/\n/g, '\r\n')}\r\n`, undefined, item);
    }
    if (models && models.length > 0) {
      // Re-running one model's child from Test Explorer updates that model's column and keeps the others.
      const last = this.acrossModels;
      const across =
        rerun && last?.uri === uri.toString()
          ? {
              uri: last.uri,
              models: [...new Set([...last.models, ...models])],
              // A request that never ran names no model: the re-run reports its own.
              rows: [
                ...last.rows.filter((r) => r.kind === 'run' && !models.includes(r.result.run.model ?? '')),
                ...result.rows,
              ],
            }
          : { uri: uri.toString(), models, rows: result.rows };
      this.acrossModels = across;
      this.models = modelTable(across.rows, across.models);
      run.appendOutput(`${tableAsText(this.models).replace(/\n/g, '\r\n')}\r\n`, undefined, item);
      if (!result.notRunnable) {
        this.grid = load().modelGrid({
          payload: path.basename(uri.path),
          models: across.models,
          rows: across.rows,
          dataset: result.dataset,
          passRate: result.passRate,
          pricedOf: this.costs.pricedOf,
        });
        this.reportModels(run, item, uri, result, models, rerun);
        run.appendOutput(
          `${l10n.t('Model Access: Show Results Across Models shows them as a grid, and saves it as CSV.')}\r\n`,
          undefined,
          item,
        );
      }
    }
    return table;
  }

  private finishFile(
    run: vscode.TestRun,
    item: vscode.TestItem,
    uri: vscode.Uri,
    result: FileResult,
    elapsed: number,
    models: readonly string[] | undefined,
  ): void {
    if (result.notRunnable) {
      const message = new vscode.TestMessage(displayText(result.notRunnable.message, 2000));
      message.location = new vscode.Location(uri, new vscode.Position(result.notRunnable.line, 0));
      run.failed(item, message, elapsed);
      item.children.forEach((c) => run.skipped(c));
      return;
    }
    if (result.rows.length === 0) {
      run.skipped(item);
      return;
    }
    // `// @expect total cost`, judged over the file's requests (per model): a failure at its line.
    const totals = (result.totals ?? [])
      .filter((t) => !t.outcome.passed)
      .map((t) => {
        const m = new vscode.TestMessage(
          displayText(`${t.model && models?.length ? `${t.model}: ` : ''}${t.outcome.message ?? ''}`, 2000),
        );
        m.location = new vscode.Location(uri, new vscode.Position(t.line, 0));
        return m;
      });
    if (result.rows.length === 1 && !result.dataset && !models?.length) {
      this.report(run, item, uri, result.rows[0], totals);
      return;
    }
    const { firstFailure } = load();
    const failures = result.rows.filter((r) => firstFailure(r) !== undefined);
    if (failures.length === 0 && totals.length === 0) {
      run.passed(item, elapsed);
      return;
    }
    const messages = failures.slice(0, 20).flatMap((r) => this.messages(uri, r, `${r.label}: `));
    run.failed(item, [...totals, ...messages], elapsed);
  }

  /**
   * The attempts of each repeated request as one result: passed when the share of passing attempts meets
   * `// @pass-rate`, "3 of 5" in its message or output, and the flaky tag when attempts both passed and failed.
   */
  private finishRepeated(
    run: vscode.TestRun,
    item: vscode.TestItem,
    uri: vscode.Uri,
    result: FileResult,
    elapsed: number,
    /** A payload's child by its dataset row's line. */
    childOf: (line: number | undefined) => vscode.TestItem | undefined,
    /** The `// @repeat` line: the tally is shown there, in the editor as in Test Results. */
    repeatLine: number,
  ): void {
    const { firstFailure, groupAttempts, judgeAttempts } = load();
    const groups = groupAttempts(
      result.rows,
      (r) => r.label,
      (r) => firstFailure(r) === undefined,
    );
    const failures: vscode.TestMessage[] = [];
    for (const [label, g] of groups) {
      const verdict = judgeAttempts(g, result.passRate ?? 1);
      const target = childOf(g.items[0].row?.line) ?? item;
      target.tags = [...target.tags.filter((t) => t.id !== FLAKY_TAG.id), ...(verdict.flaky ? [FLAKY_TAG] : [])];
      const tally = verdict.flaky
        ? l10n.t('{0} passed, flaky', displayText(verdict.tally ?? ''))
        : l10n.t('{0} passed', displayText(verdict.tally ?? ''));
      const time = g.items.reduce((t, r) => t + (r.kind === 'run' ? r.result.observed.elapsedMs : 0), 0);
      const prefix = target === item && result.dataset ? `${label}: ` : '';
      if (verdict.passed) {
        run.appendOutput(`${displayText(`${prefix}${tally}`, 300)}\r\n`, undefined, target);
        if (target !== item) {
          run.passed(target, time);
        }
        continue;
      }
      const failed = g.items.find((r) => firstFailure(r) !== undefined) ?? g.items[0];
      const summary = new vscode.TestMessage(displayText(`${label}: ${tally}`, 300));
      summary.location = new vscode.Location(uri, new vscode.Position(repeatLine, 0));
      const messages = [summary, ...this.messages(uri, failed, prefix)];
      failures.push(...messages);
      if (target !== item) {
        run.failed(target, messages, time);
      }
    }
    if (failures.length === 0) {
      run.passed(item, elapsed);
    } else {
      run.failed(item, failures.slice(0, 40), elapsed);
    }
  }

  /**
   * A child of the payload per model of a several-models run, in the order asked, each passed or failed with
   * the messages of its own requests (a dataset row's prefixed with the row). A new run replaces the children
   * of the last; a `rerun` of some of them from Test Explorer keeps the others.
   */
  private reportModels(
    run: vscode.TestRun,
    item: vscode.TestItem,
    uri: vscode.Uri,
    result: FileResult,
    models: readonly string[],
    rerun: boolean,
  ): void {
    const { firstFailure, rowsByModel } = load();
    const children = [...rowsByModel(result.rows, models)].map(([model, rows], i) => {
      const id = `${item.id}${MODEL_CHILD}${model}`;
      const existing = rerun ? item.children.get(id) : undefined;
      const child = existing ?? this.controller.createTestItem(id, displayText(model, 120), uri);
      child.range = item.range;
      // After the dataset's rows (their sortText is the padded line number), in the order the models were asked.
      child.sortText ??= `~${String(i).padStart(3, '0')}`;
      return { child, rows };
    });
    const kept: vscode.TestItem[] = [];
    item.children.forEach((c) => {
      const model = c.id.split(MODEL_CHILD)[1];
      if (model === undefined || (rerun && !models.includes(model))) {
        kept.push(c);
      }
    });
    item.children.replace([...kept, ...children.map((c) => c.child)]);
    for (const { child, rows } of children) {
      const time = rows.reduce((t, r) => t + (r.kind === 'run' ? r.result.observed.elapsedMs : 0), 0);
      if (rows.length === 0) {
        run.skipped(child);
        continue;
      }
      const failures = rows.filter((r) => firstFailure(r) !== undefined);
      if (failures.length === 0) {
        run.passed(child, time);
        continue;
      }
      const line = (r: RowResult) => (r.kind === 'run' ? r.result.run.row?.line : undefined);
      const prefix = (r: RowResult) =>
        result.dataset && line(r) !== undefined ? `${result.dataset}:${line(r)}: ` : '';
      run.failed(
        child,
        failures.slice(0, 20).flatMap((r) => this.messages(uri, r, prefix(r))),
        time,
      );
    }
  }

  /** The graders' scores and reasons, passes included, in Test Results at their lines. */
  private reportGrades(run: vscode.TestRun, uri: vscode.Uri, item: vscode.TestItem, row: RowResult): void {
    if (row.kind !== 'run') {
      return;
    }
    for (const r of row.result.results) {
      if (r.outcome.reason !== undefined) {
        const line = `${row.label}: ${r.outcome.passed ? '✓' : '✗'} ${r.source} — ${r.outcome.reason}`;
        run.appendOutput(
          `${displayText(line, 500)}\r\n`,
          new vscode.Location(uri, new vscode.Position(r.line, 0)),
          item,
        );
      }
    }
  }

  /** One request's outcome on its test item: passed, or a message at each failed expectation's line. */
  private report(
    run: vscode.TestRun,
    item: vscode.TestItem,
    uri: vscode.Uri,
    row: RowResult,
    /** Failures judged over the file (`total cost`), for a file of one request. */
    more: vscode.TestMessage[] = [],
  ): void {
    const duration = row.kind === 'run' ? row.result.observed.elapsedMs : undefined;
    if (row.kind === 'run') {
      // Every run says in Test Results what it sent, to which model, and what came back.
      const record = load().runRecord(row.result.endpoint, row.result.model, row.result.observed, row.label);
      const facts = this.costs.factsOf(row);
      run.appendOutput(`${displayText(facts ? `${record} (${facts})` : record, 700)}\r\n`, undefined, item);
    }
    const messages = [...this.messages(uri, row, ''), ...more];
    if (messages.length === 0) {
      run.passed(item, duration);
    } else if (row.kind === 'run' && row.result.observed.status === undefined) {
      run.errored(item, messages, duration);
    } else {
      run.failed(item, messages, duration);
    }
  }

  private messages(uri: vscode.Uri, row: RowResult, prefix: string): vscode.TestMessage[] {
    const at = (line: number, column = 0) => new vscode.Location(uri, new vscode.Position(line, column));
    if (row.kind === 'problem') {
      const m = new vscode.TestMessage(displayText(`${prefix}${row.message}`, 2000));
      m.location = at(row.line);
      return [m];
    }
    return row.result.results
      .filter((r) => !r.outcome.passed)
      .map((r) => {
        const text = displayText(`${prefix}${r.outcome.message ?? ''}`, 2000);
        const m =
          r.outcome.diff && r.outcome.expected !== undefined && r.outcome.actual !== undefined
            ? vscode.TestMessage.diff(text, r.outcome.expected, r.outcome.actual)
            : new vscode.TestMessage(text);
        m.location = at(r.line);
        return m;
      });
  }

  /** The client and variables of the payload's environment (its `// @env`, else the active one). */
  private async target(pinned: string | undefined, uri: vscode.Uri): Promise<Target> {
    const env = pinned === undefined ? this.deps.environments.active : this.deps.environments.find(pinned);
    if (pinned !== undefined && !env) {
      return {
        problem: l10n.t(
          'This payload is pinned to environment {0} (// @env), and no environment has that name in modelAccess.environments.',
          displayText(pinned),
        ),
      };
    }
    try {
      const client = await this.deps.connection.getClient(env);
      return {
        client,
        // A check file from a repository reads only the `{{$env}}` names Send would let it read.
        variables: variableContext(env, { envPolicy: this.envAccess.policyFor(uri) }),
      };
    } catch (e) {
      return { problem: describeFailure(e).message };
    }
  }

  /** Saves the last run's table as CSV where the person chooses. */
  async saveTable(): Promise<vscode.Uri | undefined> {
    const table = this.models ?? this.table;
    if (!table) {
      void this.deps.ui.info(l10n.t('Run some checks first: there is no results table yet.'));
      return undefined;
    }
    const target = await this.deps.ui.saveDialog({
      filters: { CSV: ['csv'] },
      saveLabel: l10n.t('Save Results'),
      defaultUri: vscode.workspace.workspaceFolders?.[0]
        ? vscode.Uri.joinPath(vscode.workspace.workspaceFolders[0].uri, 'check-results.csv')
        : undefined,
    });
    if (target) {
      await vscode.workspace.fs.writeFile(target, new TextEncoder().encode(load().tableAsCsv(table)));
    }
    return target;
  }

  /** Items of the payloads open in the editor, for Run Checks from the palette (all when none is open). */
  itemFor(uri: vscode.Uri): vscode.TestItem | undefined {
    let found: vscode.TestItem | undefined;
    this.controller.items.forEach((folder) => {
      found ??= folder.children.get(uri.toString());
    });
    return found;
  }

  dispose(): void {
    this.disposables.forEach((d) => d.dispose());
    this.controller.dispose();
  }
}

/** The children of a payload's test for the models of its last several-models run. */
function modelChildren(item: vscode.TestItem): vscode.TestItem[] {
  const out: vscode.TestItem[] = [];
  item.children.forEach((c) => void (c.id.includes(MODEL_CHILD) && out.push(c)));
  return out;
}
