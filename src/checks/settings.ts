import * as vscode from 'vscode';
import { positive } from '../common/settingValues';
import { Settings } from '../ids';

/** Typed reading of the `modelAccess.checks.*` settings (read at each run, so a change applies to the next). */
export class ChecksSettings {
  private get section(): vscode.WorkspaceConfiguration {
    return vscode.workspace.getConfiguration(Settings.section);
  }

  /** Requests in flight at once during a run. */
  get concurrency(): number {
    return Math.min(32, positive(this.section.get<number>(Settings.checksConcurrency), 4));
  }

  /** The grader models (`judge`, `embeddings`) payloads without `// @grader` use. */
  get graders(): { judge?: string; embeddings?: string } {
    const v = this.section.get<unknown>(Settings.checksGraders);
    const pick = (k: string) => {
      const m = typeof v === 'object' && v !== null ? (v as Record<string, unknown>)[k] : undefined;
      return typeof m === 'string' && m.trim() !== '' ? m.trim() : undefined;
    };
    return { judge: pick('judge'), embeddings: pick('embeddings') };
  }

  /** Dataset rows one payload runs per run. */
  get maxRows(): number {
    return positive(this.section.get<number>(Settings.checksMaxRows), 1000);
  }
}
