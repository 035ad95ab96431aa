/**
 * Command-line flags of `npm run serve` → ServerOptions. Kept apart from cli.ts so tests can check the
 * parsing without starting a process.
 */
import { parseArgs } from 'node:util';
import { DIALECTS, isDialect } from './dialects';
import type { FaultSpec } from './faults';
import type { ServerOptions } from './index';

export const USAGE = `Usage: npm run serve -- [options]

  --port N                 port on 127.0.0.1 (default 0: pick a free one; see the first stdout line)
  --host H                 interface to bind (default 127.0.0.1)
  --dialect D              listing dialect: ${DIALECTS.join(' | ')} (default openai)
  --models N               replace the first organization's models with N generated ones
  --registry FILE          registry JSON file (default test/server/registry.json)
  --page-size N            default page size (default 10)
  --max-page-size N        largest page a client may ask for (default 1000)
  --paging-loop            from page 2 on, the next cursor always points at page 2 again
  --prefix PATH            serve under a path prefix, e.g. /api (base URL becomes …/api)
  --key ORG=KEY            use KEY for organization ORG (repeatable)
  --link-origin URL        origin written into absolute Link headers (default: this server)
  --stream-delay MS        delay between streamed events (default 0)
  --max-upload-bytes N     upload size cap; larger uploads get 413 (default 2 GiB)
  --upload-dir DIR         where uploads are stored (default a temp dir removed on exit)
  --local-cards            registry cards at https://cards.example/… are served by this service
                           (/cards/<id>.md), so Preview Model Card works offline (the demo uses it)
  --hostile                hostile mode: organization "hostile" gets a registry, errors and answers
                           full of command links, $(icons), forged log lines, bidi and HTML, echoing
                           its key escaped, base64, hex, as HTML references and split by zero-width
                           characters; model "endless" streams forever; organization "endless"
                           lists forever; every Model Card is hostile Markdown (keys in the first
                           stdout line; see test/README.md)
  --registry-changes       the first organization's registry changes at start (one model new, one
                           gone, one with a new version, one now retiring): start once without it and
                           once with it to see what the extension shows when a registry changes
  --quiet                  no request log on stderr

Faults (SPEC is a probability like 0.2, or first:N for the first N matching requests):
  --latency MS             delay before answering every matching request
  --rate-limit SPEC        429 rate_limit_exceeded with Retry-After
  --retry-after S          Retry-After seconds for 429 (default 1)
  --server-error SPEC      500 server_error
  --unavailable SPEC       503 service_unavailable
  --unavailable-retry-after S   add Retry-After to the 503s
  --html-error SPEC        502 with an HTML page (a proxy's error)
  --malformed-json SPEC    successful JSON answers cut in half; streams get a broken event
  --reset SPEC             connection reset half way through the body
  --hang SPEC              never answer
  --echo-key               error messages repeat the API key (to test redaction)
  --fault-path PATH        apply faults only under PATH, e.g. /v1/models (repeatable)
  --seed N                 seed for probabilistic faults (default 1)
`;

export function parseServeArgs(
  argv: string[],
): ServerOptions & { quiet: boolean; help: boolean; registryChanges: boolean } {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    allowPositionals: false,
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      dialect: { type: 'string' },
      models: { type: 'string' },
      registry: { type: 'string' },
      'page-size': { type: 'string' },
      'max-page-size': { type: 'string' },
      prefix: { type: 'string' },
      'paging-loop': { type: 'boolean' },
      key: { type: 'string', multiple: true },
      'link-origin': { type: 'string' },
      'stream-delay': { type: 'string' },
      'max-upload-bytes': { type: 'string' },
      'upload-dir': { type: 'string' },
      hostile: { type: 'boolean' },
      'local-cards': { type: 'boolean' },
      quiet: { type: 'boolean' },
      'registry-changes': { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
      latency: { type: 'string' },
      'rate-limit': { type: 'string' },
      'retry-after': { type: 'string' },
      'server-error': { type: 'string' },
      unavailable: { type: 'string' },
      'unavailable-retry-after': { type: 'string' },
      'html-error': { type: 'string' },
      'malformed-json': { type: 'string' },
      reset: { type: 'string' },
      hang: { type: 'string' },
      'echo-key': { type: 'boolean' },
      'fault-path': { type: 'string', multiple: true },
      seed: { type: 'string' },
    },
  });

  const dialect = values.dialect ?? 'openai';
  if (!isDialect(dialect)) {
    throw new Error(`--dialect must be one of ${DIALECTS.join(', ')}; got "${dialect}"`);
  }
  const keys: Record<string, string> = {};
  for (const pair of values.key ?? []) {
    const eq = pair.indexOf('=');
    if (eq <= 0 || eq === pair.length - 1) {
      throw new Error(`--key expects ORG=KEY; got "${pair}"`);
    }
    keys[pair.slice(0, eq)] = pair.slice(eq + 1);
  }
  const rateLimit = spec('rate-limit', values['rate-limit']);
  const unavailable = spec('unavailable', values.unavailable);
  return {
    help: values.help ?? false,
    quiet: values.quiet ?? false,
    registryChanges: values['registry-changes'] ?? false,
    port: int('port', values.port, 0),
    host: values.host,
    dialect,
    models: int('models', values.models, 0),
    registry: values.registry,
    pageSize: int('page-size', values['page-size'], 1),
    maxPageSize: int('max-page-size', values['max-page-size'], 1),
    pathPrefix: values.prefix,
    pagingLoop: values['paging-loop'],
    keys: Object.keys(keys).length > 0 ? keys : undefined,
    linkOrigin: values['link-origin'],
    streamDelayMs: int('stream-delay', values['stream-delay'], 0),
    maxUploadBytes: int('max-upload-bytes', values['max-upload-bytes'], 0),
    uploadDir: values['upload-dir'],
    hostile: values.hostile,
    localCards: values['local-cards'],
    faults: {
      latencyMs: int('latency', values.latency, 0),
      rateLimit: rateLimit && { ...rateLimit, retryAfterSeconds: int('retry-after', values['retry-after'], 0) },
      serverError: spec('server-error', values['server-error']),
      unavailable: unavailable && {
        ...unavailable,
        retryAfterSeconds: int('unavailable-retry-after', values['unavailable-retry-after'], 0),
      },
      htmlError: spec('html-error', values['html-error']),
      malformedJson: spec('malformed-json', values['malformed-json']),
      resetMidBody: spec('reset', values.reset),
      hang: spec('hang', values.hang),
      echoKey: values['echo-key'] ?? false,
      paths: values['fault-path'],
      seed: int('seed', values.seed, 0),
    },
  };
}

function int(flag: string, raw: string | undefined, min: number): number | undefined {
  if (raw === undefined) {
    return undefined;
  }
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min) {
    throw new Error(`--${flag} expects an integer >= ${min}; got "${raw}"`);
  }
  return n;
}

/** `0.25` → { rate: 0.25 }; `first:3` → { first: 3 }. */
export function spec(flag: string, raw: string | undefined): FaultSpec | undefined {
  if (raw === undefined) {
    return undefined;
  }
  const first = /^first:(\d+)$/.exec(raw);
  if (first) {
    return { first: Number(first[1]) };
  }
  const rate = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(rate) || rate < 0 || rate > 1) {
    throw new Error(`--${flag} expects a probability between 0 and 1 or first:N; got "${raw}"`);
  }
  return { rate };
}
