/**
 * The demo registry's Model Cards: what each family is for, what it should not be used for, how it scores and
 * under which license, written the way a registry's authors write cards. `/cards/<id>.md` serves the card as
 * Markdown and `/cards/<id>.html` as a small web page (the same text, rendered by markdown-it with raw HTML off).
 * A model of a family not described here (a test's own registry) gets a short card of its facts.
 *
 * Hostile cards (command links, raw HTML, bidi overrides) are hostile mode's (hostileData.ts), never here.
 */
import MarkdownIt from 'markdown-it';
import type { RegistryModel } from './registry';

/** What every card served by the local service says at its end (tests look for it). */
export const CARD_MARKER = 'Served by the local Model Access Service.';

interface FamilyCard {
  /** One sentence: what the family is. */
  summary: string;
  intendedUse: string[];
  limits: string[];
  /** Benchmark name → score of the family's first model (percent); later versions score a little higher. */
  evaluation: Record<string, number>;
  license: string;
}

const FAMILIES: Readonly<Record<string, FamilyCard>> = {
  aurora: {
    summary: 'A general-purpose chat model for drafting, summarising and answering questions in many languages.',
    intendedUse: [
      'Assistants and chat features inside internal tools.',
      'Summarising documents and meeting notes.',
      'Drafting and rewriting text in English, French, German, Spanish and Japanese.',
    ],
    limits: [
      'It can state wrong facts with confidence: check anything that matters against a source.',
      'Its knowledge stops at its training cut-off; it does not browse the web.',
      'Not for medical, legal or financial decisions without a qualified person in the loop.',
    ],
    evaluation: { 'MMLU (5-shot)': 68.2, GSM8K: 57.1, HellaSwag: 81.4, TruthfulQA: 49.8 },
    license: 'Acme Model License 1.0: internal use within your organization; no redistribution of weights.',
  },
  cirrus: {
    summary: 'A text embedding model: turns sentences and passages into vectors for search and clustering.',
    intendedUse: [
      'Semantic search and retrieval-augmented generation.',
      'Clustering, deduplication and topic discovery.',
      'Similarity scores between short texts.',
    ],
    limits: [
      'Inputs longer than the context window are truncated.',
      'Vectors from different versions are not comparable: re-embed your corpus when you upgrade.',
      'Weaker on code and on languages other than English.',
    ],
    evaluation: { 'MTEB average': 58.9, 'MTEB retrieval': 47.3, 'STS benchmark': 80.6 },
    license: 'Acme Model License 1.0: internal use within your organization.',
  },
  lynx: {
    summary: 'A vision-language model that answers questions about images, screenshots and scanned documents.',
    intendedUse: [
      'Describing images and screenshots for accessibility.',
      'Reading text, tables and charts from scanned documents.',
      'Answering questions about a picture in a chat.',
    ],
    limits: [
      'Small text in large images can be misread; crop to the region you care about.',
      'It does not identify people and will decline to.',
      'Counting many similar objects is unreliable.',
    ],
    evaluation: { VQAv2: 74.5, DocVQA: 81.2, ChartQA: 68.9, TextVQA: 66.0 },
    license: 'Acme Model License 1.0: internal use within your organization.',
  },
  sable: {
    summary: 'Open-weights chat models in several sizes and quantizations, for teams that run models themselves.',
    intendedUse: [
      'Chat and text generation where data must stay on your own hardware.',
      'Fine-tuning for a narrow task.',
      'Offline and edge deployments (the q4 quantizations fit a laptop GPU).',
    ],
    limits: [
      'Quantized variants lose some accuracy, most visibly on arithmetic.',
      'English-first: other languages work but are weaker.',
      'No safety tuning beyond the base instructions: add your own moderation.',
    ],
    evaluation: { 'MMLU (5-shot)': 61.3, GSM8K: 48.7, HellaSwag: 79.0, 'ARC-Challenge': 55.2 },
    license: 'Apache License 2.0.',
  },
  tern: {
    summary: 'Speech models: transcription (ASR) and speech synthesis (TTS).',
    intendedUse: [
      'Transcribing meetings, calls and voice notes.',
      'Reading text aloud for accessibility and voice interfaces.',
    ],
    limits: [
      'Accuracy drops with background noise, overlapping speakers and strong accents.',
      'Synthesized voices must not be used to impersonate a real person.',
    ],
    evaluation: { 'Word error rate, clean (lower is better)': 4.1, 'Word error rate, noisy (lower is better)': 9.8 },
    license: 'Acme Model License 1.0: internal use within your organization.',
  },
  basalt: {
    summary: 'A code model: completes, explains and reviews code in the common programming languages.',
    intendedUse: [
      'Code completion and generation in the editor.',
      'Explaining unfamiliar code and writing tests for it.',
      'Reviewing a change for bugs and style.',
    ],
    limits: [
      'Generated code can compile and still be wrong: run the tests.',
      'It may suggest APIs that do not exist in your library version.',
      'Not a security scanner: it misses vulnerabilities and sometimes introduces them.',
    ],
    evaluation: { 'HumanEval (pass@1)': 62.8, 'MBPP (pass@1)': 58.4, 'MultiPL-E average': 49.1 },
    license: 'Acme Model License 1.0: internal use within your organization.',
  },
  kestrel: {
    summary: 'A reasoning model that works through a problem step by step before it answers.',
    intendedUse: [
      'Multi-step maths, planning and analysis.',
      'Checking an argument or a calculation.',
      'Hard questions where a slower, more careful answer is worth it.',
    ],
    limits: [
      'Slower and costlier than a chat model: use a chat model for simple questions.',
      'Its reasoning can look convincing and still be wrong.',
      'Long reasoning uses a large share of the output token budget.',
    ],
    evaluation: { GSM8K: 86.3, MATH: 61.7, 'GPQA Diamond': 48.2, 'ARC-Challenge': 88.9 },
    license: 'Acme Model License 1.0: internal use within your organization.',
  },
  meridian: {
    summary: 'A multilingual chat model with image input and tool calling, for assistants and agents.',
    intendedUse: [
      'Customer-facing assistants with a human escalation path.',
      'Agents that call your tools (search, tickets, calendars).',
      'Translation and multilingual support.',
    ],
    limits: [
      'Tool calls can carry wrong arguments: validate them before acting.',
      'It can be led off-task by instructions hidden in documents it reads.',
      'Not for decisions about people (hiring, credit, benefits).',
    ],
    evaluation: { 'MMLU (5-shot)': 70.4, MGSM: 66.2, 'Berkeley Function Calling': 71.5, HellaSwag: 84.0 },
    license: 'Globex Model Terms: use within Globex and its contractors.',
  },
  quill: {
    summary: 'A writing model tuned for long-form text: reports, documentation and editing.',
    intendedUse: ['Drafting documentation, reports and release notes.', 'Editing for tone, length and clarity.'],
    limits: [
      'It favours fluent text over exact facts: check names, numbers and quotes.',
      'Not tuned for code or maths.',
    ],
    evaluation: { 'MT-Bench (1-10)': 7.1, 'AlpacaEval 2 win rate': 31.4, IFEval: 72.6 },
    license: 'Globex Model Terms: use within Globex and its contractors.',
  },
  vector: {
    summary: 'Embedding models for search over Globex documents, in a small fast size and a large accurate one.',
    intendedUse: ['Semantic search and retrieval.', 'Recommendations and near-duplicate detection.'],
    limits: [
      'Truncates inputs beyond the context window.',
      'Small and large vectors differ in size and are not interchangeable.',
    ],
    evaluation: { 'MTEB average': 61.0, 'MTEB retrieval': 50.2, 'STS benchmark': 82.1 },
    license: 'Globex Model Terms: use within Globex and its contractors.',
  },
  orbit: {
    summary: 'A reranker: orders a list of passages by how well each answers a query.',
    intendedUse: ['The second stage of search: rerank the top results of an embedding search.'],
    limits: ['Scores are only comparable within one query.', 'Slow on long lists: rerank the top 50 to 100.'],
    evaluation: { 'BEIR nDCG@10': 51.8, 'MS MARCO MRR@10': 39.6 },
    license: 'Globex Model Terms: use within Globex and its contractors.',
  },
  halo: {
    summary: 'A safety classifier: labels a prompt or an answer as safe or names the policy it breaks.',
    intendedUse: ['Moderating user input before it reaches a model.', 'Checking model output before it is shown.'],
    limits: [
      'Misses some harmful content and flags some harmless content: keep a person to review appeals.',
      'Its policy categories are Globex’s; they may not match yours.',
    ],
    evaluation: { 'Precision (harmful)': 91.2, 'Recall (harmful)': 86.7, F1: 88.9 },
    license: 'Globex Model Terms: use within Globex and its contractors.',
  },
  'research-preview': {
    summary: 'An experimental reasoning model from Globex Research, offered to try new ideas early.',
    intendedUse: ['Experiments and feedback to the research team.'],
    limits: [
      'Preview: behaviour, limits and availability change without notice.',
      'Not for production features or anything users depend on.',
    ],
    evaluation: { GSM8K: 79.5, MATH: 52.3, 'GPQA Diamond': 41.0 },
    license: 'Globex Research Preview Terms: evaluation only.',
  },
};

const YES_NO = (v: unknown): string => (v === true ? 'yes' : 'no');
const LIFECYCLE: Readonly<Record<string, string>> = {
  'generally-available': 'Generally available',
  deprecated: 'Deprecated',
  preview: 'Preview',
};

/** The facts table of a card: what the registry entry says. */
function facts(model: RegistryModel): string[] {
  const extra = model.extra ?? {};
  const rows: [string, string][] = [
    ['Family', model.family],
    ['Version', model.version],
    ['Provider', model.organization],
    ['Released', new Date(model.created * 1000).toISOString().slice(0, 10)],
  ];
  if (typeof extra.context_window === 'number') {
    rows.push(['Context window', `${extra.context_window.toLocaleString('en-US')} tokens`]);
  }
  if (typeof extra.max_output_tokens === 'number') {
    rows.push(['Longest answer', `${extra.max_output_tokens.toLocaleString('en-US')} tokens`]);
  }
  if (typeof extra.dimensions === 'number') {
    rows.push(['Vector size', `${extra.dimensions} dimensions`]);
  }
  const caps = extra.capabilities;
  if (typeof caps === 'object' && caps !== null) {
    const c = caps as Record<string, unknown>;
    rows.push([
      'Capabilities',
      `chat ${YES_NO(c.chat)} · embeddings ${YES_NO(c.embeddings)} · images ${YES_NO(c.vision)} · tools ${YES_NO(c.tools)} · reasoning ${YES_NO(c.reasoning)}`,
    ]);
  }
  if (typeof extra.lifecycle_status === 'string') {
    let status = LIFECYCLE[extra.lifecycle_status] ?? extra.lifecycle_status;
    if (typeof extra.retirement_date === 'string') {
      status += `; retires on ${extra.retirement_date}`;
    }
    if (typeof extra.replacement === 'string') {
      status += `; use ${extra.replacement} instead`;
    }
    rows.push(['Status', status]);
  }
  return ['| | |', '| --- | --- |', ...rows.map(([k, v]) => `| ${k} | ${v} |`)];
}

/**
 * The card's Markdown. `rank` is the model's place among its family's models by release date (0 = first):
 * later versions score a little better, as they do.
 */
export function cardMarkdown(model: RegistryModel, rank = 0): string {
  const family = FAMILIES[model.family];
  const lines = [`# ${model.id}`, ''];
  if (family === undefined) {
    lines.push(`A model of the ${model.family} family, version ${model.version}.`, '', ...facts(model), '');
  } else {
    const lowerIsBetter = (name: string) => name.includes('lower is better');
    const score = (name: string, base: number) => {
      const step = base <= 10 ? 0.3 : 2.4;
      const value = lowerIsBetter(name) ? base - rank * step * 0.2 : Math.min(99.5, base + rank * step);
      return value.toFixed(1);
    };
    lines.push(
      family.summary,
      '',
      '## Model details',
      '',
      ...facts(model),
      '',
      '## Intended use',
      '',
      ...family.intendedUse.map((u) => `- ${u}`),
      '',
      '## Limitations',
      '',
      ...family.limits.map((l) => `- ${l}`),
      '',
      '## Evaluation',
      '',
      'Scores from the provider’s own runs of public benchmarks; your data will differ.',
      '',
      '| Benchmark | Score |',
      '| --- | ---: |',
      ...Object.entries(family.evaluation).map(([name, base]) => `| ${name} | ${score(name, base)} |`),
      '',
      '## License',
      '',
      family.license,
      '',
    );
  }
  lines.push(`*${CARD_MARKER}*`, '');
  return lines.join('\n');
}

const markdown = new MarkdownIt({ html: false, linkify: false });

/** The card as a web page: the Markdown rendered with raw HTML off, so nothing of the text becomes markup. */
export function cardHtml(model: RegistryModel, rank = 0): string {
  const title = model.id.replace(/[<&>"]/g, (c) => `&#${c.charCodeAt(0)};`);
  return [
    '<!doctype html>',
    '<html lang="en">',
    `<head><meta charset="utf-8"><title>${title} · Model Card</title>`,
    '<style>body{font:16px/1.5 system-ui,sans-serif;max-width:46rem;margin:2rem auto;padding:0 1rem}' +
      'table{border-collapse:collapse}td,th{border:1px solid #8884;padding:.25rem .6rem;text-align:left}</style>',
    '</head>',
    `<body><main>${markdown.render(cardMarkdown(model, rank))}</main></body>`,
    '</html>',
    '',
  ].join('\n');
}
