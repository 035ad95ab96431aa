import * as vscode from 'vscode';
import { onFirstUse } from '../common/onFirstUse';
import { Commands } from '../ids';
import type { Services } from '../services';
import type { ReferencesFeature } from './feature';

/** What integration tests observe and drive: the feature once it has started (it loads after activation). */
export interface ReferencesApi {
  /** Starts the feature if it has not started yet, and returns it. */
  feature(): ReferencesFeature;
}

/**
 * Model ids in the workspace's code: an index of the registry's ids as string literals and config values,
 * their lifecycle in the Problems view (files never opened too), hover, quick fixes to the successor, Models
 * in Use, a status-bar note, and Try the Successor (the workspace's checks on both models). Its code
 * (feature.ts and what it imports, dist/refs.js) loads just after activation, so activation does not
 * grow; the commands are registered now and forward to it.
 */
export function register(deps: Services): vscode.Disposable[] {
  const load = onFirstUse((): ReferencesFeature => {
    const { ReferencesFeature } = require('./feature') as typeof import('./feature');
    return new ReferencesFeature(deps);
  });
  deps.testApi.references = { feature: () => load() } satisfies ReferencesApi;
  // The index is built in the background at start: after activation returns, never inside it.
  const start = setTimeout(() => {
    try {
      load();
    } catch (e) {
      deps.log.error(`Model references could not start: ${e instanceof Error ? e.message : String(e)}`);
    }
  }, 0);
  return [
    { dispose: () => clearTimeout(start) },
    { dispose: () => load.loaded?.dispose() },
    vscode.commands.registerCommand(Commands.trySuccessor, (...args: unknown[]) => load().trySuccessor(args[0])),
    vscode.commands.registerCommand(Commands.switchReferences, (from: unknown, to: unknown) =>
      load().switchReferences(from, to),
    ),
    vscode.commands.registerCommand(Commands.rescanReferences, () => load().rescan()),
  ];
}
