// Demo smoke test (`npm test` layer "demo"; alone: `npx tsx test/demo/smoke.ts`): starts CONTRIBUTING.md's
// `npm run demo` the way a person does in a terminal (its own process group, nothing on stdin), waits for
// the URL it prints, checks that the URL answers, that the packaged extension is installed in that
// code-server and shows its activity-bar entry in Chromium, then presses Ctrl+C (SIGINT to the process
// group, as a terminal does) and checks that every process the demo started is gone and its ports are
// closed. Leftovers are listed, then killed, and the test fails. Then the person's work survives: a payload
// written into the demo's workspace before Ctrl+C is still there after it, and a second `npm run demo` says it
// reuses the folder and the VSIX already built, opens the same workspace (the payload in it) and stops cleanly
// on Ctrl+C again.
//
// Env: MODEL_ACCESS_CACHE / MODEL_ACCESS_VSCODE are passed on to the demo (which code-server it uses); the demo's
//      folder is a scratch one (MODEL_ACCESS_DEMO_DIR), never the person's own.
//      MODEL_ACCESS_DEMO_TIMEOUT_S  seconds to wait for the URL (default 300: a first run installs).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { childEnv } from '../../scripts/nested-npm';
import { launchChromium, makeScratchDirs, REPO_ROOT } from '../harness/codeServer';
import { freePort, waitFor } from '../harness/processes';
import { activityBarEntry, waitForWorkbench } from '../e2e/helpers';

const EXTENSION_DIR_PREFIX = 'model-access-team.model-access-';
const URL_TIMEOUT_S = Number(process.env.MODEL_ACCESS_DEMO_TIMEOUT_S) || 300;

function log(msg: string): void {
  console.log(`[demo-smoke] ${msg}`);
}

// ---- processes, from /proc ----------------------------------------------------------------------------

interface Proc {
  pid: number;
  ppid: number;
  pgid: number;
  sid: number;
  /** Start time in clock ticks since boot: tells a pid apart from a later process reusing it. */
  start: string;
  cmd: string;
}

function readProc(pid: number): Proc | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // "pid (comm) state ppid pgrp session …": comm may hold spaces and parentheses.
    const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (rest[0] === 'Z') {
      return undefined; // A zombie has ended; only its parent has not collected it yet.
    }
    let cmd = '';
    try {
      cmd = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean).join(' ');
    } catch {
      // Gone meanwhile.
    }
    return { pid, ppid: Number(rest[1]), pgid: Number(rest[2]), sid: Number(rest[3]), start: rest[19], cmd };
  } catch {
    return undefined;
  }
}

function allProcs(): Proc[] {
  return fs
    .readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .map((d) => readProc(Number(d)))
    .filter((p): p is Proc => !!p);
}

/** `root` and everything below it (children that started their own sessions included). */
function descendants(root: number): Proc[] {
  const procs = allProcs();
  const found = new Map<number, Proc>();
  const rootProc = procs.find((p) => p.pid === root);
  if (rootProc) {
    found.set(root, rootProc);
  }
  for (let grew = true; grew;) {
    grew = false;
    for (const p of procs) {
      if (!found.has(p.pid) && found.has(p.ppid)) {
        found.set(p.pid, p);
        grew = true;
      }
    }
  }
  return [...found.values()];
}

const alive = (p: Proc) => readProc(p.pid)?.start === p.start;
const short = (p: Proc) => `${p.pid} ${p.cmd.length > 140 ? `${p.cmd.slice(0, 140)}…` : p.cmd}`;

function portOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    socket.setTimeout(2000);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('timeout', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

// ---- the test ---------------------------------------------------------------------------------------

interface Session {
  output: string;
  problems: string[];
  notes: string[];
}

/**
 * One `npm run demo` in `demoDir`: waits for its URL, runs `whileUp` (the checks of this start), presses Ctrl+C
 * and checks that everything it started is gone.
 */
async function runDemo(
  demoDir: string,
  whileUp: (url: string, port: number, servicePort: number, session: Session, pgid: number) => Promise<void>,
): Promise<Session> {
  const port = await freePort();
  let servicePort = await freePort();
  while (servicePort === port) {
    servicePort = await freePort();
  }
  const demoArgs = [
    'run',
    'demo',
    '--',
    '--code-server',
    '--port',
    String(port),
    '--service-port',
    String(servicePort),
  ];
  log(`npm ${demoArgs.join(' ')}`);
  // A terminal starts a command as its own process group; Ctrl+C sends SIGINT to that group.
  const demo = spawn('npm', demoArgs, {
    cwd: REPO_ROOT,
    env: childEnv({ MODEL_ACCESS_DEMO_DIR: demoDir }),
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const pgid = demo.pid as number;
  let output = '';
  let exitCode: number | null | undefined;
  let exitSignal: NodeJS.Signals | null = null;
  const exited = new Promise<void>((resolve) =>
    demo.on('exit', (code, signal) => {
      exitCode = code;
      exitSignal = signal;
      resolve();
    }),
  );
  const onData = (d: Buffer) => {
    const text = d.toString('utf8');
    output += text;
    process.stdout.write(text.replace(/^(?=.)/gm, '  │ '));
  };
  demo.stdout.on('data', onData);
  demo.stderr.on('data', onData);

  const seen = new Map<string, Proc>();
  const remember = () => {
    for (const p of descendants(pgid)) {
      seen.set(`${p.pid}:${p.start}`, p);
    }
  };
  const problems: string[] = [];
  const notes: string[] = [];
  const session: Session = { output: '', problems, notes };
  const started = Date.now();
  try {
    const url = await waitFor(
      'the URL printed by npm run demo',
      URL_TIMEOUT_S * 1000,
      () => {
        if (exitCode !== undefined) {
          throw new Error(`npm run demo exited (${exitCode ?? exitSignal}) before printing a URL`);
        }
        return /Open VS Code:\s+(http:\/\/\S+)/.exec(output)?.[1];
      },
      250,
    );
    log(`printed ${url} after ${((Date.now() - started) / 1000).toFixed(1)} s`);
    remember();

    const res = await fetch(url, { signal: AbortSignal.timeout(15_000) });
    const body = await res.text();
    if (res.status !== 200 || !/workbench/i.test(body)) {
      problems.push(`${url} answered ${res.status} without a workbench page`);
    } else {
      notes.push('URL answers');
    }
    if (!(await portOpen(servicePort))) {
      problems.push(`the local service is not listening on ${servicePort}`);
    }

    // The extensions folder of the code-server that answers on this port.
    const codeServer = descendants(pgid).find(
      (p) => p.cmd.includes('--extensions-dir') && p.cmd.includes(`127.0.0.1:${port}`),
    );
    const extensionsDir = codeServer && /--extensions-dir (\S+)/.exec(codeServer.cmd)?.[1];
    const installed =
      extensionsDir && fs.existsSync(extensionsDir)
        ? fs.readdirSync(extensionsDir).filter((e) => e.startsWith(EXTENSION_DIR_PREFIX))
        : [];
    if (installed.length !== 1) {
      problems.push(
        `expected one ${EXTENSION_DIR_PREFIX}* in the demo's extensions folder (${extensionsDir ?? 'code-server process not found'}), found: ${installed.join(', ') || 'none'}`,
      );
    } else {
      notes.push(`${installed[0]} installed`);
    }

    await whileUp(url, port, servicePort, session, pgid);
    // The workbench connection started more processes (extension host, pty host): note them too.
    await new Promise((resolve) => setTimeout(resolve, 500));
    remember();
  } catch (e) {
    problems.push(e instanceof Error ? e.message : String(e));
    remember();
  }

  // Ctrl+C.
  const before = [...seen.values()].filter(alive);
  log(
    `Ctrl+C (SIGINT to process group ${pgid}); ${before.length} processes running: ${before.map((p) => p.pid).join(' ')}`,
  );
  const sigintAt = Date.now();
  try {
    process.kill(-pgid, 'SIGINT');
  } catch {
    // Already gone.
  }
  const exitedInTime = await Promise.race([
    exited.then(() => true),
    new Promise<boolean>((r) => setTimeout(() => r(false), 30_000)),
  ]);
  if (!exitedInTime) {
    problems.push('npm run demo did not exit within 30 s of Ctrl+C');
  }
  // Everything it started must end too (a moment for the process groups' SIGTERM → SIGKILL).
  const groups = new Set([...seen.values()].flatMap((p) => [p.pgid, p.sid]));
  const leftovers = () => [
    ...[...seen.values()].filter(alive),
    ...allProcs().filter((p) => (groups.has(p.pgid) || groups.has(p.sid)) && !seen.has(`${p.pid}:${p.start}`)),
  ];
  let left = leftovers();
  for (const deadline = Date.now() + 15_000; left.length > 0 && Date.now() < deadline; left = leftovers()) {
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  const goneAfter = ((Date.now() - sigintAt) / 1000).toFixed(1);
  if (left.length > 0) {
    problems.push(`still running ${goneAfter} s after Ctrl+C:\n${left.map((p) => `    ${short(p)}`).join('\n')}`);
    for (const p of left) {
      try {
        process.kill(p.pid, 'SIGKILL');
      } catch {
        // Gone.
      }
    }
  } else {
    notes.push(`all ${seen.size} processes gone ${goneAfter} s after Ctrl+C (exit ${exitCode ?? exitSignal})`);
  }
  for (const [what, p] of [
    ['code-server', port],
    ['local service', servicePort],
  ] as const) {
    if (await portOpen(p)) {
      problems.push(`port ${p} (${what}) still answers after Ctrl+C`);
    }
  }
  session.output = output;
  return session;
}

async function main(): Promise<number> {
  const started = Date.now();
  const demoDir = fs.mkdtempSync(path.join(os.tmpdir(), 'model-access-demo-smoke-dir-'));
  const scratch = makeScratchDirs('model-access-demo-smoke');
  // A payload a person made in the demo's workspace (written while the demo runs, as VS Code would save it).
  const payload = path.join(demoDir, 'workspace', 'checks', 'kept.jsonc');
  const payloadText = '// POST /v1/chat\n// @expect status 200\n{ "model": "aurora-2", "messages": [] }\n';
  const first = await runDemo(demoDir, async (url, _port, _servicePort, { problems, notes }) => {
    fs.mkdirSync(path.dirname(payload), { recursive: true });
    fs.writeFileSync(payload, payloadText);
    // As a person sees it: the workbench with the Model Access activity-bar entry.
    const browser = await launchChromium(scratch);
    try {
      const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
      await page.goto(url, { waitUntil: 'domcontentloaded', timeout: 60_000 });
      await waitForWorkbench(page);
      await activityBarEntry(page).waitFor({ state: 'visible', timeout: 60_000 });
      notes.push('activity bar shows Model Access');
    } catch (e) {
      problems.push(
        `the workbench did not show the Model Access activity-bar entry: ${e instanceof Error ? e.message.split('\n')[0] : e}`,
      );
    } finally {
      await browser.close().catch(() => undefined);
    }
  });
  const problems = [...first.problems];
  const notes = [...first.notes];
  if (!fs.existsSync(payload) || fs.readFileSync(payload, 'utf8') !== payloadText) {
    problems.push(`the payload made in the demo's workspace is gone after Ctrl+C: ${payload}`);
  }
  if (!first.output.includes(`your work is kept in ${demoDir}`)) {
    problems.push(`after Ctrl+C the demo did not say where the work is kept (${demoDir})`);
  }

  // The second start: the same folder, the payload still in its workspace.
  const second = await runDemo(demoDir, async (_url, port, _servicePort, session, pgid) => {
    // The workspace code-server opens (its working folder) is the demo folder's.
    const codeServer = descendants(pgid).find(
      (p) => p.cmd.includes(`127.0.0.1:${port}`) && p.cmd.includes('--user-data-dir'),
    );
    const workspace = codeServer ? readCwd(codeServer.pid) : undefined;
    if (workspace !== path.join(demoDir, 'workspace')) {
      session.problems.push(
        `the second start's code-server runs in ${workspace ?? '?'}, not ${path.join(demoDir, 'workspace')}`,
      );
    }
    if (!fs.existsSync(payload)) {
      session.problems.push(`the payload made before is gone on the second start: ${payload}`);
    } else {
      session.notes.push('the second start reused the folder and the payload made before');
    }
  });
  problems.push(...second.problems.map((p) => `second start: ${p}`));
  if (!second.output.includes(`reusing the demo folder ${demoDir} (workspace: 1 files`)) {
    problems.push(`the second start did not say it reuses the demo folder ${demoDir}`);
  }
  // Nothing changed between the two starts: the second one installs the VSIX already built.
  if (!second.output.includes('the VSIX is up to date with the sources')) {
    problems.push('the second start built the VSIX again though no file it is made from changed');
  } else {
    notes.push('the second start reused the VSIX');
  }
  notes.push(...second.notes.filter((n) => n.startsWith('the second start')));
  fs.rmSync(scratch.root, { recursive: true, force: true });
  fs.rmSync(demoDir, { recursive: true, force: true });

  const took = ((Date.now() - started) / 1000).toFixed(1);
  if (problems.length > 0) {
    log(`FAILED after ${took} s:\n  - ${problems.join('\n  - ')}`);
    console.log(`demo smoke: FAILED: ${problems[0].split('\n')[0]}`);
    return 1;
  }
  log(`passed in ${took} s`);
  console.log(`demo smoke: ${notes.join('; ')}`);
  return 0;
}

function readCwd(pid: number): string | undefined {
  try {
    return fs.readlinkSync(`/proc/${pid}/cwd`);
  } catch {
    return undefined;
  }
}

main().then(
  (code) => process.exit(code),
  (e) => {
    console.error(e);
    process.exit(1);
  },
);
