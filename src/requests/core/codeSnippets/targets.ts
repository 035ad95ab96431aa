/**
 * The languages *Copy as Code* offers, one generator each. Pure; no `vscode` import.
 */
import { curlBash, curlCmd, curlPowerShell } from './curl';
import { jsFetch, jsOpenAi } from './javascript';
import { pythonHttpx, pythonOpenAi, pythonRequests } from './python';
import type { SnippetRequest } from './request';

export interface SnippetTarget {
  id: string;
  label: string;
  description: string;
  /** The VS Code language id of the snippet, for a preview document. */
  language: string;
  write(request: SnippetRequest): string;
}

export const SNIPPET_TARGETS: readonly SnippetTarget[] = [
  { id: 'curl-bash', label: 'cURL (bash, zsh)', description: 'POSIX shell', language: 'shellscript', write: curlBash },
  {
    id: 'curl-powershell',
    label: 'cURL (PowerShell)',
    description: 'curl.exe',
    language: 'powershell',
    write: curlPowerShell,
  },
  { id: 'curl-cmd', label: 'cURL (cmd.exe)', description: 'curl.exe', language: 'bat', write: curlCmd },
  {
    id: 'python-openai',
    label: 'Python: openai',
    description: 'OpenAI(base_url=…)',
    language: 'python',
    write: pythonOpenAi,
  },
  { id: 'python-httpx', label: 'Python: httpx', description: 'plain HTTP', language: 'python', write: pythonHttpx },
  {
    id: 'python-requests',
    label: 'Python: requests',
    description: 'plain HTTP',
    language: 'python',
    write: pythonRequests,
  },
  {
    id: 'js-openai',
    label: 'JavaScript: openai',
    description: 'new OpenAI({ baseURL })',
    language: 'javascript',
    write: jsOpenAi,
  },
  {
    id: 'js-fetch',
    label: 'JavaScript: fetch',
    description: 'Node 20+',
    language: 'javascript',
    write: jsFetch,
  },
];

export function snippetTarget(id: unknown): SnippetTarget | undefined {
  return SNIPPET_TARGETS.find((t) => t.id === id);
}
