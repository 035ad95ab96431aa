/**
 * The request in JavaScript (Node, ES module): the `openai` npm package pointed at the
 * service with `baseURL`, or `fetch`. The key comes from `process.env.MODEL_ACCESS_API_KEY`. Pure; no `vscode` import.
 */
import { BASE_URL_VARIABLE, KEY_VARIABLE, isStreaming, openingComments, tooDeepForLiteral } from './request';
import type { SnippetRequest } from './request';
import { l10n } from '../../../../common/plainL10n';

/** A JavaScript string literal (JSON's spelling is valid JavaScript). */
export function jsString(s: string): string {
  return JSON.stringify(s);
}

/** Whether `value` has an own `__proto__` key: in an object literal it would set the prototype instead. */
function hasProtoKey(value: unknown): boolean {
  const stack: unknown[] = [value];
  while (stack.length) {
    const v = stack.pop();
    if (typeof v === 'object' && v !== null) {
      if (!Array.isArray(v) && Object.prototype.hasOwnProperty.call(v, '__proto__')) {
        return true;
      }
      stack.push(...Object.values(v));
    }
  }
  return false;
}

/** `value` as a JavaScript expression, its lines after the first indented by `indent`. */
export function jsLiteral(value: unknown, indent = ''): string {
  if (hasProtoKey(value) || tooDeepForLiteral(value)) {
    return `JSON.parse(${jsString(JSON.stringify(value))})`;
  }
  return (JSON.stringify(value, null, 2) ?? 'null').replace(/\n/g, `\n${indent}`);
}

function header(runsOn: string, request: SnippetRequest): string[] {
  return openingComments('//', request, runsOn, KEY_VARIABLE, BASE_URL_VARIABLE);
}

/** The environment's extra headers as `name: value` properties of an object literal. */
function extraHeaders(request: SnippetRequest): string[] {
  return (request.headers ?? []).map(
    (h) => `${jsString(h.name)}: ${'variable' in h ? `process.env.${h.variable}` : jsString(h.value)}`,
  );
}

function rootExpression(request: SnippetRequest, path: string): string {
  return request.serviceRoot
    ? jsString(`${request.serviceRoot}${path}`)
    : `\`\${process.env.${BASE_URL_VARIABLE}}${path.replace(/[`$\\]/g, '\\$&')}\``;
}

export function jsOpenAi(request: SnippetRequest): string {
  const stream = isStreaming(request);
  const lines = [
    ...header(l10n.t('Node 20+ ES module (.mjs) with the openai package (npm install openai).'), request),
    "import OpenAI from 'openai';",
    '',
    `const client = new OpenAI({ baseURL: ${rootExpression(request, '/v1')}, apiKey: process.env.${KEY_VARIABLE}${
      extraHeaders(request).length ? `, defaultHeaders: { ${extraHeaders(request).join(', ')} }` : ''
    } });`,
    '',
  ];
  const body = jsLiteral(request.body);
  switch (request.endpoint) {
    case '/v1/responses':
      lines.push(`const response = await client.responses.create(${body});`);
      lines.push(
        ...(stream
          ? [
              'for await (const event of response) {',
              "  if (event.type === 'response.output_text.delta') {",
              '    process.stdout.write(event.delta);',
              '  }',
              '}',
              "process.stdout.write('\\n');",
            ]
          : ['console.log(response.output_text);']),
      );
      break;
    case '/v1/embeddings':
      lines.push(`const response = await client.embeddings.create(${body});`);
      lines.push(
        'for (const item of response.data) {',
        '  console.log(item.index, item.embedding.length, item.embedding.slice(0, 4));',
        '}',
      );
      break;
    default:
      // The package has no method for this endpoint: its generic POST sends with the same client and headers.
      lines.push(`const body = ${body};`);
      if (stream) {
        lines.push(
          `const events = await client.post(${jsString(request.endpoint.replace(/^\/v1/, ''))}, { body, stream: true });`,
          'for await (const event of events) {',
          '  console.log(JSON.stringify(event));',
          '}',
        );
      } else {
        lines.push(
          `const answer = await client.post(${jsString(request.endpoint.replace(/^\/v1/, ''))}, { body });`,
          'console.log(JSON.stringify(answer, null, 2));',
        );
      }
  }
  return lines.join('\n');
}

export function jsFetch(request: SnippetRequest): string {
  const stream = isStreaming(request);
  return [
    ...header(l10n.t('Node 20+ ES module (.mjs) with fetch.'), request),
    `const response = await fetch(${rootExpression(request, request.endpoint)}, {`,
    "  method: 'POST',",
    '  headers: {',
    `    Authorization: \`Bearer \${process.env.${KEY_VARIABLE}}\`,`,
    "    'Content-Type': 'application/json',",
    ...extraHeaders(request).map((h) => `    ${h},`),
    '  },',
    `  body: JSON.stringify(${jsLiteral(request.body, '  ')}),`,
    '});',
    'if (!response.ok) {',
    '  throw new Error(`${response.status} ${response.statusText}: ${await response.text()}`);',
    '}',
    ...(stream
      ? [
          'for await (const chunk of response.body.pipeThrough(new TextDecoderStream())) {',
          '  process.stdout.write(chunk);',
          '}',
        ]
      : ['console.log(JSON.stringify(await response.json(), null, 2));']),
  ].join('\n');
}
