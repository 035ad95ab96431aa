import * as vscode from 'vscode';
import { clean, type DisplayText } from '../common/text';
import { l10n } from './l10n';
import type { Ui } from './ui';
import type { ScratchOrigin } from '../domain/payload/kind';
import type { EnvPolicy, VariableProblem } from '../domain/payload/variables';

const KEY = 'modelAccess.envAllowed';

/**
 * Which `{{$env NAME}}` a payload may read (domain/payload/variables.ts `EnvPolicy`), for Send, Compare, Copy
 * as Code and checks alike: every name for the person's own scratch payloads in a trusted window; elsewhere —
 * scratch files whose text was copied in from elsewhere included (domain/payload/kind.ts `ScratchOrigin`) —
 * only `MODEL_ACCESS_*` and the names allowed here, kept per workspace in workspace state (never synced,
 * never settings a repository could carry).
 */
export class EnvAccess {
  constructor(
    private readonly state: vscode.Memento,
    /** Where a file stands: the person's own scratch payload, copied into the scratch folder, or outside it. */
    private readonly originOf: (uri: vscode.Uri) => ScratchOrigin,
  ) {}

  private get allowed(): ReadonlySet<string> {
    const names = this.state.get<unknown>(KEY);
    return new Set(Array.isArray(names) ? names.filter((n): n is string => typeof n === 'string') : []);
  }

  /** The policy for a payload in `uri` (undefined: a payload whose file is not known, limited too). */
  policyFor(uri: vscode.Uri | undefined): EnvPolicy {
    const origin = uri ? this.originOf(uri) : 'outside';
    const limited = !vscode.workspace.isTrusted
      ? 'untrusted'
      : origin === 'own'
        ? undefined
        : origin === 'copied'
          ? 'copied'
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
