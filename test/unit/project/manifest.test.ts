// The ids in src/ids.ts and the contributions in package.json must match both ways.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as nodePath from 'node:path';
import { Commands, ContextKeys, ItemContext, ModelClickActions, Settings, Views } from '../../../src/ids';
import { readManifest, REPO_ROOT } from '../../harness/manifest';
import { PAYLOAD_LANGUAGE } from '../../../src/domain/payload/kind';

interface Setting {
  type?: string | string[];
  format?: string;
  default?: unknown;
  scope?: string;
  enum?: string[];
  description?: string;
  markdownDescription?: string;
}

interface Manifest {
  activationEvents?: string[];
  capabilities?: {
    untrustedWorkspaces?: { supported: boolean | 'limited'; description?: string; restrictedConfigurations?: string[] };
    virtualWorkspaces?: boolean | { supported: boolean | 'limited'; description?: string };
  };
  contributes: {
    commands?: { command: string; title: string; category?: string; icon?: string }[];
    viewsContainers?: { activitybar?: { id: string }[] };
    views?: Record<string, { id: string }[]>;
    viewsWelcome?: { view: string; when?: string; contents: string }[];
    menus?: Record<string, { command: string; when?: string; group?: string }[]>;
    configuration?: { properties: Record<string, Setting> };
    keybindings?: { command: string; key: string; when?: string }[];
    walkthroughs?: { steps: { completionEvents?: string[] }[] }[];
  };
}

const manifest = readManifest() as Manifest;
const contributedCommands = new Set((manifest.contributes.commands ?? []).map((c) => c.command));

function whenClauses(): string[] {
  const out: string[] = [];
  for (const items of Object.values(manifest.contributes.menus ?? {})) {
    out.push(...items.map((i) => i.when ?? ''));
  }
  out.push(...(manifest.contributes.viewsWelcome ?? []).map((w) => w.when ?? ''));
  // A walkthrough step's `onContext:` completion event is a when clause too.
  for (const walkthrough of manifest.contributes.walkthroughs ?? []) {
    for (const step of walkthrough.steps) {
      out.push(...(step.completionEvents ?? []).filter((e) => e.startsWith('onContext:')).map((e) => e.slice(10)));
    }
  }
  return out;
}

/** VS Code's reading of a `filenamePatterns` glob with a `/` (matched against the whole path): `**`/ and `*`. */
function globMatches(glob: string, path: string): boolean {
  const source = glob
    .split('**/')
    .map((part) => part.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*'))
    .join('(?:.*/)?');
  return new RegExp(`^(?:.*/)?${source}$`).test(path);
}

describe('ids match package.json', () => {
  it('every command id is contributed, with the "Model Access" category', () => {
    for (const id of Object.values(Commands)) {
      assert.ok(contributedCommands.has(id), `${id} is not in contributes.commands`);
    }
    for (const c of manifest.contributes.commands ?? []) {
      assert.equal(c.category, 'Model Access', `${c.command} has no "Model Access" category`);
    }
  });

  it('every contributed command is in ids.ts, and every ids.ts command is contributed: the same set both ways', () => {
    const known = new Set<string>(Object.values(Commands));
    const contributed = (manifest.contributes.commands ?? []).map((c) => c.command);
    for (const id of contributed) {
      assert.match(id, /^modelAccess\.[a-z][A-Za-z]+$/, `${id} does not look like modelAccess.verbNoun`);
    }
    assert.deepEqual(
      contributed.filter((id) => !known.has(id)),
      [],
      'contributed in package.json but missing from Commands in src/ids.ts',
    );
    assert.deepEqual(
      [...known].filter((id) => !contributedCommands.has(id)),
      [],
      'in Commands (src/ids.ts) but not contributed in package.json',
    );
    assert.equal(contributed.length, new Set(contributed).size, 'a command is contributed twice');
  });

  it('modelAccess.allowInsecureHttp is application-scoped: VS Code takes it from user settings only', () => {
    const props = manifest.contributes.configuration?.properties ?? {};
    const setting = props[`${Settings.section}.${Settings.allowInsecureHttp}`] as { scope?: string };
    assert.equal(setting.scope, 'application');
  });

  it('menus and viewsWelcome refer only to contributed commands', () => {
    for (const [menu, items] of Object.entries(manifest.contributes.menus ?? {})) {
      for (const item of items) {
        assert.ok(contributedCommands.has(item.command), `${menu} refers to unknown ${item.command}`);
      }
    }
    for (const w of manifest.contributes.viewsWelcome ?? []) {
      for (const [, id] of w.contents.matchAll(/\(command:([\w.]+)/g)) {
        assert.ok(contributedCommands.has(id), `viewsWelcome refers to unknown ${id}`);
      }
    }
  });

  it('the Models view title shows at most three actions inline; the rest are in its overflow menu', () => {
    // At 190–225 px sidebar widths every inline icon takes room from the title ("M.." instead of "Models").
    const inline = (manifest.contributes.menus?.['view/title'] ?? []).filter(
      (m) => m.when?.split(/\s*&&\s*/).includes(`view == ${Views.models}`) && m.group?.startsWith('navigation'),
    );
    assert.deepEqual(
      inline.map((m) => m.command),
      [Commands.showRegistryChanges, Commands.refreshModels, Commands.filterModels, Commands.switchEnvironment],
    );
    // The first place is Show Registry Changes when the registry changed, else Switch Environment: never both.
    const changes = inline.find((m) => m.command === Commands.showRegistryChanges);
    const switcher = inline.find((m) => m.command === Commands.switchEnvironment);
    assert.match(changes?.when ?? '', new RegExp(`(^| )${ContextKeys.registryChanged.replace('.', '\\.')}\\b`));
    assert.match(switcher?.when ?? '', new RegExp(`!${ContextKeys.registryChanged.replace('.', '\\.')}\\b`));
    assert.equal(changes?.group, 'navigation@0');
    assert.equal(switcher?.group, 'navigation@0');
  });

  it('the item click command is hidden from the palette', () => {
    const palette = manifest.contributes.menus?.commandPalette ?? [];
    assert.equal(palette.find((p) => p.command === Commands.modelClicked)?.when, 'false');
  });

  it('views and the container exist', () => {
    assert.ok(manifest.contributes.viewsContainers?.activitybar?.some((c) => c.id === Views.container));
    assert.ok(manifest.contributes.views?.[Views.container]?.some((v) => v.id === Views.models));
  });

  it('every setting in ids.ts is contributed, and every modelAccess.* setting is known', () => {
    const props = manifest.contributes.configuration?.properties ?? {};
    for (const [name, key] of Object.entries(Settings)) {
      if (name !== 'section') {
        assert.ok(props[`${Settings.section}.${key}`], `${Settings.section}.${key} is not contributed`);
      }
    }
    assert.deepEqual(props[`${Settings.section}.${Settings.modelClickAction}`].enum, [...ModelClickActions]);
  });

  it('context keys used in when clauses are the ones in ids.ts', () => {
    const known = new Set<string>(Object.values(ContextKeys));
    for (const when of whenClauses()) {
      for (const [key] of when.matchAll(/modelAccess(?:\.[A-Za-z]+)+/g)) {
        if (!known.has(key)) {
          // Command or view ids may appear (e.g. `view == modelAccess.models`).
          assert.ok(
            (Object.values(Views) as string[]).includes(key) || contributedCommands.has(key),
            `unknown context key ${key} in "${when}"`,
          );
        }
      }
    }
    for (const key of Object.values(ContextKeys)) {
      assert.ok(
        whenClauses().some((w) => w.includes(key)),
        `context key ${key} is never used in package.json`,
      );
    }
  });

  it('item context values used in menus exist', () => {
    const values: string[] = Object.values(ItemContext);
    for (const when of whenClauses()) {
      for (const [, v] of when.matchAll(/viewItem == (\w+)/g)) {
        assert.ok(values.includes(v), `viewItem ${v} is not in ItemContext`);
      }
      for (const [, re] of when.matchAll(/viewItem =~ \/(.+?)\//g)) {
        assert.ok(
          values.some((v) => new RegExp(re).test(v)),
          `viewItem pattern /${re}/ matches no ItemContext`,
        );
      }
    }
  });
});

describe('payload features stay on payloads (package.json)', () => {
  const payloadOnly = 'resourcePath in modelAccess.payloads';
  const payloadCommands = [
    Commands.sendRequest,
    Commands.sendToResponses,
    Commands.sendToChat,
    Commands.sendToEmbeddings,
    Commands.changeEndpoint,
  ];

  it('Send, Send to…, Change endpoint show in the palette only for payloads', () => {
    const palette = manifest.contributes.menus?.commandPalette ?? [];
    for (const id of payloadCommands) {
      assert.equal(palette.find((p) => p.command === id)?.when, payloadOnly, `${id} in the palette`);
    }
    assert.ok(payloadOnly.includes(ContextKeys.payloads));
  });

  it('the Send button and the Send keybinding are there only for payloads', () => {
    for (const [menu, items] of Object.entries(manifest.contributes.menus ?? {})) {
      for (const item of items.filter(
        (i) => payloadCommands.includes(i.command as (typeof payloadCommands)[number]) && menu !== 'commandPalette',
      )) {
        assert.equal(item.when, payloadOnly, `${item.command} in ${menu}`);
      }
    }
    const bindings = (manifest.contributes.keybindings ?? []).filter((k) =>
      payloadCommands.includes(k.command as (typeof payloadCommands)[number]),
    );
    assert.ok(bindings.length > 0);
    for (const k of bindings) {
      assert.equal(k.when, `editorTextFocus && ${payloadOnly}`, `${k.command} on ${k.key}`);
    }
  });

  it('Reply has a key in payloads and their answers, and no two keybindings share a key', () => {
    const bindings = manifest.contributes.keybindings ?? [];
    const reply = bindings.find((k) => k.command === Commands.reply);
    assert.equal(reply?.key, 'ctrl+alt+r');
    assert.match(
      reply?.when ?? '',
      /^editorTextFocus && \(resourcePath in modelAccess\.payloads \|\| resourceScheme == model-access-response\)$/,
    );
    const keys = bindings.map((k) => k.key);
    assert.equal(new Set(keys).size, keys.length, keys.join(', '));
  });

  it('Copy as Code is in the editor menus of payloads only, and on model rows', () => {
    const menus = manifest.contributes.menus ?? {};
    for (const menu of ['editor/context', 'editor/title/context']) {
      const item = (menus[menu] ?? []).find((i) => i.command === Commands.copyAsCode);
      assert.equal(item?.when, payloadOnly, `${Commands.copyAsCode} in ${menu}`);
    }
    const row = (menus['view/item/context'] ?? []).find((i) => i.command === Commands.copyAsCode);
    assert.match(row?.when ?? '', /viewItem =~ \/\^model\//);
  });

  it('scratch payloads open in the payload language: JSON features, word wrap on', () => {
    const m = manifest as unknown as {
      contributes: {
        languages: { id: string; filenamePatterns?: string[] }[];
        jsonLanguageParticipants: { languageId: string; comments?: boolean }[];
        jsonValidation: { fileMatch: string[]; url: string }[];
        configurationDefaults: Record<string, Record<string, unknown>>;
      };
    };
    const language = m.contributes.languages.find((l) => l.id === PAYLOAD_LANGUAGE);
    // Where VS Code keeps the extension's global storage (desktop; code-server's is ~/.local/share/code-server/User).
    const scratchFile = '/home/u/.config/Code/User/globalStorage/model-access-team.model-access/scratch/chat-1.jsonc';
    assert.ok(
      language?.filenamePatterns?.some((p) => globMatches(p, scratchFile)),
      `${language?.filenamePatterns?.join(', ')} match ${scratchFile}`,
    );
    assert.ok(!language?.filenamePatterns?.some((p) => globMatches(p, '/home/u/project/scratch/a.jsonc')));
    assert.equal(
      `${(manifest as unknown as { publisher: string }).publisher}.${(manifest as unknown as { name: string }).name}`,
      'model-access-team.model-access',
      'the storage folder',
    );
    assert.deepEqual(m.contributes.jsonLanguageParticipants, [{ languageId: PAYLOAD_LANGUAGE, comments: true }]);
    // The JSON server ignores the participant's `comments` (VS Code 1.139): it reports the `// POST` line as an
    // error unless the document's schema allows comments. The schema matches the scratch files, nothing else.
    const schema = m.contributes.jsonValidation.find((v) => v.fileMatch.some((p) => globMatches(p, scratchFile)));
    assert.ok(schema, 'a schema for the scratch payloads');
    assert.ok(!schema.fileMatch.some((p) => globMatches(p, '/home/u/project/scratch/a.jsonc')));
    const body = JSON.parse(fs.readFileSync(nodePath.join(REPO_ROOT, schema.url), 'utf8')) as Record<string, unknown>;
    assert.equal(body.allowComments, true);
    assert.equal(m.contributes.configurationDefaults[`[${PAYLOAD_LANGUAGE}]`]['editor.wordWrap'], 'on');
    assert.ok(manifest.activationEvents?.includes(`onLanguage:${PAYLOAD_LANGUAGE}`));
  });

  it('a payload opened (or restored) in a JSON editor activates the extension, and nothing wider does', () => {
    assert.ok(manifest.activationEvents?.includes('onLanguage:jsonc'), 'scratch payloads are .jsonc');
    assert.ok(manifest.activationEvents?.includes('onLanguage:json'), 'a .json file with a // POST line');
    // The view, the commands, the chat provider and the walkthrough activate it through their contributions;
    // a workspace that merely holds JSON files (workspaceContains) must not. A conversation panel open at the
    // last reload activates it to come back (its serializer). Startup, once it has finished, does: the model
    // references' problems are for files never opened, so their index is built in the background then (its
    // code loads after activation, and activation makes no request).
    assert.deepEqual([...(manifest.activationEvents ?? [])].sort(), [
      'onLanguage:json',
      'onLanguage:jsonc',
      `onLanguage:${PAYLOAD_LANGUAGE}`,
      'onStartupFinished',
      'onWebviewPanel:modelAccess.conversation',
    ]);
  });
});

describe('Restricted Mode and virtual workspaces (package.json)', () => {
  const settings = manifest.contributes.configuration?.properties ?? {};
  const untrusted = manifest.capabilities?.untrustedWorkspaces;
  const restricted = new Set(untrusted?.restrictedConfigurations ?? []);

  /**
   * Settings a workspace may set in Restricted Mode, each with why that is harmless. Anything not listed must
   * be restricted: a new setting fails this test until someone decides.
   */
  const SAFE_FROM_A_WORKSPACE: Record<string, string> = {
    'modelAccess.groupByFamily': 'how the Models view is drawn',
    'modelAccess.modelsView.showAllEnvironments':
      'which configured environments the view and chat list; each keeps its own URL, key and consent',
    'modelAccess.modelClickAction': 'what a click does; card links are checked whatever the setting',
    'modelAccess.references.include': 'which workspace files are read for model ids; nothing is sent',
    'modelAccess.references.exclude': 'which workspace files are not read for model ids; nothing is sent',
    'modelAccess.references.warnDays': 'how early a retiring model in the code becomes an error',
    'modelAccess.requestTimeoutSeconds': 'how long to wait; not where requests go or what they carry',
    'modelAccess.responseInNewTab': 'where answers are shown',
    'modelAccess.answers.openAs': 'whether an answer is drawn rendered or as its Markdown source',
    'modelAccess.rememberModelList': 'whether the last list is kept on this machine; not where requests go',
    'modelAccess.checks.concurrency':
      'how many check requests run at once, only when the person runs checks; not where they go or what they carry',
    'modelAccess.checks.maxRows': 'how many dataset rows a check run takes; not where requests go',
    'modelAccess.checks.graders':
      'which models of the same service grade answers, only when the person runs checks; not where requests go',
    'modelAccess.conversation.previousResponseId':
      'whether Reply writes the earlier turns or a response id into the payload; the payload goes where it went',
    'modelAccess.conversation.maxAttachmentMegabytes': 'how large a file Attach File may write into a payload',
    'modelAccess.prices': 'the prices costs are computed with: shown and checked on this machine, never sent anywhere',
  };

  /** What makes a setting able to redirect the key or requests, whatever the list above says. */
  function looksRedirecting(name: string, s: Setting): string | undefined {
    const short = name.replace(/^modelAccess\./, '');
    if (
      /url|uri|host|origin|endpoint|proxy|server|address|redirect|apikey|secret|header|template|cert|tls|ssl/i.test(
        short,
      )
    ) {
      return `its name (${short})`;
    }
    if (s.format === 'uri' || s.format === 'uri-reference') {
      return `format ${s.format}`;
    }
    if (typeof s.default === 'string' && /^[a-z][a-z0-9+.-]*:\/\//i.test(s.default)) {
      return 'a URL default';
    }
    const text = `${s.markdownDescription ?? ''} ${s.description ?? ''}`;
    if (/\bURL\b|https?:\/\/|\bproxy\b|\bcertificate\b|\bAPI key\b/i.test(text)) {
      return 'its description (URL, proxy, certificate or API key)';
    }
    return undefined;
  }

  it('declares limited support for untrusted workspaces, and virtual workspaces', () => {
    assert.equal(untrusted?.supported, 'limited');
    assert.ok(untrusted?.description);
    const virtual = manifest.capabilities?.virtualWorkspaces;
    assert.ok(virtual !== undefined && virtual !== false, 'virtualWorkspaces is declared');
  });

  it('every setting that could redirect the key or requests is restricted (a new one fails until it is classified)', () => {
    const problems: string[] = [];
    for (const [name, s] of Object.entries(settings)) {
      const why = looksRedirecting(name, s);
      if (why && !restricted.has(name)) {
        problems.push(
          `${name} looks like it redirects the key or requests (${why}) but is not in capabilities.untrustedWorkspaces.restrictedConfigurations`,
        );
      } else if (!restricted.has(name) && !(name in SAFE_FROM_A_WORKSPACE)) {
        problems.push(`${name} is neither restricted nor listed as safe from a workspace in this test: decide which`);
      }
    }
    assert.deepEqual(problems, []);
    for (const name of [
      'modelAccess.baseUrl',
      'modelAccess.requestTemplates',
      'modelAccess.chat.models',
      'modelAccess.chat.enabled',
      'modelAccess.limits.maxResponseMegabytes',
    ]) {
      assert.ok(restricted.has(name), `${name} is restricted`);
    }
  });

  it('the restricted list names only contributed settings, and the safe list only unrestricted ones', () => {
    for (const name of restricted) {
      assert.ok(settings[name], `${name} is restricted but not contributed`);
    }
    for (const name of Object.keys(SAFE_FROM_A_WORKSPACE)) {
      assert.ok(settings[name], `${name} is listed as safe but not contributed`);
      assert.ok(!restricted.has(name), `${name} is both restricted and listed as safe`);
    }
  });
});
