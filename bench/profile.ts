/** Reads a V8 `.cpuprofile` (node --cpu-prof) and summarises where the time went, by file and by function. */
import * as fs from 'node:fs';
import { SourceMap } from 'node:module';
import * as path from 'node:path';
import { REPO_ROOT } from './proc';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

export interface ProfileSummary {
  file: string;
  totalMs: number;
  byFile: Array<{ file: string; ms: number; share: number }>;
  byFunction: Array<{ fn: string; ms: number; share: number }>;
  text: string;
}

const maps = new Map<string, SourceMap | null>();

/** The bench runs a bundle; its source map says which file of src/ (or node_modules/) a frame is in. */
function original(url: string, line: number, column: number): { url: string; line: number } {
  if (!url.endsWith('.js')) {
    return { url, line };
  }
  let map = maps.get(url);
  if (map === undefined) {
    try {
      const file = url.startsWith('file://') ? decodeURIComponent(new URL(url).pathname) : url;
      const payload = JSON.parse(fs.readFileSync(`${file}.map`, 'utf8')) as ConstructorParameters<
        typeof SourceMap
      >[0] & { sources: string[] };
      payload.sources = payload.sources.map((s) => path.resolve(path.dirname(file), s));
      map = new SourceMap(payload);
    } catch {
      map = null;
    }
    maps.set(url, map);
  }
  const entry = map?.findEntry(line, column) as { originalSource?: string; originalLine?: number } | undefined;
  return entry?.originalSource ? { url: entry.originalSource, line: entry.originalLine ?? line } : { url, line };
}

function shortUrl(url: string): string {
  if (!url) {
    return '(native)';
  }
  const p = url.startsWith('file://') ? decodeURIComponent(new URL(url).pathname) : url;
  const rel = p.startsWith(REPO_ROOT) ? path.relative(REPO_ROOT, p) : p;
  return rel.replace(/^node_modules\/(\.pnpm\/)?/, 'node_modules/');
}

export function profileSummary(dir: string, top = 12): ProfileSummary {
  const files = fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => f.endsWith('.cpuprofile')) : [];
  if (files.length === 0) {
    return { file: '(none)', totalMs: 0, byFile: [], byFunction: [], text: '  (no profile was written)' };
  }
  const file = path.join(dir, files.sort().pop() as string);
  const profile = JSON.parse(fs.readFileSync(file, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const selfUs = new Map<number, number>();
  profile.samples.forEach((id, i) => selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));

  const fileMs = new Map<string, number>();
  const fnMs = new Map<string, number>();
  let total = 0;
  for (const [id, us] of selfUs) {
    const node = byId.get(id);
    if (!node) {
      continue;
    }
    const { functionName } = node.callFrame;
    const { url, line: lineNumber } = original(
      node.callFrame.url,
      node.callFrame.lineNumber,
      node.callFrame.columnNumber,
    );
    if (functionName === '(idle)' || functionName === '(program)') {
      continue; // waiting for the network, or V8 bookkeeping outside JavaScript
    }
    const ms = us / 1000;
    total += ms;
    const f = functionName === '(garbage collector)' ? '(garbage collector)' : shortUrl(url);
    fileMs.set(f, (fileMs.get(f) ?? 0) + ms);
    const fn = `${functionName || '(anonymous)'} ${url ? `${shortUrl(url)}:${lineNumber + 1}` : ''}`.trim();
    fnMs.set(fn, (fnMs.get(fn) ?? 0) + ms);
  }
  const rank = <K extends string>(m: Map<string, number>, key: K) =>
    [...m.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(
        ([k, ms]) =>
          ({ [key]: k, ms, share: total > 0 ? ms / total : 0 }) as Record<K, string> & { ms: number; share: number },
      );
  const byFile = rank(fileMs, 'file');
  const byFunction = rank(fnMs, 'fn');
  const pct = (x: number) => `${(x * 100).toFixed(1).padStart(5)}%`;
  const text = [
    `  busy (non-idle) CPU time: ${total.toFixed(0)} ms`,
    '  by file:',
    ...byFile.map((e) => `    ${pct(e.share)} ${e.ms.toFixed(0).padStart(6)} ms  ${e.file}`),
    '  by function:',
    ...byFunction.map((e) => `    ${pct(e.share)} ${e.ms.toFixed(0).padStart(6)} ms  ${e.fn}`),
  ].join('\n');
  return { file: path.relative(REPO_ROOT, file), totalMs: total, byFile, byFunction, text };
}

/**
 * Activation profiles (bench/host/probe.ts, one per profiled window): where the wall time of `activate()` went,
 * waiting included — `(idle)` is the extension host waiting (for the window's answers to its storage and
 * context requests), `(program)` V8's and the host's native work. Self time by file and by function, summed
 * over the windows and divided by their number: milliseconds per window.
 */
export function activationProfileSummary(dir: string, top = 12): ProfileSummary & { windows: number } {
  const files = fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => f.endsWith('.cpuprofile')) : [];
  const fileMs = new Map<string, number>();
  const fnMs = new Map<string, number>();
  let total = 0;
  for (const name of files) {
    const profile = JSON.parse(fs.readFileSync(path.join(dir, name), 'utf8')) as CpuProfile;
    const byId = new Map(profile.nodes.map((n) => [n.id, n]));
    profile.samples.forEach((id, i) => {
      const node = byId.get(id);
      const ms = (profile.timeDeltas[i] ?? 0) / 1000;
      if (!node) {
        return;
      }
      const { functionName } = node.callFrame;
      const { url, line } = original(node.callFrame.url, node.callFrame.lineNumber, node.callFrame.columnNumber);
      const special = functionName.startsWith('(') && !url;
      const f = special ? functionName : shortUrl(url);
      const fn = special
        ? functionName
        : `${functionName || '(anonymous)'} ${url ? `${shortUrl(url)}:${line + 1}` : ''}`;
      total += ms;
      fileMs.set(f, (fileMs.get(f) ?? 0) + ms);
      fnMs.set(fn.trim(), (fnMs.get(fn.trim()) ?? 0) + ms);
    });
  }
  const n = Math.max(1, files.length);
  const rank = (m: Map<string, number>) =>
    [...m.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([k, ms]) => ({ k, ms: ms / n, share: total > 0 ? ms / total : 0 }));
  const byFile = rank(fileMs).map(({ k, ms, share }) => ({ file: k, ms, share }));
  const byFunction = rank(fnMs).map(({ k, ms, share }) => ({ fn: k, ms, share }));
  const pct = (x: number) => `${(x * 100).toFixed(1).padStart(5)}%`;
  const text = [
    `  ${files.length} profiled window(s), ${(total / n).toFixed(1)} ms each (sampled wall time, waiting included)`,
    '  by file (ms per window):',
    ...byFile.map((e) => `    ${pct(e.share)} ${e.ms.toFixed(1).padStart(6)}  ${e.file}`),
    '  by function (ms per window):',
    ...byFunction.map((e) => `    ${pct(e.share)} ${e.ms.toFixed(1).padStart(6)}  ${e.fn}`),
  ].join('\n');
  return { file: path.relative(REPO_ROOT, dir), totalMs: total / n, byFile, byFunction, text, windows: files.length };
}
