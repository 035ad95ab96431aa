/**
 * Long conversations: a Chat payload of 200 turns and about 1 MB (comments, a `// POST` line, an `// @env`
 * line), and the extension's part of Reply, Regenerate and Fork on it — reading the turns and computing the
 * one edit (or the forked text) — plus the conversation panel's part of drawing all 200 turns and of a redraw
 * while an answer streams: the view of the payload (every turn's HTML) and the pieces that changed since the
 * last draw, which are all that is sent to the page. VS Code's own part (applying the edit, drawing the editor,
 * the webview's DOM) is not counted. In process, after a warm-up; target ≤ 50 ms each.
 */
import { appendReply, dropLastAnswer, forkAt } from '../src/requests/conversation/core/edits';
import { RenderedAnswers } from '../src/requests/conversation/core/panelMarkdown';
import { panelView, PIECES_PER_DRAW, RENDERS_PER_DRAW } from '../src/requests/conversation/core/panelView';
import type { BenchContext } from './context';
import { formatSummary, summarize } from './stats';

const TURNS = 200;
const TARGET_MS = 50;

/** The payload: a system turn, then 200 user/assistant turns of ~5 KB of Markdown-ish text. */
export function longConversation(): string {
  const messages: unknown[] = [{ role: 'system', content: 'You are a helpful assistant.' }];
  const paragraph = 'The quick brown fox jumps over the lazy dog; `code` and **bold** words. '.repeat(70);
  for (let i = 0; i < TURNS; i++) {
    messages.push({ role: i % 2 === 0 ? 'user' : 'assistant', content: `Turn ${i}.\n\n${paragraph}` });
  }
  const body = JSON.stringify({ model: '{{model}}', messages, stream: true }, null, 2);
  return `// POST /v1/chat\n// @env staging\n// a long conversation\n${body}\n`;
}

function time(runs: number, fn: () => unknown): number[] {
  for (let i = 0; i < 3; i++) {
    fn(); // Warm-up.
  }
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    fn();
    times.push(performance.now() - start);
  }
  return times;
}

export async function runConversation(ctx: BenchContext): Promise<void> {
  const text = longConversation();
  const runs = ctx.quick ? 10 : 30;
  const fmt = { insertSpaces: true, tabSize: 2, eol: '\n' };
  const answer = { text: 'A new answer.\n\n```js\nconsole.log(1);\n```', toolCalls: [] };
  const middle = text.indexOf('"Turn 100.');
  const measured: Array<[string, () => unknown]> = [
    ['Reply (append the answer and a user turn)', () => appendReply(text, answer, fmt)],
    ['Regenerate (drop the last answer)', () => dropLastAnswer(text)],
    ['Fork (turns up to the cursor, at turn 100)', () => forkAt(text, middle)],
  ];
  const scenario = `Conversation ${TURNS} turns / ${(text.length / 1024 / 1024).toFixed(1)} MB`;
  const data: Record<string, number[]> = {};
  for (const [metric, fn] of measured) {
    const s = summarize(time(runs, fn));
    data[metric] = [s.median, s.min, s.max];
    ctx.rows.push({
      scenario,
      metric,
      value: formatSummary(s, 'ms', 1),
      target: `≤ ${TARGET_MS} ms`,
      verdict: s.median <= TARGET_MS ? 'met' : 'missed',
    });
    if (s.median > TARGET_MS) {
      ctx.notes.push(`${scenario}: ${metric} took ${s.median.toFixed(1)} ms (target ≤ ${TARGET_MS} ms).`);
    }
  }
  // The panel's first draw renders every turn's Markdown; a redraw while an answer streams reads the payload
  // again, renders the answer arriving and sends the pieces that differ from the last draw (only that one).
  const changedSince = (before: readonly string[], after: readonly string[]) =>
    after.filter((html, i) => before[i] !== html);
  const firstTimes: number[] = [];
  let pieces: string[] = [];
  for (let i = 0; i < Math.max(3, Math.floor(runs / 3)); i++) {
    const start = performance.now();
    // As the panel draws: the latest answers rendered, the earlier ones in the next draws.
    pieces = panelView(text, new RenderedAnswers(), undefined, undefined, {
      renders: RENDERS_PER_DRAW,
      pieces: PIECES_PER_DRAW,
    }).pieces.map((p) => p.html);
    changedSince([], pieces);
    firstTimes.push(performance.now() - start);
  }
  const firstDraw = summarize(firstTimes);
  const rendered = new RenderedAnswers();
  pieces = panelView(text, rendered).pieces.map((p) => p.html);
  let grown = '';
  let sent = 0;
  const redraw = summarize(
    time(runs, () => {
      grown += 'more words of the answer arriving, with `code` and **bold** ';
      const now = panelView(text, rendered, { text: grown, toolCalls: [], streaming: true }).pieces.map((p) => p.html);
      sent = changedSince(pieces, now).length;
      pieces = now;
    }),
  );
  ctx.rows.push(
    {
      scenario,
      metric: 'Conversation panel: first draw of all turns',
      value: formatSummary(firstDraw, 'ms', 1),
      target: `≤ ${TARGET_MS} ms`,
      verdict: firstDraw.median <= TARGET_MS ? 'met' : 'missed',
    },
    {
      scenario,
      metric: `Conversation panel: one redraw while an answer streams (${sent} piece sent; at most every 100 ms)`,
      value: formatSummary(redraw, 'ms', 1),
      target: `≤ ${TARGET_MS} ms`,
      verdict: redraw.median <= TARGET_MS ? 'met' : 'missed',
    },
  );
  for (const [metric, s] of [
    ['first draw', firstDraw],
    ['redraw while streaming', redraw],
  ] as const) {
    data[`panel ${metric}`] = [s.median, s.min, s.max];
    if (s.median > TARGET_MS) {
      ctx.notes.push(`${scenario}: the panel's ${metric} took ${s.median.toFixed(1)} ms (target ≤ ${TARGET_MS} ms).`);
    }
  }
  ctx.data.conversation = { bytes: text.length, turns: TURNS, ...data };
}
