/**
 * Writing a report (`--junit`, `models --save`): into a new file of its own beside the target, then renamed
 * over it. The rename replaces whatever the target name is — a file, or a symbolic link someone planted in
 * the checkout pointing at `~/.bashrc` — without following it, and a run stopped halfway leaves the old
 * report or none, never half of one. No `vscode` import.
 */
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';

export function writeReportFile(target: string, text: string): void {
  const folder = path.dirname(target);
  fs.mkdirSync(folder, { recursive: true });
  const temporary = path.join(folder, `.${path.basename(target)}.${randomBytes(6).toString('hex')}.tmp`);
  // 'wx': a new file or an error — never opened through a link already standing under that name.
  fs.writeFileSync(temporary, text, { flag: 'wx', mode: 0o644 });
  try {
    fs.renameSync(temporary, target);
  } catch (e) {
    fs.rmSync(temporary, { force: true });
    throw e;
  }
}
