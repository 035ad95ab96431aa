/**
 * `--write-docs`: the tables in docs/benchmarks.md (every row) and CONTRIBUTING.md (the targets) are
 * regenerated from a run, between their markers, so the figures people read are the figures a run printed.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as prettier from 'prettier';
import { REPO_ROOT } from './proc';
import { renderMarkdown, renderTargetsMarkdown, type Row } from './table';

const START = '<!-- bench:start -->';
const END = '<!-- bench:end -->';

/**
 * Replaces what lies between the markers in `file` (formatted as the project's Prettier formats it); fails when
 * they are missing (a doc edited by hand).
 */
async function replaceBetweenMarkers(file: string, text: string): Promise<void> {
  const full = path.join(REPO_ROOT, file);
  const doc = fs.readFileSync(full, 'utf8');
  const a = doc.indexOf(START);
  const b = doc.indexOf(END);
  if (a < 0 || b < a) {
    throw new Error(`${file} has no ${START} … ${END} section to regenerate`);
  }
  const updated = `${doc.slice(0, a + START.length)}\n\n${text}\n\n${doc.slice(b)}`;
  const options = (await prettier.resolveConfig(full)) ?? {};
  fs.writeFileSync(full, await prettier.format(updated, { ...options, filepath: full }));
}

export async function writeDocs(header: string, rows: readonly Row[], summary: string): Promise<string[]> {
  const intro = header.replace(/\n/g, '\n\n');
  await replaceBetweenMarkers('docs/benchmarks.md', `${intro}\n\n${renderMarkdown(rows)}\n\n${summary}`);
  await replaceBetweenMarkers(
    'CONTRIBUTING.md',
    `${intro}\n\n${renderTargetsMarkdown(rows)}\n\nEvery figure: [docs/benchmarks.md](docs/benchmarks.md).`,
  );
  return ['docs/benchmarks.md', 'CONTRIBUTING.md'];
}
