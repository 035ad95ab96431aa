// The walkthrough in package.json: ids known to src/ids.ts, buttons that run our own commands, steps completed
// by real commands, views and context keys, and pictures that ship in the VSIX and follow the color theme.
import * as assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { Commands, ContextKeys, Views, Walkthrough } from '../../../src/ids';
import { readManifest } from '../../harness/manifest';

const ROOT = path.join(__dirname, '..', '..', '..');

interface Step {
  id: string;
  title: string;
  description: string;
  media: { svg?: string; image?: string; markdown?: string; altText?: string };
  completionEvents?: string[];
}
interface Manifest {
  contributes: {
    commands: { command: string }[];
    views: Record<string, { id: string }[]>;
    walkthroughs: { id: string; title: string; description: string; steps: Step[] }[];
  };
}

const manifest = readManifest(ROOT) as Manifest;
const walkthroughs = manifest.contributes.walkthroughs ?? [];
const walkthrough = walkthroughs[0];
const commands = new Set(manifest.contributes.commands.map((c) => c.command));
const views = Object.values(manifest.contributes.views)
  .flat()
  .map((v) => v.id);
/** Commands a step may link to: ours, and the `<view>.focus` command VS Code creates for each of our views. */
const linkable = new Set([...commands, ...views.map((v) => `${v}.focus`)]);

describe('walkthrough', () => {
  it('is the one in src/ids.ts, with its steps in order', () => {
    assert.equal(walkthroughs.length, 1);
    assert.equal(walkthrough.id, Walkthrough.id);
    assert.deepEqual(
      walkthrough.steps.map((s) => s.id),
      [...Walkthrough.steps],
    );
    assert.ok(commands.has(Commands.openWalkthrough), 'the command that reopens it is contributed');
  });

  it('step buttons run only our own commands', () => {
    for (const step of walkthrough.steps) {
      for (const [, target] of step.description.matchAll(/\]\(([^)]+)\)/g)) {
        const command = /^command:([\w.]+)/.exec(target)?.[1];
        assert.ok(command, `${step.id} links to ${target}, not a command`);
        assert.ok(linkable.has(command), `${step.id} runs ${command}, which is not ours`);
      }
    }
  });

  it('descriptions use only what a walkthrough renders (links and bold; `code` shows its backticks)', () => {
    for (const step of [walkthrough, ...walkthrough.steps]) {
      assert.ok(!step.description.includes('`'), `${'id' in step ? step.id : ''}: backticks are shown literally`);
    }
  });

  it('every step is completed by a command, a view or a context key of ours (not by a click on its button)', () => {
    const contextKeys = new Set<string>(Object.values(ContextKeys));
    for (const step of walkthrough.steps) {
      const events = step.completionEvents ?? [];
      assert.ok(events.length > 0, `${step.id} has no completionEvents (VS Code would tick it on any click)`);
      for (const event of events) {
        const [, kind, arg] = /^(\w+):(.*)$/.exec(event) ?? [];
        if (kind === 'onCommand') {
          assert.ok(
            commands.has(arg) || arg.startsWith('workbench.action.chat.'),
            `${step.id}: unknown command ${arg}`,
          );
        } else if (kind === 'onView') {
          assert.ok(views.includes(arg), `${step.id}: unknown view ${arg}`);
        } else if (kind === 'onContext') {
          for (const [key] of arg.matchAll(/modelAccess(?:\.[A-Za-z]+)+/g)) {
            assert.ok(contextKeys.has(key), `${step.id}: unknown context key ${key}`);
          }
        } else {
          assert.fail(`${step.id}: unexpected completion event ${event}`);
        }
      }
    }
    const events = (id: string) => walkthrough.steps.find((s) => s.id === id)?.completionEvents ?? [];
    // The goals, reached by any path (platform/firstSteps.ts), not the commands that happen to reach them.
    assert.deepEqual(events('setServiceUrl'), [`onContext:${ContextKeys.walkthroughConnected}`]);
    assert.deepEqual(events('setApiKey'), [`onContext:${ContextKeys.walkthroughKeySet}`]);
    assert.deepEqual(events('browseModels'), [`onView:${Views.models}`, `onContext:${ContextKeys.walkthroughBrowsed}`]);
    assert.deepEqual(events('openModelCard'), [`onContext:${ContextKeys.walkthroughCardOpened}`]);
  });

  it('pictures are theme-aware SVGs under media/walkthrough/, shipped in the VSIX, with alt text', () => {
    const vscodeignore = readFileSync(path.join(ROOT, '.vscodeignore'), 'utf8').split('\n');
    assert.ok(
      vscodeignore.includes('!media/walkthrough/*.svg'),
      '.vscodeignore keeps media/walkthrough/*.svg in the VSIX',
    );
    for (const step of walkthrough.steps) {
      const file = step.media.svg;
      assert.ok(
        file && /^media\/walkthrough\/[\w-]+\.svg$/.test(file),
        `${step.id}: media.svg under media/walkthrough/`,
      );
      assert.ok(step.media.altText && step.media.altText.length > 20, `${step.id}: altText`);
      const svg = readFileSync(path.join(ROOT, file), 'utf8');
      // The picture is inlined into a webview whose CSP allows no <style> or script; colors come from the
      // theme's CSS variables (with a fallback), so a light or high-contrast theme recolors it.
      assert.ok(!/<style|<script|<image|href="http/i.test(svg), `${file}: no <style>, <script> or external images`);
      for (const [, attr, value] of svg.matchAll(/\b(fill|stroke|flood-color|stop-color)="([^"]+)"/g)) {
        assert.ok(
          value === 'none' || value.startsWith('var(--vscode-') || value.startsWith('url(#'),
          `${file}: ${attr}="${value}" ignores the theme`,
        );
      }
      assert.ok(svg.length < 12_000, `${file} is ${svg.length} bytes; keep the VSIX small`);
    }
    for (const file of new Set(walkthrough.steps.map((s) => s.media.svg as string))) {
      assert.ok(existsSync(path.join(ROOT, file)), `${file} exists`);
    }
  });
});
