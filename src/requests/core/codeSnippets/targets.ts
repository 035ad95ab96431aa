/**
 * The languages *Copy as Code* offers, one generator each. Pure; no `vscode` import.
 */
import { curlBash, curlCmd, curlPowerShell } from './curl';
import { jsFetch, jsOpenAi } from './javascript';
import { pythonHttpx, pythonOpenAi, pythonRequests } from './python';
import type { SnippetRequest } from './request';
import { l10n } from '../../../common/l10n';

export interface SnippetTarget {
  id: string;
  /** Read when shown (the display language's bundle is loaded after this module). */
  readonly label: string;
  readonly description: string;
  /** The VS Code language id of the snippet, for a preview document. */
  language: string;
  write(request: SnippetRequest): string;
}

export const SNIPPET_TARGETS: readonly SnippetTarget[] = [
  {
    id: 'curl-bash',
    get label() {
      return l10n.t('cURL (bash, zsh)');
    },
    get description() {
      return l10n.t('POSIX shell');
    },
    language: 'shellscript',
    write: curlBash,
  },
  {
    id: 'curl-powershell',
    get label() {
      return l10n.t('cURL (PowerShell)');
    },
    get description() {
      return l10n.t('curl.exe');
    },
    language: 'powershell',
    write: curlPowerShell,
  },
  {
    id: 'curl-cmd',
    get label() {
      return l10n.t('cURL (cmd.exe)');
    },
    get description() {
      return l10n.t('curl.exe');
    },
    language: 'bat',
    write: curlCmd,
  },
  {
    id: 'python-openai',
    get label() {
      return l10n.t('Python: openai');
    },
    get description() {
      return l10n.t('OpenAI(base_url=…)');
    },
    language: 'python',
    write: pythonOpenAi,
  },
  {
    id: 'python-httpx',
    get label() {
      return l10n.t('Python: httpx');
    },
    get description() {
      return l10n.t('plain HTTP');
    },
    language: 'python',
    write: pythonHttpx,
  },
  {
    id: 'python-requests',
    get label() {
      return l10n.t('Python: requests');
    },
    get description() {
      return l10n.t('plain HTTP');
    },
    language: 'python',
    write: pythonRequests,
  },
  {
    id: 'js-openai',
    get label() {
      return l10n.t('JavaScript: openai');
    },
    get description() {
      return l10n.t('new OpenAI({ baseURL })');
    },
    language: 'javascript',
    write: jsOpenAi,
  },
  {
    id: 'js-fetch',
    get label() {
      return l10n.t('JavaScript: fetch');
    },
    get description() {
      return l10n.t('Node 20+');
    },
    language: 'javascript',
    write: jsFetch,
  },
];

export function snippetTarget(id: unknown): SnippetTarget | undefined {
  return SNIPPET_TARGETS.find((t) => t.id === id);
}
