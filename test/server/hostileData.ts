/**
 * What the hostile mode of the local service serves (text from the registry and the service is
 * data, never a command). Tests import these constants instead of copying the strings, so a client test
 * asserts on exactly what the server sent.
 *
 * Nothing here is dangerous to the machine: the command links name harmless workbench commands whose effect
 * a test can see (the Settings editor, Zen Mode, a new untitled editor), so a client that renders them as
 * trusted markdown, or runs them, is caught.
 */
import { CARD_MARKER } from './cards';
import type { Registry, RegistryModel } from './registry';

/** Harmless VS Code commands the hostile links point at; each has an effect a test can observe. */
export const HOSTILE_COMMANDS = Object.freeze({
  openSettings: 'workbench.action.openSettings',
  toggleZenMode: 'workbench.action.toggleZenMode',
  newUntitledFile: 'workbench.action.files.newUntitledFile',
});

/** The hostile strings, one per trick. Ids, families, versions, descriptions, errors and answers are made of these. */
export const HOSTILE = Object.freeze({
  /** A markdown command link: opens the Settings editor if rendered as trusted markdown and clicked. */
  commandLink: `[Open card](command:${HOSTILE_COMMANDS.openSettings})`,
  /** A command link with a visible effect: Zen Mode. */
  zenLink: `[Zen](command:${HOSTILE_COMMANDS.toggleZenMode})`,
  /** A command link with a visible effect: a new untitled editor. */
  newFileLink: `[Open file](command:${HOSTILE_COMMANDS.newUntitledFile})`,
  /** A bare command URI, no markdown (some renderers autolink it). */
  bareCommand: `command:${HOSTILE_COMMANDS.toggleZenMode}`,
  /** Codicon syntax: renders as an icon in labels and `supportThemeIcons` markdown. */
  icon: '$(alert) urgent',
  iconSpin: '$(sync~spin) loading',
  /** A newline followed by something that looks like a log line of our own. */
  forgedLogLine: 'x\n2026-01-01 [error] forged',
  /** A carriage return: a terminal or log viewer overwrites the start of the line. */
  carriageReturn: 'ok\r2026-01-01 [error] forged by CR',
  /** U+2028/U+2029: line breaks to JavaScript and many renderers, not to JSON. */
  lineSeparators: 'line\u2028separator\u2029paragraph',
  /** U+202E right-to-left override: shows as "invoiceexe.txt". */
  bidi: 'invoice\u202Etxt.exe',
  /** Zero-width space, non-joiner, joiner, word joiner and BOM: looks like "zerowidth". */
  zeroWidth: 'zero\u200B\u200C\u200D\u2060\uFEFFwidth',
  /** Quotes and a trailing backslash: breaks naive string building (JSON, shell, markdown code). */
  quotes: 'he said "hi"\\',
  /** HTML that runs script if ever rendered as HTML. */
  html: '<img src=x onerror=alert(1)>',
  script: '<script>alert(1)</script>',
  /** ANSI escape sequences (colour, clear screen) for anything that writes to a terminal. */
  ansi: '\u001b[31mred\u001b[0m\u001b[2J',
  /** Markdown emphasis and a heading: shows as formatting if rendered as markdown. */
  markdown: '**bold** _it_ `code`\n# heading',
  /** An https link a link checker accepts, which breaks out of a markdown link `[Open](…)` into a command link. */
  cardBreakout: `https://cards.example/a)[b](command:${HOSTILE_COMMANDS.toggleZenMode}`,
  /** A card link that is a command. */
  cardCommand: `command:${HOSTILE_COMMANDS.openSettings}`,
});

/**
 * A Model Card in Markdown made of the three inputs that got through the former card sanitizer (issue 27): a
 * reference definition inside a block quote, one inside a list item, and a backtick inside a link target that
 * hid raw HTML (a full-page style), a data: image and a vscode: link. The local service serves it as the card
 * of any model whose id is {@link CARD_BYPASS_ID} (`/cards/<id>.md`).
 */
export const CARD_BYPASS_ID = 'card-bypass';
export const CARD_BYPASS_MARKDOWN = [
  '# Card bypass',
  '',
  `[Settings][r] and [Remote][v].`,
  '',
  `> [r]: command:${HOSTILE_COMMANDS.openSettings}`,
  '',
  '- [v]: vscode://ms-vscode.remote-server/x',
  '',
  '[a](https://cards.example/`) <div class="raw-html" style="position:fixed;inset:0;background:red">cover</div> ' +
    `![x](data:image/svg+xml;base64,PHN2Zz4=) <img class="raw-html" src=x onerror=alert(1)> [z](vscode://ms-vscode.remote/x) \``,
  '',
].join('\n');

/** What a hostile card says besides its model's facts, beside the marker every card ends with. */
const HOSTILE_CARD_TAIL =
  // What a registry's author could write: a command link, raw HTML and a bidi override.
  `[Open settings](command:${HOSTILE_COMMANDS.openSettings}) <img src=x onerror=alert(1)> invoice\u202etxt.exe`;

/**
 * The Model Card hostile mode's `cards` piece serves for `model`: {@link CARD_BYPASS_MARKDOWN} for
 * {@link CARD_BYPASS_ID}, else a command link, raw HTML and a bidi override after the model's facts.
 */
export function hostileCard(model: { id: string; family?: string; version?: string }): string {
  if (model.id === CARD_BYPASS_ID) {
    return CARD_BYPASS_MARKDOWN;
  }
  return [
    `# ${model.id}`,
    '',
    `Family ${model.family ?? 'none'}, version ${model.version ?? 'none'}. ${CARD_MARKER}`,
    '',
    HOSTILE_CARD_TAIL,
    '',
  ].join('\n');
}

/** Every hostile string above, for "none of these is rendered/run/echoed" loops. */
export const HOSTILE_STRINGS: readonly string[] = Object.freeze(Object.values(HOSTILE));

/** Nesting depth of the deep entry's raw field `nested` (`[[[…"…"…]]]`, about 20 KB). */
export const HOSTILE_DEEP_DEPTH = 10_000;

/** Organization whose registry is hostile; its key is `server.keys[HOSTILE_ORG]` (or `server.hostile.key`). */
export const HOSTILE_ORG = 'hostile';
/** Organization whose model list never ends (`endlessList`); key `server.keys[ENDLESS_ORG]`. */
export const ENDLESS_ORG = 'endless';

/** The ids of the hostile organization's models. */
export const HOSTILE_IDS = Object.freeze({
  /** Perfectly normal models (https cards), always present: they must still show. Families `plain` (2) and `solo` (1). */
  normal: Object.freeze(['plain-1', 'plain-2', 'solo-1.5']),
  /** Id is a command link (Settings); has a normal card. Family is a command link (Zen), version `$(alert) urgent`. */
  commandLink: HOSTILE.commandLink,
  /** No card link; id is a command link (new untitled file): clicking it makes the client say "no card for <id>". */
  commandLinkNoCard: HOSTILE.newFileLink,
  icon: HOSTILE.icon,
  forgedLogLine: HOSTILE.forgedLogLine,
  carriageReturn: HOSTILE.carriageReturn,
  lineSeparators: HOSTILE.lineSeparators,
  bidi: HOSTILE.bidi,
  zeroWidth: HOSTILE.zeroWidth,
  quotes: HOSTILE.quotes,
  html: HOSTILE.html,
  ansi: HOSTILE.ansi,
  markdown: HOSTILE.markdown,
  /** `model_card_url` is `command:workbench.action.openSettings`. */
  cardCommand: 'card-command',
  /** `model_card_url` is HOSTILE.cardBreakout (valid https, breaks out of a markdown link). */
  cardBreakout: 'card-breakout',
  /** Version and description of 10,000 characters. */
  longText: 'long-text',
  /** Same family `collide`: `x` twice (versions 1 and 2), then `x\u00001` — what a client that suffixes duplicates with NUL+n would make of the second `x`. */
  collisions: Object.freeze(['x', 'x', 'x\u00001']),
  /** Family `sep`: ids differing only in a separator a client might join with. */
  separators: Object.freeze(['a/b', 'a:b', 'a\u0000b', 'a|b', 'a b', 'a\tb', 'a\u001fb', 'a.b', 'a#b', 'a%2Fb']),
  /** Family + NUL + id is the same string for both: `p` + `q\u0000r` and `p\u0000q` + `r`. */
  familyBoundary: Object.freeze([
    Object.freeze({ family: 'p', id: 'q\u0000r' }),
    Object.freeze({ family: 'p\u0000q', id: 'r' }),
  ]),
  /**
   * Family `vars`: ids that are `{{…}}` references — `$env` of a name no payload may read unasked, one of the
   * `MODEL_ACCESS_*` names every payload may read, an environment's variable, and a 230-character id whose
   * reference comes after where a list clips it. Written into a payload, each must be sent as listed.
   */
  variables: Object.freeze([
    '{{$env HOSTILE_ENV_CANARY}}',
    'v-{{ $env MODEL_ACCESS_HOSTILE_CANARY }}',
    'v-{{region}}',
    `v-${'x'.repeat(200)}-{{$env HOSTILE_ENV_CANARY}}`,
  ]),
  /** Family `vars`, deprecated and retiring: its `replacement` is `variables[0]` (the successor quick fix). */
  variablesRetiring: 'vars-old',
  /** (piece `deepEntry`) Its raw field `nested` is HOSTILE_DEEP_DEPTH arrays deep. */
  deep: 'deep-10000',
  /** (piece `errors`) Listed, but `GET /v1/models/{id}` and POSTs with it answer 404 / 500 with a hostile message. */
  inspect404: 'inspect-404',
  inspect500: 'inspect-500',
  /** (piece `endlessStream`) POST /v1/chat or /v1/responses with this model never ends (stream or not). */
  endless: 'endless',
});

/** A JSON value inserted verbatim into an answer by the server (see `encodeJson`); used for nesting JSON.stringify cannot write. */
export class RawJson {
  constructor(readonly text: string) {}
}

const RAW_MARK = '\u0000raw-json:';
const RAW_MARK_PATTERN = /"\\u0000raw-json:(\d+)\\u0000"/g;

/** JSON.stringify, except that RawJson values are written as their text. */
export function encodeJson(value: unknown): string {
  const raws: string[] = [];
  const text = JSON.stringify(value, (_key, v: unknown) =>
    v instanceof RawJson ? `${RAW_MARK}${raws.push(v.text) - 1}\u0000` : v,
  );
  return raws.length === 0 ? text : text.replace(RAW_MARK_PATTERN, (whole, i: string) => raws[Number(i)] ?? whole);
}

/** `[[[…"<inner>"…]]]`, `depth` arrays deep, written by hand (V8's JSON.stringify overflows its stack near 6,000). */
export function deeplyNested(depth: number, inner: string): RawJson {
  return new RawJson(`${'['.repeat(depth)}${JSON.stringify(inner)}${']'.repeat(depth)}`);
}

/** A JSON string body (no quotes) with every UTF-16 unit written as `\uXXXX`. */
export function jsonEscapeAll(s: string): string {
  let out = '';
  for (let i = 0; i < s.length; i++) {
    out += `\\u${s.charCodeAt(i).toString(16).padStart(4, '0')}`;
  }
  return out;
}

/**
 * A JSON string body (no quotes) escaped the way other encoders do and JSON.stringify does not: `/` as `\/`
 * (PHP), `+ < > & '` as `\u002b` … (.NET, Go). Still valid JSON that parses back to `s`.
 */
export function jsonEscapeLikeOthers(s: string): string {
  return JSON.stringify(s)
    .slice(1, -1)
    .replace(/[/+<>&']/g, (c) => (c === '/' ? '\\/' : `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`));
}

/** The pieces of hostile mode that add models to the hostile organization. */
export interface HostileModelPieces {
  models: boolean;
  deepEntry: boolean;
  errors: boolean;
  endlessStream: boolean;
  endlessList: boolean;
}

const CARDS = 'https://cards.example/hostile';

function model(
  id: string,
  family: string,
  version: string,
  card: string,
  extra?: Record<string, unknown>,
): RegistryModel {
  return {
    id,
    family,
    version,
    organization: HOSTILE_ORG,
    model_card_url: card,
    created: 1767225600,
    ...(extra ? { extra } : {}),
  };
}

/** The hostile organization's models, in list order (duplicates first, so a page boundary never splits them). */
export function hostileModels(pieces: HostileModelPieces): RegistryModel[] {
  const out: RegistryModel[] = [];
  if (pieces.models) {
    const [x1, x2, x3] = HOSTILE_IDS.collisions;
    out.push(
      model(x1, 'collide', '1', `${CARDS}/x-1`),
      model(x2, 'collide', '2', `${CARDS}/x-2`),
      model(x3, 'collide', '1', `${CARDS}/x-nul-1`),
    );
  }
  const [n1, n2, n3] = HOSTILE_IDS.normal;
  out.push(
    model(n1, 'plain', '1', `${CARDS}/${n1}`),
    model(n2, 'plain', '2', `${CARDS}/${n2}`),
    model(n3, 'solo', '1.5', `${CARDS}/${n3}`),
  );
  if (pieces.models) {
    const description = [
      HOSTILE.commandLink,
      HOSTILE.zenLink,
      HOSTILE.icon,
      HOSTILE.forgedLogLine,
      HOSTILE.bidi,
      HOSTILE.html,
      HOSTILE.quotes,
    ].join(' ');
    const text = (extra: Record<string, unknown> = {}): Record<string, unknown> => ({
      description,
      display_name: `${HOSTILE.newFileLink} ${HOSTILE.icon}`,
      tags: [HOSTILE.zenLink, HOSTILE.ansi, HOSTILE.zeroWidth],
      // A price in a unit that is not tokens and a currency that is a link: shown as given, never a link or a cost.
      pricing: { input: 1, output: '2', unit: `per ${HOSTILE.commandLink}`, currency: HOSTILE.zenLink },
      ...extra,
    });
    out.push(
      model(HOSTILE_IDS.commandLink, HOSTILE.zenLink, HOSTILE.icon, `${CARDS}/command-link`, text()),
      // No model_card_url at all: the click has no card to open.
      model(HOSTILE_IDS.commandLinkNoCard, HOSTILE.zenLink, '1', '', text()),
      model(HOSTILE_IDS.icon, HOSTILE.icon, HOSTILE.iconSpin, `${CARDS}/icon`, text()),
      model(HOSTILE_IDS.forgedLogLine, HOSTILE.forgedLogLine, HOSTILE.carriageReturn, `${CARDS}/newline`, text()),
      model(HOSTILE_IDS.carriageReturn, HOSTILE.icon, HOSTILE.forgedLogLine, `${CARDS}/carriage-return`, text()),
      model(
        HOSTILE_IDS.lineSeparators,
        HOSTILE.forgedLogLine,
        HOSTILE.lineSeparators,
        `${CARDS}/line-separators`,
        text(),
      ),
      model(HOSTILE_IDS.bidi, HOSTILE.bidi, HOSTILE.zeroWidth, `${CARDS}/bidi`, text()),
      model(HOSTILE_IDS.zeroWidth, HOSTILE.bidi, HOSTILE.bidi, `${CARDS}/zero-width`, text()),
      model(HOSTILE_IDS.quotes, HOSTILE.quotes, HOSTILE.quotes, `${CARDS}/quotes`, text()),
      model(HOSTILE_IDS.html, HOSTILE.html, HOSTILE.script, `${CARDS}/html`, text()),
      model(HOSTILE_IDS.ansi, HOSTILE.html, HOSTILE.ansi, `${CARDS}/ansi`, text()),
      model(HOSTILE_IDS.markdown, HOSTILE.markdown, HOSTILE.markdown, `${CARDS}/markdown`, text()),
      model(HOSTILE_IDS.cardCommand, 'cards', '1', HOSTILE.cardCommand, text()),
      model(HOSTILE_IDS.cardBreakout, 'cards', '2', HOSTILE.cardBreakout, text()),
      model(
        HOSTILE_IDS.longText,
        'long',
        'v'.repeat(10_000),
        `${CARDS}/long-text`,
        // Prices that lie: negative, absurd, a string that is not a number, a cached price in a tier.
        text({
          description: `${description} ${'d'.repeat(10_000)}`,
          pricing: { prompt: '-1', completion: 'lots', input_cache_read: 'NaN' },
          input_cost_per_token: -0.5,
          output_cost_per_token: 1e308,
          prices: [{ meterName: HOSTILE.html, retailPrice: '9'.repeat(400), unitOfMeasure: HOSTILE.ansi }],
        }),
      ),
      ...HOSTILE_IDS.separators.map((id, i) => model(id, 'sep', String(i + 1), `${CARDS}/sep-${i + 1}`)),
      ...HOSTILE_IDS.familyBoundary.map((m, i) => model(m.id, m.family, '1', `${CARDS}/boundary-${i + 1}`)),
      ...HOSTILE_IDS.variables.map((id, i) => model(id, 'vars', String(i + 1), `${CARDS}/vars-${i + 1}`)),
      model(HOSTILE_IDS.variablesRetiring, 'vars', '0', `${CARDS}/vars-old`, {
        lifecycle_status: 'deprecated',
        deprecation_date: '2026-01-31',
        retirement_date: '2026-12-31',
        replacement: HOSTILE_IDS.variables[0],
      }),
    );
  }
  if (pieces.deepEntry) {
    out.push(
      model(HOSTILE_IDS.deep, 'deep', '1', `${CARDS}/deep`, {
        nested: deeplyNested(HOSTILE_DEEP_DEPTH, HOSTILE.commandLink),
      }),
    );
  }
  if (pieces.errors) {
    out.push(
      model(HOSTILE_IDS.inspect404, 'errors', '1', `${CARDS}/inspect-404`),
      model(HOSTILE_IDS.inspect500, 'errors', '2', `${CARDS}/inspect-500`),
    );
  }
  if (pieces.endlessStream) {
    out.push(model(HOSTILE_IDS.endless, 'endless', '1', `${CARDS}/endless`));
  }
  return out;
}

/** `base` plus the hostile organization (and the endless one when `endlessList`), after the others. */
export function withHostileModels(base: Registry, pieces: HostileModelPieces): Registry {
  const organizations = base.organizations.filter((o) => o !== HOSTILE_ORG && o !== ENDLESS_ORG);
  organizations.push(HOSTILE_ORG);
  if (pieces.endlessList) {
    organizations.push(ENDLESS_ORG);
  }
  const models = base.models.filter((m) => m.organization !== HOSTILE_ORG && m.organization !== ENDLESS_ORG);
  return { organizations, models: [...models, ...hostileModels(pieces)] };
}
