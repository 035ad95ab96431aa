/**
 * Child processes for the benchmark: every measured side runs in a process of its own, so its peak RSS is
 * its own, and the local service runs in yet another one.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import * as path from 'node:path';
import { RESULT_PREFIX } from './sample';

export const REPO_ROOT = path.resolve(__dirname, '..');

/** `node --import tsx`: TypeScript straight from the tree (the local service, the stream source). */
function tsNode(): string[] {
  return ['--import', 'tsx'];
}

const live = new Set<ChildProcess>();
/** Ends every child this process started (on Ctrl+C and on a failed run). */
export function killChildren(): void {
  for (const child of live) {
    child.kill('SIGKILL');
  }
  live.clear();
}

export interface WorkerOptions {
  /** Write a V8 CPU profile of the worker into this folder (`node --cpu-prof`). */
  cpuProfDir?: string;
  timeoutMs?: number;
  /** Another build of the worker (`--compare-with`); default the one `setWorkerBundle` set. */
  bundle?: string;
}

let bundled: string | undefined;
/** The worker as built by `buildWorker()` (bench/build.ts); the orchestrator builds it once per run. */
export function setWorkerBundle(file: string): void {
  bundled = file;
}
function workerBundle(): string {
  if (!bundled) {
    throw new Error('the bench worker was not built (call buildWorker first)');
  }
  return bundled;
}

/** Runs the bundled `bench/worker.ts <module> <task> <params>` in plain Node and returns the JSON it reports. */
export function runWorker<T>(module: string, task: string, params: unknown, options: WorkerOptions = {}): Promise<T> {
  const nodeArgs = ['--expose-gc'];
  if (options.cpuProfDir) {
    nodeArgs.push('--cpu-prof', '--cpu-prof-dir', options.cpuProfDir);
  }
  const child = spawn(
    process.execPath,
    [...nodeArgs, options.bundle ?? workerBundle(), module, task, JSON.stringify(params)],
    {
      cwd: REPO_ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  live.add(child);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
  const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 600_000);
  return new Promise<T>((resolve, reject) => {
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      live.delete(child);
      const line = stdout.split('\n').find((l) => l.startsWith(RESULT_PREFIX));
      if (code === 0 && line) {
        resolve(JSON.parse(line.slice(RESULT_PREFIX.length)) as T);
      } else {
        reject(
          new Error(
            `bench worker ${module}/${task} failed (${signal ?? code}):\n${stderr.slice(-4000)}${stdout.slice(-2000)}`,
          ),
        );
      }
    });
  });
}

export interface ChildService {
  url: string;
  keys: Record<string, string>;
  pid: number;
  stop(): Promise<void>;
}

/**
 * Starts a program that prints `{"url", "keys"}` as its first stdout line (the local service's CLI, or the
 * bench's stream source) and resolves once it did.
 */
export function startService(script: string, args: string[]): Promise<ChildService> {
  const child = spawn(process.execPath, [...tsNode(), path.resolve(REPO_ROOT, script), ...args], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  live.add(child);
  let stderr = '';
  child.stderr.on('data', (c: Buffer) => {
    stderr = (stderr + c.toString('utf8')).slice(-4000);
  });
  const exited = new Promise<void>((resolve) => child.on('close', () => resolve()));
  return new Promise<ChildService>((resolve, reject) => {
    let buffered = '';
    const onData = (c: Buffer) => {
      buffered += c.toString('utf8');
      const nl = buffered.indexOf('\n');
      if (nl < 0) {
        return;
      }
      child.stdout.off('data', onData);
      child.stdout.resume();
      try {
        const info = JSON.parse(buffered.slice(0, nl)) as { url: string; keys: Record<string, string> };
        resolve({
          url: info.url,
          keys: info.keys,
          pid: child.pid as number,
          stop: async () => {
            child.kill('SIGTERM');
            const killer = setTimeout(() => child.kill('SIGKILL'), 5000);
            await exited;
            clearTimeout(killer);
            live.delete(child);
          },
        });
      } catch (e) {
        reject(new Error(`${script} did not print its address: ${String(e)}\n${stderr}`));
      }
    };
    child.stdout.on('data', onData);
    child.on('close', (code) => reject(new Error(`${script} exited (${code}) before it was ready:\n${stderr}`)));
  });
}
