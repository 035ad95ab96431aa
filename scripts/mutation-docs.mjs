// `npm run mutate -- --docs`: rewrites the score tables and the list of surviving mutants in
// docs/mutation-testing.md from the committed incremental file (test/mutation/stryker-incremental.json),
// so the document says what the last run found, not what someone copied from it.
//
// The reasons are the team's words and live only in the document: each row's "Why it is left" is carried
// to the same mutant in the new list (same file, mutator, code and replacement; the same line and column
// first, then in order), so line numbers may move. A mutant nobody has explained yet reads "not triaged
// yet"; a mutant now killed drops out with its row. Edit a reason in the document, then run this again.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const INCREMENTAL = path.join(ROOT, 'test', 'mutation', 'stryker-incremental.json');
const DOC = path.join(ROOT, 'docs', 'mutation-testing.md');
const NOT_TRIAGED = 'not triaged yet';
const NO_COVERAGE = 'no unit test reaches it';
const DETECTED = new Set(['Killed', 'Timeout']);
const UNDETECTED = new Set(['Survived', 'NoCoverage']);
const TARGET = { 'src/api': 85, 'src/domain': 85, other: 75 };

/** The folder a file is scored under: src/api, src/common, src/domain or src/<feature>/core. */
export function folderOf(file) {
  const core = /^(src\/[^/]+\/core)\//.exec(file);
  if (core) {
    return core[1];
  }
  const top = /^(src\/(?:api|common|domain))\//.exec(file);
  return top ? top[1] : path.posix.dirname(file);
}

/** A piece of code as one table cell: its first line, cut to `max` characters, no backticks or bars. */
function cell(text, max) {
  const lines = text.split(/\r?\n/);
  let first = lines[0];
  let cut = lines.length > 1;
  if (first.length > max) {
    first = first.slice(0, max);
    cut = true;
  }
  return `${first.replace(/`/g, "'").replace(/\|/g, '\\|')}${cut ? '…' : ''}`;
}

/** The code a mutant replaced, from the recorded source (lines and columns count from 1). */
function originalText(source, { start, end }) {
  const lines = source.split('\n');
  const offset = (p) => lines.slice(0, p.line - 1).reduce((n, l) => n + l.length + 1, 0) + p.column - 1;
  return source.slice(offset(start), offset(end));
}

function describe(m, source) {
  return `${m.mutatorName}: \`${cell(originalText(source, m.location), 40)}\` → \`${cell(m.replacement ?? '', 30)}\``;
}

/** Old rows of the survivor list: file → [{ where, mutant, why }], the "no unit test" prefix taken off. */
function oldRows(doc) {
  const rows = new Map();
  let file;
  for (const line of doc.slice(doc.indexOf('\n## Surviving mutants')).split('\n')) {
    const heading = /^### (\S+) \(\d+\)$/.exec(line);
    if (heading) {
      file = heading[1];
      rows.set(file, []);
      continue;
    }
    // Cells are split at bars that are not escaped (`\|` is a bar inside code).
    const row = line.startsWith('| ')
      ? line
          .split(/(?<!\\)\|/)
          .slice(1, -1)
          .map((c) => c.trim())
      : [];
    if (file && row.length === 3 && /^\d+:\d+$/.test(row[0])) {
      const why = row[2].replace(new RegExp(`^${NO_COVERAGE}(?: \\(see below\\))?(?:; |$)`), '');
      rows.get(file).push({ where: row[0], mutant: row[1], why: why || NOT_TRIAGED, used: false });
    }
  }
  return rows;
}

/** Whether two cells can show the same mutant: equal, or equal up to where either was cut ("…"). */
function sameMutant(a, b) {
  if (a === b) {
    return true;
  }
  const parts = (m) => /^(\w+): `(.*)` → `(.*)`$/.exec(m)?.slice(1);
  const [pa, pb] = [parts(a), parts(b)];
  // A cut cell matches only on a long enough shared start: `{…` says nothing about which block it was.
  const prefix = (x, y) => {
    const [u, v] = [x.replace(/…$/, ''), y.replace(/…$/, '')];
    return u === v || (Math.min(u.length, v.length) >= 25 && (u.startsWith(v) || v.startsWith(u)));
  };
  return !!pa && !!pb && pa[0] === pb[0] && prefix(pa[1], pb[1]) && prefix(pa[2], pb[2]);
}

/**
 * Finds the old reason of a mutant: the same place and code first, then the first unused row with the same
 * code, then one whose code was cut at another length by an earlier version of this script.
 */
function reasonFor(old, where, mutant) {
  const same = old?.find((r) => !r.used && r.where === where && r.mutant === mutant);
  const moved =
    same ??
    old?.find((r) => !r.used && r.mutant === mutant) ??
    old?.find((r) => !r.used && r.where === where && sameMutant(r.mutant, mutant)) ??
    old?.find((r) => !r.used && sameMutant(r.mutant, mutant));
  if (!moved) {
    return NOT_TRIAGED;
  }
  moved.used = true;
  return moved.why;
}

function table(header, rows) {
  return [
    `| ${header.join(' | ')} |`,
    `| ${header.map(() => '---').join(' | ')} |`,
    ...rows.map((r) => `| ${r.join(' | ')} |`),
  ].join('\n');
}

const pct = (detected, total) => (total === 0 ? 'n/a' : `${((100 * detected) / total).toFixed(2)} %`);

/** Rewrites the document; returns what it counted. */
export function writeMutationDocs() {
  const report = JSON.parse(fs.readFileSync(INCREMENTAL, 'utf8'));
  const doc = fs.readFileSync(DOC, 'utf8');
  const old = oldRows(doc);
  // The client core last, as the document has always listed it.
  const files = Object.keys(report.files).sort((a, b) => {
    const rank = (f) => (f.startsWith('src/api/') ? 1 : 0);
    return rank(a) - rank(b) || a.localeCompare(b);
  });

  const folders = new Map();
  const fileRows = [];
  const sections = [];
  const counts = { rows: 0, notTriaged: 0, notTriagedApi: 0, reasons: new Map() };
  for (const file of files) {
    const { mutants, source } = report.files[file];
    const folder = folderOf(file);
    const f = folders.get(folder) ?? { Killed: 0, Timeout: 0, Survived: 0, NoCoverage: 0, Ignored: 0 };
    folders.set(folder, f);
    const left = [];
    let detected = 0;
    for (const m of mutants) {
      if (m.status in f) {
        f[m.status]++;
      }
      detected += DETECTED.has(m.status) ? 1 : 0;
      if (UNDETECTED.has(m.status)) {
        left.push(m);
      }
    }
    const total = detected + left.length;
    fileRows.push([
      `\`${file}\``,
      String(total),
      String(left.length),
      total === 0 ? 'n/a' : `${((100 * detected) / total).toFixed(1)} %`,
    ]);
    if (left.length === 0) {
      continue;
    }
    left.sort(
      (a, b) => a.location.start.line - b.location.start.line || a.location.start.column - b.location.start.column,
    );
    const rows = left.map((m) => {
      const where = `${m.location.start.line}:${m.location.start.column}`;
      const mutant = describe(m, source);
      const why = reasonFor(old.get(file), where, mutant);
      counts.rows++;
      if (why.includes(NOT_TRIAGED)) {
        counts.notTriaged++;
        counts.notTriagedApi += folder === 'src/api' ? 1 : 0;
      }
      const kind =
        /^(equivalent|not worth a test|a missing test|does not type-check|not triaged yet)/.exec(why)?.[1] ?? 'other';
      counts.reasons.set(kind, (counts.reasons.get(kind) ?? 0) + 1);
      return [where, mutant, m.status === 'NoCoverage' ? `${NO_COVERAGE}; ${why}` : why];
    });
    sections.push(`### ${file} (${left.length})\n\n${table(['Where', 'Mutant', 'Why it is left'], rows)}\n`);
  }

  const all = { Killed: 0, Timeout: 0, Survived: 0, NoCoverage: 0, Ignored: 0 };
  const folderRows = [...folders]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([folder, f]) => {
      for (const k of Object.keys(all)) {
        all[k] += f[k];
      }
      const total = f.Killed + f.Timeout + f.Survived + f.NoCoverage;
      return [
        `\`${folder}\``,
        total,
        f.Killed,
        f.Timeout,
        f.Survived,
        f.NoCoverage,
        f.Ignored,
        pct(f.Killed + f.Timeout, total),
        `${TARGET[folder] ?? TARGET.other} %`,
      ].map(String);
    });
  const allTotal = all.Killed + all.Timeout + all.Survived + all.NoCoverage;
  folderRows.push(
    [
      'all',
      allTotal,
      all.Killed,
      all.Timeout,
      all.Survived,
      all.NoCoverage,
      all.Ignored,
      pct(all.Killed + all.Timeout, allTotal),
      '',
    ].map(String),
  );

  const scores = [
    table(
      ['Folder', 'Mutants', 'Killed', 'Timed out', 'Survived', 'No coverage', 'Static, not run', 'Score', 'Target'],
      folderRows,
    ),
    table(['File', 'Mutants', 'Left', 'Score'], fileRows),
  ].join('\n\n');

  const scoresStart = doc.indexOf('| Folder ');
  const scoresEnd = doc.indexOf('\n\n', doc.indexOf('| File ', scoresStart)) + 1;
  const listStart = doc.indexOf('\n### ', doc.indexOf('\n## Surviving mutants')) + 1;
  if (scoresStart < 0 || scoresEnd <= 0 || listStart <= 0) {
    throw new Error(
      `${path.relative(ROOT, DOC)}: the score tables or the survivor list are not where this script expects them`,
    );
  }
  const next = `${doc.slice(0, scoresStart)}${scores}\n${doc.slice(scoresEnd, listStart)}${sections.join('\n')}`;
  fs.writeFileSync(DOC, next);
  // Prettier aligns the tables, as `npm run format:check` expects.
  spawnSync(process.execPath, [path.join(ROOT, 'node_modules', 'prettier', 'bin', 'prettier.cjs'), '--write', DOC], {
    stdio: 'ignore',
  });
  const lost = [...old].flatMap(([file, rows]) =>
    rows.filter((r) => !r.used && !r.why.includes(NOT_TRIAGED)).map((r) => `${file}:${r.where}`),
  );
  return { ...counts, lost };
}
