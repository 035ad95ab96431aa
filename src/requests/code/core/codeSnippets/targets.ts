/**
 * The languages *Copy as Code* offers, one generator each. Pure; no `vscode` import.
 */
import { curlBash, curlCmd, curlPowerShell } from './curl';
import { jsFetch, jsOpenAi } from './javascript';
import { pythonHttpx, pythonOpenAi, pythonRequests } from './python';
import type { SnippetRequest } from './request';
import { l10n } from '../../../../common/l10n';

export interface SnippetTarget {
  id: string;
  /** Read when shown (the display language's bundle is loaded after this module). */
  readonly label: string;
  readonly description: string;
  /** The VS Code language id of the snippet, for a preview document. */
  language: string;
  write(request: SnippetRequest): string;
}

interface TargetSpec extends Omit<SnippetTarget, 'label' | 'description'> {
  label: () => string;
  description: () => string;
}

/** Label and description are read when shown: the display language's bundle is loaded after this module. */
function target(spec: TargetSpec): SnippetTarget {
  return {
    ...spec,
    get label() {
      return spec.label();
    },
    get description() {
      return spec.description();
    },
  };
}

// prettier-ignore
export const SNIPPET_TARGETS: readonly SnippetTarget[] = [
  target({ id: 'curl-bash', label: () => l10n.t('cURL (bash, zsh)'), description: () => l10n.t('POSIX shell'), language: 'shellscript', write: curlBash }),
  target({ id: 'curl-powershell', label: () => l10n.t('cURL (PowerShell)'), description: () => l10n.t('curl.exe'), language: 'powershell', write: curlPowerShell }),
  target({ id: 'curl-cmd', label: () => l10n.t('cURL (cmd.exe)'), description: () => l10n.t('curl.exe'), language: 'bat', write: curlCmd }),
  target({ id: 'python-openai', label: () => l10n.t('Python: openai'), description: () => l10n.t('OpenAI(base_url=…)'), language: 'python', write: pythonOpenAi }),
  target({ id: 'python-httpx', label: () => l10n.t('Python: httpx'), description: () => l10n.t('plain HTTP'), language: 'python', write: pythonHttpx }),
  target({ id: 'python-requests', label: () => l10n.t('Python: requests'), description: () => l10n.t('plain HTTP'), language: 'python', write: pythonRequests }),
  target({ id: 'js-openai', label: () => l10n.t('JavaScript: openai'), description: () => l10n.t('new OpenAI({ baseURL })'), language: 'javascript', write: jsOpenAi }),
  target({ id: 'js-fetch', label: () => l10n.t('JavaScript: fetch'), description: () => l10n.t('Node 20+'), language: 'javascript', write: jsFetch }),
];

export function snippetTarget(id: unknown): SnippetTarget | undefined {
  return SNIPPET_TARGETS.find((t) => t.id === id);
}
