/**
 * One measured side of one scenario, in a process of its own: `worker.ts <module> <task> <json params>`.
 * It prints one `BENCH_RESULT {...}` line; the orchestrator (run.ts) does the comparing.
 */
import { reportResult } from './sample';

type Task = (params: never) => Promise<unknown>;

const MODULES: Record<string, () => Promise<Record<string, Task>>> = {
  catalog: async () => (await import('./catalog.js')).workerTasks,
  catalogMemory: async () => (await import('./catalog.js')).memoryTasks,
  upload: async () => (await import('./upload.js')).workerTasks,
  streaming: async () => (await import('./streaming.js')).workerTasks,
  checks: async () => (await import('./checks.js')).workerTasks,
  graders: async () => (await import('./graders.js')).workerTasks,
};

async function main(): Promise<void> {
  const [moduleName, taskName, json] = process.argv.slice(2);
  const load = MODULES[moduleName];
  if (!load) {
    throw new Error(`unknown bench module ${moduleName}`);
  }
  const tasks = await load();
  const task = tasks[taskName];
  if (!task) {
    throw new Error(`unknown task ${moduleName}/${taskName}`);
  }
  const result = await task(JSON.parse(json ?? '{}') as never);
  reportResult(result);
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    process.exit(1);
  },
);
