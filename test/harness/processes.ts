// Child processes for the test runners and the demo: each one starts in its own session / process group
// (`setsid`, via `detached: true`), so stopping it ends everything it started too (code-server leaves
// children behind otherwise). Every group is ended on normal exit, on errors and on Ctrl+C.
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import net from 'node:net';

/** A process started in its own process group, with the tail of its output kept for diagnostics. */
export interface ProcessGroup {
  readonly name: string;
  readonly pid: number;
  readonly child: ChildProcess;
  /** Resolves with the exit code (or null when killed by a signal). */
  readonly exited: Promise<number | null>;
  /** Last lines of stdout+stderr. */
  tail(lines?: number): string;
  /** SIGTERM to the whole group, SIGKILL after `graceMs`. */
  stop(graceMs?: number): Promise<void>;
}

const groups = new Set<ProcessGroup>();
const MAX_LINES = 2000;

export interface StartOptions extends Pick<SpawnOptions, 'cwd' | 'env'> {
  /** Called with every line of output (stdout and stderr). */
  onLine?: (line: string, stream: 'stdout' | 'stderr') => void;
}

/** Spawns `command` as the leader of a new process group and tracks it until it exits. */
export function startGroup(
  name: string,
  command: string,
  args: readonly string[],
  options: StartOptions = {},
): ProcessGroup {
  installCleanupHandlers();
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: options.env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  if (child.pid === undefined) {
    throw new Error(`could not start ${name} (${command})`);
  }
  const pid = child.pid;
  const lines: string[] = [];
  const collect = (streamName: 'stdout' | 'stderr') => {
    let partial = '';
    return (chunk: Buffer) => {
      const text = partial + chunk.toString('utf8');
      const parts = text.split('\n');
      partial = parts.pop() ?? '';
      for (const line of parts) {
        lines.push(line);
        if (lines.length > MAX_LINES) {
          lines.shift();
        }
        options.onLine?.(line, streamName);
      }
    };
  };
  child.stdout?.on('data', collect('stdout'));
  child.stderr?.on('data', collect('stderr'));
  let exitCode: number | null | undefined;
  const exited = new Promise<number | null>((resolve) => {
    child.on('exit', (code) => {
      exitCode = code;
      resolve(code);
    });
    child.on('error', () => {
      exitCode = null;
      resolve(null);
    });
  });
  const group: ProcessGroup = {
    name,
    pid,
    child,
    exited,
    tail: (n = 80) => lines.slice(-n).join('\n'),
    stop: async (graceMs = 5000) => {
      groups.delete(group);
      signalGroup(pid, 'SIGTERM');
      const timedOut = await Promise.race([
        exited.then(() => false),
        new Promise<boolean>((resolve) => setTimeout(() => resolve(true), graceMs).unref()),
      ]);
      // The leader may be gone while children of the group live on: always finish with SIGKILL.
      signalGroup(pid, 'SIGKILL');
      if (timedOut && exitCode === undefined) {
        await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 1000).unref())]);
      }
    },
  };
  groups.add(group);
  return group;
}

function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // Already gone.
  }
}

/** Stops every process group still running (in parallel). */
export async function stopAllGroups(): Promise<void> {
  await Promise.all([...groups].map((g) => g.stop()));
}

let handlersInstalled = false;
const cleanups: Array<() => Promise<void> | void> = [];

/** Registers extra cleanup (closing browsers, servers) that runs before groups are stopped on Ctrl+C. */
export function onInterrupt(cleanup: () => Promise<void> | void): void {
  installCleanupHandlers();
  cleanups.push(cleanup);
}

function installCleanupHandlers(): void {
  if (handlersInstalled) {
    return;
  }
  handlersInstalled = true;
  // Last resort on any exit path: synchronous SIGKILL to every remaining group.
  process.on('exit', () => {
    for (const g of groups) {
      signalGroup(g.pid, 'SIGKILL');
    }
  });
  const onSignal = (signal: NodeJS.Signals) => {
    process.stderr.write(`\n[harness] ${signal}: stopping everything that was started\n`);
    const hardExit = setTimeout(() => process.exit(130), 10000);
    hardExit.unref();
    void (async () => {
      for (const c of cleanups.reverse()) {
        try {
          await c();
        } catch {
          // Keep going: the groups must be stopped regardless.
        }
      }
      await stopAllGroups();
      process.exit(signal === 'SIGINT' ? 130 : 143);
    })();
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  process.once('SIGHUP', onSignal);
}

/** A port that was free a moment ago on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

/** Polls `check` until it returns a value other than undefined, or throws after `timeoutMs`. */
export async function waitFor<T>(
  what: string,
  timeoutMs: number,
  check: () => Promise<T | undefined> | T | undefined,
  intervalMs = 250,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) {
      return value;
    }
    if (Date.now() > deadline) {
      throw new Error(`timed out after ${Math.round(timeoutMs / 1000)} s waiting for ${what}`);
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
