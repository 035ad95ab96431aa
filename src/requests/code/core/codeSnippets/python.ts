/**
 * The request in Python: the `openai` package pointed at the service with `base_url`, or plain `httpx` or
 * `requests`. The key comes from `os.environ["MODEL_ACCESS_API_KEY"]`. Pure; no `vscode` import.
 */
import { isRecord } from '../../../../common/records';
import { BASE_URL_VARIABLE, KEY_VARIABLE, isStreaming, openingComments, tooDeepForLiteral } from './request';
import type { SnippetRequest } from './request';
import { l10n } from '../../../../common/plainL10n';

const INDENT = '    ';

/**
 * A Python string literal. JSON's string escapes (`\"`, `\\`, `\n`, `\uXXXX`, …) mean the same in a Python
 * string, so JSON's spelling is Python's.
 */
export function pythonString(s: string): string {
  return JSON.stringify(s);
}

/** `value` as a Python expression (dicts, lists, True/False/None), indented from `level`. */
export function pythonLiteral(value: unknown, level = 0): string {
  if (tooDeepForLiteral(value)) {
    return `json.loads(${pythonString(JSON.stringify(value))})`;
  }
  return literal(value, level);
}

function literal(value: unknown, level: number): string {
  const pad = INDENT.repeat(level + 1);
  const end = INDENT.repeat(level);
  if (value === null || value === undefined) {
    return 'None';
  }
  if (typeof value === 'boolean') {
    return value ? 'True' : 'False';
  }
  if (typeof value === 'number') {
    return Number.isFinite(value) ? JSON.stringify(value) : 'None';
  }
  if (typeof value === 'string') {
    return pythonString(value);
  }
  if (Array.isArray(value)) {
    return value.length === 0 ? '[]' : `[\n${value.map((v) => `${pad}${literal(v, level + 1)},\n`).join('')}${end}]`;
  }
  const entries = Object.entries(value as Record<string, unknown>);
  return entries.length === 0
    ? '{}'
    : `{\n${entries.map(([k, v]) => `${pad}${pythonString(k)}: ${literal(v, level + 1)},\n`).join('')}${end}}`;
}

/** Keyword arguments the openai package's methods take (the rest goes in `extra_body`, sent as it is). */
const SDK_PARAMETERS: Record<string, readonly string[]> = {
  '/v1/responses': [
    'model',
    'input',
    'instructions',
    'stream',
    'temperature',
    'top_p',
    'max_output_tokens',
    'tools',
    'tool_choice',
    'text',
    'metadata',
    'previous_response_id',
    'reasoning',
    'store',
    'truncation',
    'user',
    'parallel_tool_calls',
    'include',
  ],
  '/v1/embeddings': ['model', 'input', 'dimensions', 'encoding_format', 'user'],
};

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

function header(runsOn: string, request: SnippetRequest): string[] {
  return openingComments('#', request, runsOn, KEY_VARIABLE, BASE_URL_VARIABLE);
}

function root(request: SnippetRequest): string {
  return request.serviceRoot ? pythonString(request.serviceRoot) : `os.environ[${pythonString(BASE_URL_VARIABLE)}]`;
}

function url(request: SnippetRequest): string {
  return request.serviceRoot
    ? pythonString(`${request.serviceRoot}${request.endpoint}`)
    : `${root(request)} + ${pythonString(request.endpoint)}`;
}

const KEY = `os.environ[${pythonString(KEY_VARIABLE)}]`;

/** The environment's extra headers as `"Name": value` entries of a dict literal. */
function extraHeaders(request: SnippetRequest): string[] {
  return (request.headers ?? []).map(
    (h) =>
      `${pythonString(h.name)}: ${'variable' in h ? `os.environ[${pythonString(h.variable)}]` : pythonString(h.value)}`,
  );
}

export function pythonOpenAi(request: SnippetRequest): string {
  const stream = isStreaming(request);
  const baseUrl = request.serviceRoot ? pythonString(`${request.serviceRoot}/v1`) : `${root(request)} + "/v1"`;
  const lines = [
    ...header(l10n.t('Python 3 with the openai package (pip install openai).'), request),
    'import os',
    ...(tooDeepForLiteral(request.body) ? ['import json'] : []),
    '',
    `from openai import OpenAI${stream && request.endpoint === '/v1/chat' ? ', Stream' : ''}`,
    '',
    extraHeaders(request).length
      ? `client = OpenAI(base_url=${baseUrl}, api_key=${KEY}, default_headers={${extraHeaders(request).join(', ')}})`
      : `client = OpenAI(base_url=${baseUrl}, api_key=${KEY})`,
    '',
  ];
  const known = SDK_PARAMETERS[request.endpoint];
  const body = request.body;
  if (known && isRecord(body) && 'model' in body && 'input' in body) {
    const method = request.endpoint === '/v1/responses' ? 'client.responses.create' : 'client.embeddings.create';
    const named = Object.entries(body).filter(([k]) => known.includes(k) && IDENTIFIER.test(k));
    const extra = Object.fromEntries(Object.entries(body).filter(([k]) => !named.some(([n]) => n === k)));
    const args = [
      ...named.map(([k, v]) => `${INDENT}${k}=${pythonLiteral(v, 1)},`),
      ...(Object.keys(extra).length ? [`${INDENT}extra_body=${pythonLiteral(extra, 1)},`] : []),
    ];
    lines.push(`response = ${method}(`, ...args, ')');
    if (request.endpoint === '/v1/embeddings') {
      lines.push('for item in response.data:', `${INDENT}print(item.index, len(item.embedding), item.embedding[:4])`);
    } else if (stream) {
      lines.push(
        'for event in response:',
        `${INDENT}if event.type == "response.output_text.delta":`,
        `${INDENT}${INDENT}print(event.delta, end="", flush=True)`,
        'print()',
      );
    } else {
      lines.push('print(response.output_text)');
    }
    return lines.join('\n');
  }
  // No method for this endpoint (or not the shape the method expects): the client's own POST, same headers.
  const path = pythonString(request.endpoint.replace(/^\/v1/, ''));
  lines.push(`payload = ${pythonLiteral(body)}`, '');
  if (stream) {
    lines.push(
      `events = client.post(${path}, body=payload, cast_to=object, stream=True, stream_cls=Stream[object])`,
      'for event in events:',
      `${INDENT}print(event)`,
    );
  } else {
    lines.push(`answer = client.post(${path}, body=payload, cast_to=object)`, 'print(answer)');
  }
  return lines.join('\n');
}

export function pythonHttpx(request: SnippetRequest): string {
  const stream = isStreaming(request);
  const call = `${url(request)}, headers=headers, json=payload, timeout=120`;
  return [
    ...header(l10n.t('Python 3 with httpx (pip install httpx).'), request),
    ...imports(request, 'httpx'),
    ...payloadAndHeaders(request),
    ...(stream
      ? [
          `with httpx.stream("POST", ${call}) as response:`,
          `${INDENT}response.raise_for_status()`,
          `${INDENT}for line in response.iter_lines():`,
          `${INDENT}${INDENT}print(line)`,
        ]
      : [`response = httpx.post(${call})`, 'response.raise_for_status()', 'print(response.json())']),
  ].join('\n');
}

export function pythonRequests(request: SnippetRequest): string {
  const stream = isStreaming(request);
  const call = `${url(request)}, headers=headers, json=payload, timeout=120${stream ? ', stream=True' : ''}`;
  return [
    ...header(l10n.t('Python 3 with requests (pip install requests).'), request),
    ...imports(request, 'requests'),
    ...payloadAndHeaders(request),
    `response = requests.post(${call})`,
    'response.raise_for_status()',
    ...(stream
      ? ['for line in response.iter_lines(decode_unicode=True):', `${INDENT}print(line)`]
      : ['print(response.json())']),
  ].join('\n');
}

function imports(request: SnippetRequest, library: string): string[] {
  return [...(tooDeepForLiteral(request.body) ? ['import json'] : []), 'import os', '', `import ${library}`, ''];
}

function payloadAndHeaders(request: SnippetRequest): string[] {
  const headers = [`"Authorization": "Bearer " + ${KEY}`, ...extraHeaders(request)].join(', ');
  return [`headers = {${headers}}`, `payload = ${pythonLiteral(request.body)}`, ''];
}
