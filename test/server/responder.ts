/**
 * The demo's answers: a small deterministic responder over the question asked (the last user message, see
 * `questionText` in generation.ts), never an earlier one. It knows a handful of facts and does sums; asked for
 * a paragraph, a story or an explanation it writes a paragraph about the topic asked (long enough to stream
 * for several seconds and to try Stop); anything else gets a plain "this is a demo" that quotes the question.
 * The same model and question always give the same text, so tests can compute the expected answer with
 * `generateText`.
 */

interface Fact {
  /** Matched against the question, lower-cased. */
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
    answer:
      'Hello! I am a demo model: ask me "What is the capital of France?", a sum such as "What is 12 * 7?", ' +
      'or for a paragraph about something.',
  },
];

const SUM = /(-?\d+(?:\.\d+)?)\s*([+\-*/×x÷])\s*(-?\d+(?:\.\d+)?)/;

function sum(text: string): string | undefined {
  const m = SUM.exec(text);
  if (m === null || !/\b(what|how much|calculate|compute)\b|=\s*\??\s*$/.test(text)) {
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

/** What a request for longer text asks for, as the answer names it ("a short paragraph", "a story"). */
const LONGER: readonly { asks: RegExp; kind: (m: RegExpExecArray) => string; wholeIsTopic?: boolean }[] = [
  { asks: /\b((?:short |long |brief )?(?:paragraph|essay|story|poem|summary))\b/, kind: (m) => article(m[1]) },
  { asks: /^(?:please,? )?(?:can you |could you )?(?:explain|describe)\b/, kind: () => 'an explanation' },
  {
    asks: /^(?:please,? )?(?:can you |could you )?compare\b|\b(?:vs\.?|versus)\b/,
    kind: () => 'a comparison',
    wholeIsTopic: true,
  },
  {
    // "Write a …", "Tell me about …"; not the template's own "Write your prompt here."
    asks: /^(?:please,? )?(?:can you |could you )?(?:write (?:me )?(?:a|an|some|something)\b|tell me about\b|summari[sz]e\b)/,
    kind: () => 'a paragraph',
  },
];

function article(kind: string): string {
  return `${/^[aeiou]/.test(kind) ? 'an' : 'a'} ${kind}`;
}

/**
 * The topic of a request for longer text: what follows "a paragraph about/on/of" or "about", or what is to be
 * explained or compared; the whole question when it is itself the topic ("alpacas vs llamas"); else undefined
 * ("Tell me a long story").
 */
function topicOf(question: string, wholeIsTopic: boolean): string | undefined {
  const found =
    /\b(?:paragraph|essay|story|poem|summary)\s+(?:about|on|of)\s+(.+)$/i.exec(question)?.[1] ??
    /\babout\s+(.+)$/i.exec(question)?.[1] ??
    // "Please explain, in a few sentences, why …": what comes after the verb and its "in …," aside.
    /^(?:please,?\s+)?(?:can you\s+|could you\s+)?(?:explain|describe|compare|summari[sz]e)\b[\s,:]*(?:(?:in|with)\s[^,]*,\s*)?(.+)$/i.exec(
      question,
    )?.[1] ??
    (wholeIsTopic ? question : '');
  const topic = found.replace(/[\s.?!:;,]+$/, '').trim();
  if (topic === '') {
    return undefined;
  }
  return topic.length > 80 ? `${topic.slice(0, 77)}...` : topic;
}

/**
 * A paragraph about `topic`, honest about what the demo is: about 130 words, so at the demo's reading pace it
 * streams for several seconds (time to press Stop) and Regenerate visibly writes it again.
 */
function paragraph(model: string, kind: string, topic: string | undefined, question: string): string {
  return [
    topic === undefined
      ? `This is ${model}, a demo model on the local Model Access Service, with ${kind} as you asked ("${quote(question)}").`
      : `This is ${model}, a demo model on the local Model Access Service, with ${kind} about ${topic}.`,
    'It writes these sentences from your question alone and knows nothing of the subject,',
    'so read them as a stand-in for what a real model would say.',
    'A real answer would say what the subject is, why it matters to the people who meet it,',
    'where it tends to go wrong, and what to read next, with an example or two along the way.',
    'This answer is long on purpose: it arrives word by word at a reading pace, so you can press Stop half way',
    'and see what was kept, or Regenerate and watch the same text arrive again,',
    'because the demo always answers the same question the same way.',
    'For an answer it does know, ask "What is the capital of France?" or a sum such as "What is 12 * 7?".',
  ].join(' ');
}

function quote(text: string): string {
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

/**
 * The demo model's answer to `question` (the last user message's text): a known fact or sum, a paragraph when
 * longer text is asked for, else a plain "this is a demo" that quotes the question.
 */
export function demoAnswer(model: string, question: string): string {
  const flat = question.replace(/\s+/g, ' ').trim();
  const lower = flat.toLowerCase();
  for (const longer of LONGER) {
    const m = longer.asks.exec(lower);
    if (m !== null) {
      return paragraph(model, longer.kind(m), topicOf(flat, longer.wholeIsTopic === true), flat);
    }
  }
  const known = FACTS.find((f) => f.question.test(lower))?.answer ?? sum(lower);
  if (known !== undefined) {
    return known;
  }
  return (
    `This is ${model}, a demo model on the local Model Access Service, so it only knows a few facts ` +
    `(try "What is the capital of France?"), sums and paragraphs. ` +
    `You asked: "${quote(flat)}".`
  );
}
