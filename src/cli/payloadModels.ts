/**
 * Which models a payload's requests go to, known before anything is sent: the `--model` models of the run,
 * else the payload's own `"model"`, its `{{variables}}` resolved as the run resolves them (the environment's
 * variables, each dataset row's fields). `model-access check --changed-since` runs a payload when one of them
 * changed. A model that cannot be known in advance (no `"model"`, a variable with no value) is said so, and
 * the caller runs the payload rather than skip what may have changed. Pure; no `vscode` import.
 */
import { contextFor, isNotRunnable, loadDataset, prepareCheck } from '../checks/core/runCheck';
import { planRuns } from '../checks/core/planner';
import { resolveString, type VariableContext } from '../domain/payload/variables';

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
