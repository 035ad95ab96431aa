/**
 * The demo's answers: a small deterministic responder that knows a handful of facts and does sums, and
 * otherwise says plainly it is a demo, quoting the question so a person sees their payload was read. The same
 * model and prompt always give the same text, so tests can compute the expected answer with `generateText`.
 */

interface Fact {
  /** Matched against one line of the prompt, lower-cased. */
  question: RegExp;
  answer: string;
}

const FACTS: readonly Fact[] = [
  { question: /capital of france\b/, answer: 'The capital of France is Paris.' },
  { question: /capital of germany\b/, answer: 'The capital of Germany is Berlin.' },
  { question: /capital of italy\b/, answer: 'The capital of Italy is Rome.' },
  { question: /capital of spain\b/, answer: 'The capital of Spain is Madrid.' },
  { question: /capital of japan\b/, answer: 'The capital of Japan is Tokyo.' },
  {
    question: /capital of (the )?(united kingdom|uk|england)\b/,
    answer: 'The capital of the United Kingdom is London.',
  },
  { question: /capital of canada\b/, answer: 'The capital of Canada is Ottawa.' },
  { question: /capital of australia\b/, answer: 'The capital of Australia is Canberra.' },
  { question: /largest planet\b/, answer: 'Jupiter is the largest planet in the Solar System.' },
  { question: /who (wrote|is the author of) hamlet\b/, answer: 'Hamlet was written by William Shakespeare.' },
  {
    question: /boiling point of water\b|temperature does water boil\b/,
    answer: 'Water boils at 100 °C (212 °F) at sea level.',
  },
  { question: /speed of light\b/, answer: 'Light travels at 299,792,458 metres per second in a vacuum.' },
  { question: /how many (days|continents)\b.*\b(week|world|earth)\b/, answer: 'There are seven.' },
  {
    question: /^(hi|hello|hey|good (morning|afternoon|evening))\b/,
    answer: 'Hello! I am a demo model: ask me "What is the capital of France?" or a sum such as "What is 12 * 7?".',
  },
];

const SUM = /(-?\d+(?:\.\d+)?)\s*([+\-*/×x÷])\s*(-?\d+(?:\.\d+)?)/;

function sum(line: string): string | undefined {
  const m = SUM.exec(line);
  if (m === null || !/\b(what|how much|calculate|compute)\b|=\s*\??\s*$/.test(line)) {
    return undefined;
  }
  const [a, op, b] = [Number(m[1]), m[2], Number(m[3])];
  const ops: Record<string, () => number> = {
    '+': () => a + b,
    '-': () => a - b,
    '*': () => a * b,
    x: () => a * b,
    '×': () => a * b,
    '/': () => a / b,
    '÷': () => a / b,
  };
  const value = ops[op]();
  if (!Number.isFinite(value)) {
    return `${m[1]} ${op} ${m[3]} has no answer: you cannot divide by zero.`;
  }
  return `${m[1]} ${op} ${m[3]} = ${Number(value.toFixed(6))}.`;
}

/** The answer this demo knows for one line of a prompt, if any. */
function known(line: string): string | undefined {
  const text = line.trim().toLowerCase();
  return FACTS.find((f) => f.question.test(text))?.answer ?? sum(text);
}

/**
 * The demo model's answer to `prompt` (every message's text, one per line): what it knows about the last line
 * it can answer, else a plain "this is a demo" that quotes the question.
 */
export function demoAnswer(model: string, prompt: string): string {
  const lines = prompt.split('\n').filter((l) => l.trim() !== '');
  // The newest question first: in a conversation the last user message is what is being asked.
  for (let i = lines.length - 1; i >= 0; i--) {
    const answer = known(lines[i]);
    if (answer !== undefined) {
      return answer;
    }
  }
  const flat = prompt.replace(/\s+/g, ' ').trim();
  const quoted = flat.length > 60 ? `${flat.slice(0, 57)}...` : flat;
  return (
    `This is ${model}, a demo model on the local Model Access Service, so it only knows a few facts ` +
    `(try "What is the capital of France?") and sums. You asked: "${quoted}".`
  );
}
