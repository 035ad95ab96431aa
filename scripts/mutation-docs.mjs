// `npm run mutate -- --docs`: from this machine's incremental file (reports/stryker-incremental.json, Stryker's
// cache, not committed: the last `npm run mutate` here wrote it)
//  - carries each reason of mutation/survivor-reasons.json to its mutant in the new results (same file,
//    mutator, code and replacement; the same line and column first, then in order, so line numbers may move;
//    then, for code moved to another file, the same long enough mutant in any file), adds each mutant nobody
//    has explained yet as "not triaged yet", drops those now killed, and writes the file back;
//  - rewrites the score tables and the count of survivors by kind in docs/mutation-testing.md (between its
//    `<!-- generated: … -->` markers), so the page says what the last run found;
//  - writes the full list, every survivor with its reason, to reports/mutation/survivors.md (not committed:
//    generated on demand).
// The reasons are the team's words: edit one in survivor-reasons.json, then run this again.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const INCREMENTAL = path.join(ROOT, 'reports', 'stryker-incremental.json');
const DOC = path.join(ROOT, 'docs', 'mutation-testing.md');
const REASONS = path.join(ROOT, 'mutation', 'survivor-reasons.json');
const LIST = path.join(ROOT, 'reports', 'mutation', 'survivors.md');
const NOT_TRIAGED = 'not triaged yet';
const NO_COVERAGE = 'no unit test reaches it';
const KINDS = ['equivalent', 'not worth a test', 'not reachable', 'a missing test', 'does not type-check', NOT_TRIAGED];
const DETECTED = new Set(['Killed', 'Timeout']);
const UNDETECTED = new Set(['Survived', 'NoCoverage']);
const TARGET = { 'src/api': 85, 'src/domain': 85, other: 75 };

/** The folder a file is scored under: src/api, src/common, src/domain or src/<feature>/core. */
export function folderOf(file) {
  const core = /^(src\/(?:[^/]+\/)+?core)\//.exec(file);
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

/** The recorded reasons: file → [{ where, mutant, why }]. */
function oldRows() {
  const { files } = JSON.parse(fs.readFileSync(REASONS, 'utf8'));
  return new Map(Object.entries(files).map(([file, rows]) => [file, rows.map((r) => ({ ...r, used: false }))]));
}

/** The kind of a reason, by how it starts ("not reachable on Node 20", "no input reaches it" are kinds of their own). */
export function kindOf(why) {
  if (/^(equivalent|no input reaches it)/.test(why)) {
    return 'equivalent';
  }
  if (/^not worth a (unit )?test/.test(why)) {
    return 'not worth a test';
  }
  if (/^not reachable/.test(why)) {
    return 'not reachable';
  }
  return KINDS.find((k) => why.startsWith(k)) ?? 'other';
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
 * code, then one whose code was cut at another length by an earlier version of this script, then the same
 * mutant recorded under another file.
 */
function reasonFor(all, file, where, mutant) {
  const old = all.get(file);
  const same = old?.find((r) => !r.used && r.where === where && r.mutant === mutant);
  const moved =
    same ??
    old?.find((r) => !r.used && r.mutant === mutant) ??
    old?.find((r) => !r.used && r.where === where && sameMutant(r.mutant, mutant)) ??
    old?.find((r) => !r.used && sameMutant(r.mutant, mutant)) ??
    // Code moved to another file (client.ts → get.ts): the same mutant of a long enough piece of code.
    (/`[^`]{25,}`/.test(mutant)
      ? [...all.values()].flat().find((r) => !r.used && r.mutant === mutant && !r.why.includes(NOT_TRIAGED))
      : undefined);
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

/** `text` with the part between `<!-- generated: name -->` and `<!-- end: name -->` replaced by `body`. */
function replaceGenerated(text, name, body) {
  const start = `<!-- generated: ${name} -->`;
  const end = `<!-- end: ${name} -->`;
  const a = text.indexOf(start);
  const b = text.indexOf(end);
  if (a < 0 || b < a) {
    throw new Error(`${path.relative(ROOT, DOC)}: no ${start} … ${end} section`);
  }
  return `${text.slice(0, a + start.length)}\n\n${body}\n\n${text.slice(b)}`;
}

/** Rewrites the reasons, the page's tables and the full list; returns what it counted. */
export function writeMutationDocs() {
  if (!fs.existsSync(INCREMENTAL)) {
    throw new Error(
      `No ${path.relative(ROOT, INCREMENTAL)} on this machine: run \`npm run mutate\` first (a fresh clone runs every mutant).`,
    );
  }
  const report = JSON.parse(fs.readFileSync(INCREMENTAL, 'utf8'));
  const old = oldRows();
  const reasons = {};
  const byKind = new Map();
  // The client core last, as the document has always listed it.
  const files = Object.keys(report.files).sort((a, b) => {
    const rank = (f) => (f.startsWith('src/api/') ? 1 : 0);
    return rank(a) - rank(b) || a.localeCompare(b);
  });

  const folders = new Map();
  const fileRows = [];
  const sections = [];
  const counts = { rows: 0, notTriaged: 0, notTriagedApi: 0, reasons: new Map(), gone: [] };
  for (const file of files) {
    if (!fs.existsSync(path.join(ROOT, file))) {
      // Results of a file moved or removed since its last run: not shown (the next run drops them); its
      // reasons are kept for the mutants that reappear in the file its code went to.
      counts.gone.push(file);
      reasons[file] = old.get(file)?.map(({ where, mutant, why }) => ({ where, mutant, why })) ?? [];
      continue;
    }
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
      const why = reasonFor(old, file, where, mutant);
      (reasons[file] ??= []).push({ where, mutant, why });
      const k = kindOf(why);
      const fk = byKind.get(folder) ?? new Map();
      byKind.set(folder, fk);
      fk.set(k, (fk.get(k) ?? 0) + 1);
      counts.rows++;
      if (why.includes(NOT_TRIAGED)) {
        counts.notTriaged++;
        counts.notTriagedApi += folder === 'src/api' ? 1 : 0;
      }
      counts.reasons.set(k, (counts.reasons.get(k) ?? 0) + 1);
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

  const kindRows = [...byKind]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([folder, k]) => [`\`${folder}\``, ...KINDS.map((kind) => String(k.get(kind) ?? 0))]);
  const kinds = table(['Folder', ...KINDS.map((k) => k[0].toUpperCase() + k.slice(1))], kindRows);

  // Reasons of a file the incremental file no longer holds (moved, and its new file not run yet) are kept
  // for the run that brings its mutants back under the new name.
  for (const [file, rows] of old) {
    if (!(file in report.files)) {
      const waiting = rows.filter((r) => !r.used).map(({ where, mutant, why }) => ({ where, mutant, why }));
      if (waiting.length > 0) {
        reasons[file] = waiting;
        counts.gone.push(file);
      }
    }
  }
  let doc = fs.readFileSync(DOC, 'utf8');
  doc = replaceGenerated(doc, 'scores', scores);
  doc = replaceGenerated(doc, 'kinds', kinds);
  fs.writeFileSync(DOC, doc);
  const about = JSON.parse(fs.readFileSync(REASONS, 'utf8')).about;
  fs.writeFileSync(REASONS, `${JSON.stringify({ about, files: reasons }, null, 2)}\n`);
  fs.mkdirSync(path.dirname(LIST), { recursive: true });
  fs.writeFileSync(
    LIST,
    [
      '# Surviving mutants',
      '',
      'Generated by `npm run mutate -- --docs` from reports/stryker-incremental.json and the reasons in',
      'mutation/survivor-reasons.json; the kinds are explained in docs/mutation-testing.md. Where: line:column',
      'of the source the last run recorded.',
      '',
      ...sections,
    ].join('\n'),
  );
  // Prettier aligns the tables, as `npm run format:check` expects.
  spawnSync(
    process.execPath,
    [path.join(ROOT, 'node_modules', 'prettier', 'bin', 'prettier.cjs'), '--write', DOC, REASONS, LIST],
    { stdio: 'ignore' },
  );
  const lost = [...old]
    .filter(([file]) => !counts.gone.includes(file))
    .flatMap(([file, rows]) =>
      rows.filter((r) => !r.used && !r.why.includes(NOT_TRIAGED)).map((r) => `${file}:${r.where}`),
    );
  return { ...counts, lost };
}
