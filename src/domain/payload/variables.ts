/**
 * Variables in payloads: `{{name}}` inside JSON strings, resolved when the payload is sent.
 *
 * - `{{name}}`: the active (or pinned) environment's `variables`; a value may itself hold references.
 * - `{{model}}`: the payload's own top-level `"model"` (else an environment variable called `model`).
 * - `{{$env NAME}}`: the process environment. Its value is a secret: the request carries it, but what is
 *   shown or kept (cURL, messages) keeps the reference as written.
 * - `{{$uuid}}`, `{{$timestamp}}` (Unix seconds): new for every send.
 * - `\{{` is a literal `{{` (written `"\\{{"` in JSON); `{{` followed by anything that is not a name or a
 *   built-in stays text as it is (a prompt about templates keeps its braces).
 *
 * Pure; no `vscode` import.
 */
import { createScanner } from 'jsonc-parser';
import { l10n } from '../../common/plainL10n';

/** jsonc-parser's `SyntaxKind` values (a const enum, which isolated modules cannot read). */
const STRING_LITERAL = 10;
const EOF = 17;

export type ReferenceKind = 'variable' | 'env' | 'uuid' | 'timestamp' | 'builtin';

export interface Reference {
  kind: ReferenceKind;
  /** The variable's name, the environment variable's name (`$env NAME`), or the built-in (`$uuid`). */
  name: string;
  /** The reference as written, braces included. */
  text: string;
}

/** Literal text, or a reference and where it starts in the split string. */
export type Piece = { literal: string } | { ref: Reference; at: number };

const NAME = '[A-Za-z_][A-Za-z0-9_.-]*';
const ENV_NAME = '[A-Za-z_][A-Za-z0-9_]*';
/** One reference; the inner text is a name, or `$` and a built-in (with an argument for `$env`). */
const REFERENCE = new RegExp(`\\{\\{[ \\t]*(?:(${NAME})|\\$(${NAME})(?:[ \\t]+(${ENV_NAME}))?)[ \\t]*\\}\\}`, 'y');

/**
 * Splits a string into literal text and references. Joining the literals with the references' `text`
 * gives back the string, except that each `\{{` escape becomes `{{`.
 */
export function splitTemplate(s: string): Piece[] {
  const pieces: Piece[] = [];
  let literal = '';
  let i = 0;
  while (i < s.length) {
    const open = s.indexOf('{{', i);
    if (open < 0) {
      literal += s.slice(i);
      break;
    }
    if (open > i && s[open - 1] === '\\') {
      literal += `${s.slice(i, open - 1)}{{`;
      i = open + 2;
      continue;
    }
    REFERENCE.lastIndex = open;
    const m = REFERENCE.exec(s);
    if (!m) {
      literal += s.slice(i, open + 1);
      i = open + 1;
      continue;
    }
    literal += s.slice(i, open);
    if (literal) {
      pieces.push({ literal });
      literal = '';
    }
    pieces.push({ ref: referenceOf(m), at: open });
    i = open + m[0].length;
  }
  if (literal) {
    pieces.push({ literal });
  }
  return pieces;
}

/**
 * `text` written so that resolving it gives back `text` exactly: every `{{` becomes the `\{{` escape (a
 * backslash already before a `{{` stays, since resolving takes one away). What an answer, a service or a
 * dataset row writes into a payload goes through this: it is data, and must never become a reference that
 * the next Send resolves (`{{$env AWS_SECRET_ACCESS_KEY}}` answered by a model led by a prompt injection).
 */
export function literalText(text: string): string {
  return text.includes('{{') ? text.replace(/\{\{/g, '\\{{') : text;
}

/**
 * `text` written between the quotes of a payload's JSON string so that Send sends `text` exactly: escaped for
 * JSON (a `"` or `\` never ends the string early and adds keys) and for `{{…}}` ({@link literalText}). Every
 * value the registry gives — a model id written by New Request, Compare Models, Run Checks on Several Models,
 * a quick fix, completion or the conversation panel's model picker — goes into a payload through this or
 * `literalText`: a registry listing `{{$env AWS_SECRET_ACCESS_KEY}}` as an id must not make Send read it.
 */
export function literalStringContent(text: string): string {
  return JSON.stringify(literalText(text)).slice(1, -1);
}

/**
 * What Send sends for `text` when it holds no reference (its `\{{` escapes undone), else undefined: how a
 * model written by literalText reads again as the registry's id.
 */
export function literalOf(text: string): string | undefined {
  let out = '';
  for (const piece of splitTemplate(text)) {
    if (!('literal' in piece)) {
      return undefined;
    }
    out += piece.literal;
  }
  return out;
}

/** Every string of a JSON value (keys too) as `literalText`. */
export function literalValue(value: unknown): unknown {
  if (typeof value === 'string') {
    return literalText(value);
  }
  if (Array.isArray(value)) {
    return value.map(literalValue);
  }
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [literalText(k), literalValue(v)]));
  }
  return value;
}

function referenceOf(m: RegExpExecArray): Reference {
  const text = m[0];
  if (m[1] !== undefined) {
    return { kind: 'variable', name: m[1], text };
  }
  const builtin = m[2];
  if (builtin === 'env' && m[3] !== undefined) {
    return { kind: 'env', name: m[3], text };
  }
  if (m[3] === undefined && (builtin === 'uuid' || builtin === 'timestamp')) {
    return { kind: builtin, name: `$${builtin}`, text };
  }
  return { kind: 'builtin', name: `$${builtin}${m[3] ? ` ${m[3]}` : ''}`, text };
}

/**
 * Which `{{$env NAME}}` a payload may read. A payload from an untrusted workspace, or any file outside the
 * scratch folder, may have been written by someone else: it may read only `MODEL_ACCESS_*` names and the
 * names the person allowed (per workspace), so opening a repository's payload and pressing Send cannot send
 * `AWS_SECRET_ACCESS_KEY` along. Where the payload is the person's own (a scratch file in a trusted window),
 * every name may be read.
 */
export interface EnvPolicy {
  /**
   * Why names are limited (undefined: every name may be read): an untrusted workspace, a file outside the
   * scratch folder, or a scratch file whose text was copied in from elsewhere (kind.ts `ScratchOrigin`).
   */
  limited?: 'untrusted' | 'outsideScratch' | 'copied';
  /** Names the person allowed for this workspace. */
  allowed: ReadonlySet<string>;
}

/** The names every payload may read. */
export const OWN_ENV_PREFIX = 'MODEL_ACCESS_';

/**
 * The names no payload may read, whatever the policy or the person allowed: the command line's keys
 * (`MODEL_ACCESS_API_KEY`, `MODEL_ACCESS_API_KEY_<ENV>`) and secret header values (`MODEL_ACCESS_SECRET_*`).
 * A payload could otherwise put them into a body, where the service (or whoever wrote the payload) reads them.
 */
const CREDENTIAL_NAME = /^MODEL_ACCESS_(?:API_KEY(?:_|$)|SECRET_)/i;

/** Whether `policy` lets a payload read the environment variable `name`, and on what ground. */
export function envAccess(
  name: string,
  policy: EnvPolicy | undefined,
): 'open' | 'own' | 'allowed' | 'refused' | 'never' {
  if (CREDENTIAL_NAME.test(name)) {
    return 'never';
  }
  if (!policy?.limited) {
    return 'open';
  }
  if (name.startsWith(OWN_ENV_PREFIX)) {
    return 'own';
  }
  return policy.allowed.has(name) ? 'allowed' : 'refused';
}

/** What resolving may read. */
export interface VariableContext {
  /** The environment's variables. */
  variables: Readonly<Record<string, string>>;
  /** The environment's name, for messages. */
  environment?: string;
  /** The process environment (`{{$env NAME}}`); asked only for names `envPolicy` allows. */
  env: (name: string) => string | undefined;
  /** Which names `env` may be asked for (undefined: every name). */
  envPolicy?: EnvPolicy;
  uuid: () => string;
  /** Milliseconds since the epoch. */
  now: () => number;
}

/** A reference that cannot be resolved, said so a person can fix it. */
export interface VariableProblem {
  reference: string;
  message: string;
  /** The environment variable the payload may not read until the person allows it. */
  refusedEnv?: string;
}

export interface Resolved {
  /** The text with every reference replaced: what is sent. */
  sent: string;
  /** The text with the values of non-secret references, and secret ones kept as written: what is shown. */
  shown: string;
  /** Every secret value that went into `sent` (for the log's redactor). */
  secrets: string[];
  problems: VariableProblem[];
}

const MAX_DEPTH = 8;

/**
 * Resolves one string. `model` is the payload's own `"model"`, resolved (`resolveModel`), when known:
 * `{{model}}` takes it as it is — what it sends, what it shows, its secrets and its problems — so a copy of
 * the model obeys the same `{{$env}}` policy and redaction as the model itself, and its text is never
 * resolved a second time (a literal `\{{$env NAME}}` id stays literal in the copy).
 * An unresolvable reference stays as written in both outputs, with a problem.
 */
export function resolveString(s: string, context: VariableContext, model?: Resolved): Resolved {
  const out: Resolved = { sent: '', shown: '', secrets: [], problems: [] };
  resolveInto(s, context, model, out, [], 0);
  return out;
}

function resolveInto(
  s: string,
  context: VariableContext,
  model: Resolved | undefined,
  out: Resolved,
  trail: readonly string[],
  depth: number,
): void {
  for (const piece of splitTemplate(s)) {
    if ('literal' in piece) {
      out.sent += piece.literal;
      out.shown += piece.literal;
      continue;
    }
    const ref = piece.ref;
    const fail = (message: string) => {
      out.problems.push({ reference: ref.text, message });
      out.sent += ref.text;
      out.shown += ref.text;
    };
    switch (ref.kind) {
      case 'uuid': {
        const v = context.uuid();
        out.sent += v;
        out.shown += v;
        break;
      }
      case 'timestamp': {
        const v = String(Math.floor(context.now() / 1000));
        out.sent += v;
        out.shown += v;
        break;
      }
      case 'env': {
        const access = envAccess(ref.name, context.envPolicy);
        if (access === 'never') {
          fail(l10n.t('{0}: a payload never reads {1}, which holds a key or a secret header', ref.text, ref.name));
          break;
        }
        if (access === 'refused') {
          out.problems.push({
            reference: ref.text,
            refusedEnv: ref.name,
            message:
              context.envPolicy?.limited === 'untrusted'
                ? l10n.t(
                    '{0}: in a workspace you have not trusted, a payload reads only {1}* environment variables unless you allow {2}',
                    ref.text,
                    OWN_ENV_PREFIX,
                    ref.name,
                  )
                : context.envPolicy?.limited === 'copied'
                  ? l10n.t(
                      '{0}: this payload was copied into the scratch folder from elsewhere (a fork, a copy, the history or a curl command), so it reads only {1}* environment variables unless you allow {2}',
                      ref.text,
                      OWN_ENV_PREFIX,
                      ref.name,
                    )
                  : l10n.t(
                      '{0}: a payload outside the scratch folder reads only {1}* environment variables unless you allow {2}',
                      ref.text,
                      OWN_ENV_PREFIX,
                      ref.name,
                    ),
          });
          out.sent += ref.text;
          out.shown += ref.text;
          break;
        }
        const v = context.env(ref.name);
        if (v === undefined) {
          fail(l10n.t("{0}: the environment variable {1} is not set in VS Code's environment", ref.text, ref.name));
        } else {
          out.sent += v;
          out.shown += ref.text;
          out.secrets.push(v);
        }
        break;
      }
      case 'builtin':
        fail(l10n.t('{0}: there is no built-in {1} (built-ins: $env NAME, $uuid, $timestamp)', ref.text, ref.name));
        break;
      case 'variable': {
        if (ref.name === 'model' && model) {
          // The model as it resolved: never its result resolved again, and a secret in it stays a secret.
          out.sent += model.sent;
          out.shown += model.secrets.length ? ref.text : model.shown;
          out.secrets.push(...model.secrets);
          break;
        }
        const value = Object.hasOwn(context.variables, ref.name) ? context.variables[ref.name] : undefined;
        if (value === undefined) {
          fail(
            ref.name === 'model'
              ? l10n.t('{0}: the payload has no "model" to use', ref.text)
              : context.environment
                ? l10n.t('{0} is not defined in environment {1}', ref.text, context.environment)
                : l10n.t('{0} is not defined', ref.text),
          );
        } else if (trail.includes(ref.name) || depth >= MAX_DEPTH) {
          fail(l10n.t('{0} refers to itself ({1})', ref.text, [...trail, ref.name].join(' → ')));
        } else {
          // A value may hold references of its own; a secret inside keeps the whole reference as written.
          const inner: Resolved = { sent: '', shown: '', secrets: [], problems: [] };
          resolveInto(value, context, model, inner, [...trail, ref.name], depth + 1);
          out.sent += inner.sent;
          out.shown += inner.secrets.length ? ref.text : inner.shown;
          out.secrets.push(...inner.secrets);
          out.problems.push(...inner.problems);
        }
        break;
      }
    }
  }
}

export interface ResolvedPayload {
  /** The JSON sent (compact). */
  json: string;
  /** The JSON as it may be shown or kept (compact): secret references as written. */
  shownJson: string;
  /** The resolved value (for the model, `stream` and the like). */
  value: unknown;
  secrets: string[];
  problems: VariableProblem[];
}

/**
 * Resolves every string of a parsed payload, keys included. `{{model}}` is the payload's top-level
 * `"model"`, itself resolved first (without `{{model}}`; see resolveString). One walk builds what is sent and what is shown
 * side by side (they see the same `$uuid`s and `$timestamp`); the two differ only where a secret went in,
 * so without one they are the same value. A checks run resolves a payload per dataset row: strings without
 * `{{` are kept as they are.
 */
export function resolvePayload(value: unknown, context: VariableContext): ResolvedPayload {
  const now = context.now();
  const c: VariableContext = { ...context, now: () => now };
  const secrets: string[] = [];
  const problems: VariableProblem[] = [];
  const model = isObject(value) && typeof value.model === 'string' ? resolveModel(value.model, c) : undefined;
  const resolve = (s: string): Resolved => {
    if (!s.includes('{{')) {
      return { sent: s, shown: s, secrets: [], problems: [] };
    }
    const r = resolveString(s, c, model);
    secrets.push(...r.secrets);
    problems.push(...r.problems);
    return r;
  };
  /** [sent, shown]: the same value when nothing secret went into it. */
  const walk = (v: unknown): [unknown, unknown] => {
    if (typeof v === 'string') {
      const r = resolve(v);
      return [r.sent, r.shown];
    }
    if (Array.isArray(v)) {
      const both = v.map(walk);
      const sent = both.map((b) => b[0]);
      return both.every((b) => b[0] === b[1]) ? [sent, sent] : [sent, both.map((b) => b[1])];
    }
    if (isObject(v)) {
      const sent: Record<string, unknown> = {};
      const shown: Record<string, unknown> = {};
      let same = true;
      for (const [k, x] of Object.entries(v)) {
        const key = resolve(k);
        const [s, w] = walk(x);
        sent[key.sent] = s;
        shown[key.shown] = w;
        same &&= key.sent === key.shown && s === w;
      }
      return [sent, same ? sent : shown];
    }
    return [v, v];
  };
  const [sent, shown] = walk(value);
  const json = JSON.stringify(sent);
  return {
    json,
    shownJson: shown === sent ? json : JSON.stringify(shown),
    value: sent,
    secrets: [...new Set(secrets)],
    problems: dedupe(problems),
  };
}

/**
 * The payload's `"model"` (as written) resolved for `{{model}}`, with the payload's own context (its
 * `{{$env}}` policy): undefined when it cannot be resolved (then `{{model}}` is the environment's variable
 * `model`, or a problem). Its own `{{model}}` is the environment's variable, never itself.
 */
export function resolveModel(written: string, context: VariableContext): Resolved | undefined {
  const r = resolveString(written, context, undefined);
  return r.problems.length ? undefined : r;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function dedupe(problems: VariableProblem[]): VariableProblem[] {
  const seen = new Set<string>();
  return problems.filter((p) => !seen.has(p.message) && (seen.add(p.message), true));
}

/** A reference where it is written in a document: offsets of the braces, in the raw text. */
export interface ReferenceAt extends Reference {
  offset: number;
  length: number;
}

/**
 * Every reference inside the JSON strings of `text` (comments and other tokens are not read), with its
 * offset. It reads the raw text between the quotes, so a reference written with JSON escapes inside its
 * braces is not found here (resolution, which reads the decoded strings, still sees it).
 */
export function referencesIn(text: string): ReferenceAt[] {
  const out: ReferenceAt[] = [];
  const scanner = createScanner(text, false);
  for (let kind = scanner.scan(); kind !== EOF; kind = scanner.scan()) {
    if (kind !== STRING_LITERAL) {
      continue;
    }
    const start = scanner.getTokenOffset() + 1;
    const raw = text.slice(start, scanner.getTokenOffset() + scanner.getTokenLength() - 1);
    for (const piece of splitTemplate(raw)) {
      if ('ref' in piece) {
        out.push({ ...piece.ref, offset: start + piece.at, length: piece.ref.text.length });
      }
    }
  }
  return out;
}

/** The `// @env NAME` line that pins a payload to an environment, among its leading comment lines. */
export function pinnedEnvironment(text: string): { name: string; line: number } | undefined {
  const lines = text.split('\n');
  for (let line = 0; line < lines.length; line++) {
    const l = lines[line].replace(/\r$/, '').replace(/^\uFEFF/, '');
    if (l.trim() === '') {
      continue;
    }
    if (!/^\s*\/\//.test(l)) {
      return undefined;
    }
    const m = /^\s*\/\/\s*@env\s+(.+?)\s*$/i.exec(l);
    if (m) {
      return { name: m[1], line };
    }
  }
  return undefined;
}

/**
 * `payload` pinned to the environment `name` by a `// @env NAME` line above it, or undefined for a name that
 * the line cannot hold as it is (a line break, or space at either end).
 */
export function pinToEnvironment(payload: string, name: string): string | undefined {
  if (name === '' || /[\r\n]/.test(name) || name.trim() !== name) {
    return undefined;
  }
  return `// @env ${name}\n${payload}`;
}

/** Whether the text of a string at `offset` ends inside an open `{{` (completion of variable names). */
export function openReferenceBefore(lineText: string, character: number): { start: number; typed: string } | undefined {
  const before = lineText.slice(0, character);
  const open = before.lastIndexOf('{{');
  if (open < 0 || before.indexOf('}}', open) >= 0 || (open > 0 && before[open - 1] === '\\')) {
    return undefined;
  }
  const typed = before.slice(open + 2);
  return /^[ \t]*\$?[A-Za-z0-9_.-]*$/.test(typed) ? { start: open + 2, typed } : undefined;
}
