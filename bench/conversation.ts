/**
 * Long conversations: a Chat payload of 200 turns and about 1 MB (comments, a `// POST` line, an `// @env`
 * line), and the extension's part of Reply, Regenerate and Fork on it — reading the turns and computing the
 * one edit (or the forked text) — plus the transcript's HTML for all 200 turns. VS Code's own part (applying
 * the edit, drawing the editor) is not counted: it is the same for any edit of that size. In process, after a
 * warm-up; target ≤ 50 ms each.
 */
import { appendReply, dropLastAnswer, forkAt } from '../src/requests/conversation/core/edits';
import { RenderedTurns, transcriptHtml } from '../src/requests/conversation/core/transcript';
import { readConversation } from '../src/requests/conversation/core/turns';
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
  const read = readConversation(text);
  if (read.ok) {
    const turns = read.conversation.turns;
    // The first drawing renders every turn's Markdown; a redraw while an answer streams renders only it.
    const rendered = new RenderedTurns();
    const first = performance.now();
    transcriptHtml(turns, undefined, rendered);
    const firstMs = performance.now() - first;
    let grown = '';
    const redraw = summarize(
      time(runs, () => {
        grown += 'more words of the answer arriving ';
        return transcriptHtml(turns, { text: grown, toolCalls: [], streaming: true }, rendered);
      }),
    );
    ctx.rows.push(
      {
        scenario,
        metric: 'Show Conversation: first drawing of all turns',
        value: `${firstMs.toFixed(1)} ms (n 1)`,
        verdict: 'info',
      },
      {
        scenario,
        metric: 'Show Conversation: one redraw while an answer streams (at most every 100 ms)',
        value: formatSummary(redraw, 'ms', 1),
        target: `≤ ${TARGET_MS} ms`,
        verdict: redraw.median <= TARGET_MS ? 'met' : 'missed',
      },
    );
  }
  ctx.data.conversation = { bytes: text.length, turns: TURNS, ...data };
}
