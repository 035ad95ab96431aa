import * as vscode from 'vscode';
import { clean, type DisplayText } from '../common/text';
import { l10n } from './l10n';
import type { Ui } from './ui';
import type { EnvPolicy, VariableProblem } from '../domain/payload/variables';

const KEY = 'modelAccess.envAllowed';

/**
 * Which `{{$env NAME}}` a payload may read (domain/payload/variables.ts `EnvPolicy`), for Send, Compare and
 * checks alike: every name for the person's own
 * scratch payloads in a trusted window; elsewhere only `MODEL_ACCESS_*` and the names allowed here, kept per
 * workspace in workspace state (never synced, never settings a repository could carry).
 */
export class EnvAccess {
  constructor(
    private readonly state: vscode.Memento,
    /** Whether a file is one of the person's own scratch payloads (the requests feature knows the folder). */
    private readonly isScratch: (uri: vscode.Uri) => boolean,
  ) {}

  private get allowed(): ReadonlySet<string> {
    const names = this.state.get<unknown>(KEY);
    return new Set(Array.isArray(names) ? names.filter((n): n is string => typeof n === 'string') : []);
  }

  /** The policy for a payload in `uri` (undefined: a payload whose file is not known, limited too). */
  policyFor(uri: vscode.Uri | undefined): EnvPolicy {
    const limited = !vscode.workspace.isTrusted
      ? 'untrusted'
      : uri && this.isScratch(uri)
        ? undefined
        : 'outsideScratch';
    return { limited, allowed: this.allowed };
  }

  async allow(name: string): Promise<void> {
    await this.state.update(KEY, [...new Set([...this.allowed, name])]);
  }

  /**
   * The refusal of a name among `problems`, said with _Allow NAME_ as the way out; true when the person
   * allowed it (the caller sends again). False when no name was refused.
   */
  async offerAllow(ui: Ui, message: DisplayText, problems: readonly VariableProblem[]): Promise<boolean> {
    const name = problems.find((p) => p.refusedEnv !== undefined)?.refusedEnv;
    if (name === undefined) {
      return false;
    }
    const allow = l10n.t('Allow {0}', clean(name));
    if ((await ui.error(message, allow)) !== allow) {
      return false;
    }
    await this.allow(name);
    return true;
  }
}
