/**
 * The accessibility check of a webview page: axe-core (the devDependency) injected into the page's frame and
 * run there. A check fails on any violation of serious or critical impact and on any landmark rule (a page
 * without `main`, content outside a landmark, duplicated landmarks), whatever its impact. Every webview page
 * of the extension runs through it (Model Details, Compare, and pages added later) in a light, a dark and a
 * High Contrast theme: `47-accessibility.e2e.ts`; the embeddings picture in `36-answers.e2e.ts`.
 */
import fs from 'node:fs';
import type { Frame } from 'playwright-core';

const AXE_SOURCE = fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

/** The rules about landmarks and headings: any violation of one fails, whatever axe says its impact is. */
export const LANDMARK_RULES: readonly string[] = [
  'landmark-one-main',
  'landmark-no-duplicate-main',
  'landmark-main-is-top-level',
  'landmark-unique',
  'landmark-no-duplicate-banner',
  'landmark-no-duplicate-contentinfo',
  'landmark-banner-is-top-level',
  'landmark-contentinfo-is-top-level',
  'landmark-complementary-is-top-level',
  'region',
  'page-has-heading-one',
];

export interface AxeFinding {
  id: string;
  impact: string;
  help: string;
  /** The elements (CSS selectors) and what axe says of the first. */
  nodes: string[];
  summary: string;
}

/**
 * A page whose webview runs no script (the embeddings picture: its frame's sandbox has no `allow-scripts`) runs
 * no timer and no `queueMicrotask` callback either, and axe waits on both between its steps, so its promise
 * would never settle. Promise reactions still run there (after an evaluation): zero-delay timers and queued
 * microtasks run as those; delayed timers (axe's preload and log timeouts, which only fail or log when reached)
 * are not run. Pages with scripts are left as they are.
 */
const SCRIPTLESS_TIMERS = `(() => {
  const host = window.frameElement;
  if (!host || !host.sandbox || host.sandbox.contains('allow-scripts')) { return false; }
  let next = 1;
  const live = new Set();
  window.setTimeout = (fn, ms, ...args) => {
    const id = next++;
    if (!(ms > 0) && typeof fn === 'function') {
      live.add(id);
      void Promise.resolve().then(() => { if (live.delete(id)) { fn(...args); } });
    }
    return id;
  };
  window.clearTimeout = (id) => { live.delete(id); };
  window.queueMicrotask = (fn) => { void Promise.resolve().then(fn); };
  return true;
})()`;

/** Every violation axe finds in the frame's page (WCAG 2.x A/AA and best practices). */
export async function runAxe(frame: Frame): Promise<AxeFinding[]> {
  // Evaluated through the DevTools protocol, which the page's Content-Security-Policy does not govern (a
  // <script> tag would be refused: the pages allow only their own nonce).
  if (!(await frame.evaluate('typeof window.axe === "object"'))) {
    await frame.evaluate(SCRIPTLESS_TIMERS);
    await frame.evaluate(`${AXE_SOURCE}\n;true`);
  }
  const result = (await frame.evaluate(`window.axe.run(document, {
    runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'] },
    resultTypes: ['violations'],
  }).then((r) => r.violations.map((v) => ({
    id: v.id,
    impact: v.impact || 'unknown',
    help: v.help,
    nodes: v.nodes.map((n) => n.target.join(' ')),
    summary: (v.nodes[0] && v.nodes[0].failureSummary) || '',
  })))`)) as AxeFinding[];
  return result;
}

/** The findings that fail a check: serious or critical impact, or a landmark rule. */
export function failing(findings: readonly AxeFinding[]): AxeFinding[] {
  return findings.filter((f) => f.impact === 'serious' || f.impact === 'critical' || LANDMARK_RULES.includes(f.id));
}

/**
 * Runs axe-core in `frame` and throws, listing each one, when a finding fails the check; returns every finding
 * (minor and moderate ones included) for the caller to report. `what` names the page, state and theme.
 */
export async function assertAccessible(frame: Frame, what: string): Promise<AxeFinding[]> {
  const findings = await runAxe(frame);
  const bad = failing(findings);
  if (bad.length > 0) {
    const lines = bad.map(
      (f) => `  ${f.id} (${f.impact}): ${f.help} — ${f.nodes.slice(0, 4).join(', ')}\n    ${f.summary}`,
    );
    throw new Error(`${what}: ${bad.length} accessibility violation(s)\n${lines.join('\n')}`);
  }
  return findings;
}
