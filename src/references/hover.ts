import * as vscode from 'vscode';
import type { ModelEntry } from '../api/types';
import { displayText } from '../common/text';
import { capabilitiesText, readCapabilities, shortTokens } from '../domain/registry/capabilities';
import { lifecycleSentence, readLifecycle } from '../domain/registry/lifecycle';
import { statedTokenLimits } from '../domain/registry/tokenLimits';
import { Commands } from '../ids';
import { l10n } from '../platform/l10n';
import { referenceAt } from './edits';
import type { ReferenceIndex } from './referenceIndex';

function field(md: vscode.MarkdownString, name: string, value: string): void {
  md.appendMarkdown(`${name}: `);
  md.appendText(value);
  md.appendMarkdown('  \n');
}

/** Where Try the Successor… finds the reference it was asked from. */
export interface ReferenceArgs {
  uri: string;
  line: number;
  character: number;
}

/**
 * The hover on a model id in code: the model's family, version, lifecycle, capabilities, context window and
 * card link, all registry text as plain text (escaped, never a link). The one link is ours: Try the
 * Successor…, the only command this hover may run.
 */
export class ReferenceHover implements vscode.HoverProvider {
  constructor(
    private readonly index: ReferenceIndex,
    private readonly warnDays: () => number,
  ) {}

  provideHover(document: vscode.TextDocument, position: vscode.Position): vscode.Hover | undefined {
    const registry = this.index.registry;
    const ref = referenceAt(this.index.referencesOf(document.uri)?.refs, position);
    if (!registry || !ref) {
      return undefined;
    }
    const now = Date.now();
    const verdict = registry.judge(ref, now, this.warnDays());
    const entry: ModelEntry | undefined = registry.listed.get(ref.id) ?? registry.gone.get(ref.id);
    const md = new vscode.MarkdownString('', false);
    md.supportHtml = false;
    md.isTrusted = { enabledCommands: [Commands.trySuccessor] };
    md.appendMarkdown('**');
    md.appendText(displayText(ref.id, 300));
    md.appendMarkdown('**\n\n');
    if (verdict.message) {
      md.appendText(verdict.message);
      md.appendMarkdown('\n\n');
    }
    if (entry) {
      field(md, l10n.t('Family'), displayText(entry.family, 200) || '—');
      field(md, l10n.t('Version'), displayText(entry.version, 200) || '—');
      const lifecycle = lifecycleSentence(readLifecycle(entry.raw), now);
      field(md, l10n.t('Lifecycle'), lifecycle || l10n.t('current'));
      const capabilities = readCapabilities(entry.raw);
      const words = capabilitiesText(capabilities);
      if (words) {
        field(md, l10n.t('Capabilities'), words);
      }
      const context = capabilities?.contextWindow ?? statedTokenLimits(entry.raw).context;
      if (context !== undefined) {
        field(md, l10n.t('Context window'), l10n.t('{0} tokens', displayText(shortTokens(context), 20)));
      }
      // The card's address as text: a registry value is never a link from here. In a code span, since the
      // hover's Markdown would make a bare address a link.
      md.appendMarkdown(`${l10n.t('Model Card')}: `);
      if (entry.cardUrl) {
        md.appendMarkdown(`\`${displayText(entry.cardUrl, 300).replace(/`/g, '%60')}\``);
      } else {
        md.appendText(l10n.t('none'));
      }
      md.appendMarkdown('  \n');
    }
    if (registry.successor(ref.id, verdict) ?? registry.newestInFamily(ref.id, now)) {
      const args: ReferenceArgs = { uri: document.uri.toString(), line: ref.line, character: ref.character };
      md.appendMarkdown(
        `\n[${l10n.t('Try the Successor…')}](command:${Commands.trySuccessor}?${encodeURIComponent(JSON.stringify([args]))})`,
      );
    }
    const range = new vscode.Range(ref.line, ref.character, ref.line, ref.character + ref.length);
    return new vscode.Hover(md, range);
  }
}
