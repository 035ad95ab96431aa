/**
 * The target endpoint of a scratch payload lives in the file itself, as a first-line comment such as
 * `// POST /v1/chat`: it stays valid JSON-with-comments, survives copies and is editable by hand.
 * Pure; no `vscode` import.
 */
import type { PostEndpoint } from '../../api/types';
import { l10n } from '../../common/l10n';
import type { DisplayText } from '../../common/text';

export interface EndpointInfo {
  path: PostEndpoint;
  /** Read when shown: the display language's bundle is loaded after this module. */
  readonly label: DisplayText;
  /** Whether the payload is JSON (all three are). */
  kind: 'responses' | 'chat' | 'embeddings';
}

export const ENDPOINTS: readonly EndpointInfo[] = [
  {
    path: '/v1/responses',
    get label() {
      return l10n.t('Responses');
    },
    kind: 'responses',
  },
  {
    path: '/v1/chat',
    get label() {
      return l10n.t('Chat');
    },
    kind: 'chat',
  },
  {
    path: '/v1/embeddings',
    get label() {
      return l10n.t('Embeddings');
    },
    kind: 'embeddings',
  },
];

const HEADER = /^\uFEFF?[ \t]*\/\/[ \t]*POST[ \t]+(\S+)[ \t]*$/i;

/** The endpoint recorded on the first line, or undefined (no header, or not one of ours). */
export function readEndpoint(text: string): PostEndpoint | undefined {
  const firstLine = text.slice(0, Math.max(0, text.indexOf('\n')) || text.length).replace(/\r$/, '');
  const m = HEADER.exec(firstLine);
  if (!m) {
    return undefined;
  }
  const path = normalizeEndpoint(m[1]);
  return ENDPOINTS.find((e) => e.path === path)?.path;
}

/** `v1/chat`, `/v1/chat/`, `/V1/Chat` → `/v1/chat`. */
export function normalizeEndpoint(text: string): string {
  let p = text.trim().toLowerCase().replace(/\/+$/, '');
  if (!p.startsWith('/')) {
    p = `/${p}`;
  }
  return p;
}

export function headerLine(endpoint: PostEndpoint): string {
  return `// POST ${endpoint}`;
}

/** The text with its first-line header set to `endpoint` (replacing an existing one, else inserted). */
export function withEndpoint(text: string, endpoint: PostEndpoint): string {
  const nl = text.indexOf('\n');
  const firstLine = (nl < 0 ? text : text.slice(0, nl)).replace(/\r$/, '');
  if (HEADER.test(firstLine)) {
    return headerLine(endpoint) + (nl < 0 ? '' : text.slice(nl));
  }
  return `${headerLine(endpoint)}\n${text}`;
}

export function endpointInfo(path: string): EndpointInfo | undefined {
  return ENDPOINTS.find((e) => e.path === path);
}
