/**
 * Which models a payload's requests go to, known before anything is sent: the `--model` models of the run,
 * else the payload's own `"model"`, its `{{variables}}` resolved as the run resolves them (the environment's
 * variables, each dataset row's fields); and which of them a registry change touched. The one reading for
 * `model-access check --changed-since` (which runs a payload whose model cannot be known in advance, to be
 * safe) and Test Explorer (which marks outdated, and offers to run, only the checks whose models it knows
 * changed). Pure; no `vscode` import.
 */
import { pinnedEnvironment, resolveString, type VariableContext } from '../../domain/payload/variables';
import type { ModelChange, RegistryChanges } from '../../domain/registry/changes';
import { contextFor, isNotRunnable, loadDataset, prepareCheck } from './runCheck';
import { planRuns } from './planner';

export type PayloadModels = { models: string[] } | { unknown: string };

export function payloadModels(
  text: string,
  deps: {
    variables: VariableContext;
    readText: (relative: string) => string | undefined;
    /** The run's `--model` models. */
    models: readonly string[];
    maxRows: number;
  },
): PayloadModels {
  if (deps.models.length > 0) {
    return { models: [...new Set(deps.models)] };
  }
  const check = prepareCheck(text);
  if (isNotRunnable(check)) {
    return { unknown: 'the payload cannot be read' };
  }
  const own = (check.value as { model?: unknown } | undefined)?.model;
  if (typeof own !== 'string') {
    return { unknown: 'it names no model (the service chooses one)' };
  }
  if (!own.includes('{{')) {
    return { models: [own] };
  }
  const { dataset, problem } = loadDataset(check, deps.readText);
  if (problem) {
    return { unknown: 'its dataset cannot be read' };
  }
  const found = new Set<string>();
  for (const run of planRuns(dataset?.rows, [], deps.maxRows).runs) {
    const resolved = resolveString(own, contextFor(run, deps.variables));
    if (resolved.problems.length > 0 || resolved.secrets.length > 0) {
      return { unknown: 'its model is a variable without a value' };
    }
    found.add(resolved.sent);
  }
  return { models: [...found] };
}

/** The changes among the models a payload uses, in the order it names them (none when they are unknown). */
export function changedModels(models: PayloadModels, changes: Pick<RegistryChanges, 'byId'>): ModelChange[] {
  if ('unknown' in models) {
    return [];
  }
  return models.models.flatMap((id) => {
    const change = changes.byId.get(id);
    return change ? [change] : [];
  });
}

/** What a refresh found changed in one environment's list. */
export interface EnvironmentChanges {
  /** The environment whose list changed (as the service state names it). */
  environment: string;
  /** Only the changes by id are read, so changes gathered from several refreshes can be merged. */
  changes: Pick<RegistryChanges, 'byId'>;
}

/**
 * The changes that make a payload's checks outdated: those among the models it sends to in the environment
 * that changed. A payload pinned to another environment (`// @env`) is not affected; nor is one whose model
 * cannot be known (no `"model"`, a variable with no value, a file that is not a payload): Test Explorer
 * cannot say it changed, and never fails over a file it cannot read.
 */
export function payloadChanges(
  text: string,
  found: EnvironmentChanges,
  deps: {
    /** The variables of the environment a payload goes to: its `// @env` (by name), else the active one. */
    variables: (pinned: string | undefined) => VariableContext | undefined;
    readText: (relative: string) => string | undefined;
    maxRows: number;
  },
): ModelChange[] {
  try {
    const pinned = pinnedEnvironment(text)?.name;
    if (pinned !== undefined && pinned.trim().toLowerCase() !== found.environment.trim().toLowerCase()) {
      return [];
    }
    const variables = deps.variables(pinned);
    if (!variables) {
      return [];
    }
    const models = payloadModels(text, { variables, readText: deps.readText, models: [], maxRows: deps.maxRows });
    return changedModels(models, found.changes);
  } catch {
    // A payload this reading cannot follow is simply not known to be affected.
    return [];
  }
}
