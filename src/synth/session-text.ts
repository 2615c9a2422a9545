/**
 * The text of a synthetic session's turns: prose with decisions and
 * WikiLinks, lists, tables and fenced code in an assistant's answer, the
 * user's requests, and plain filler cut to an exact size.
 */
import {
  APPROACHES, ASCII_CONCEPTS, between, chance, CHOICES, concept, FOREIGN, HEADINGS, link, ONE_WORD_CHOICES, pick,
  PURPOSES, REASONS, relativePath, repeat, SYMBOLS, TEST_NAMES, type Generator, type Template,
} from './session-content.js';
import { FENCED, stackTrace } from './session-code.js';
import { answerIn, requestIn } from './session-languages.js';
import { pastedTemplate, pastedTrace, summaryShapedAnswer } from './session-phenomena.js';

const DECISIONS: readonly Template[] = [
  (gen) => `We decided to use ${pick(gen, CHOICES)} because ${pick(gen, REASONS)}.`,
  (gen) => `We will not use ${pick(gen, CHOICES)} since ${pick(gen, REASONS)}.`,
  (gen) => `Approach: ${pick(gen, APPROACHES)}.`,
  (gen) => `For now we are using ${pick(gen, ONE_WORD_CHOICES)} for ${pick(gen, PURPOSES)}.`,
  (gen) => {
    const chosen = pick(gen, CHOICES);
    return `I chose ${chosen} over ${pick(gen, CHOICES.filter((choice) => choice !== chosen))} because ${pick(gen, REASONS)}.`;
  },
  (gen) => `We decided against ${pick(gen, CHOICES)} because ${pick(gen, REASONS)}.`,
];

/** Prose for filler and long logs: ASCII only and free of quotes and backslashes, so filler is cut to an exact byte count. */
export const PLAIN_PROSE: readonly Template[] = [
  ...DECISIONS,
  (gen) => `The ${link(gen, pick(gen, ASCII_CONCEPTS))} now handles ${pick(gen, PURPOSES)} without blocking the event loop.`,
  (gen) => `Profiling shows ${between(gen, 12, 87)} percent of the time in ${pick(gen, SYMBOLS)} on large sessions.`,
  (gen) => `Nothing here touches the ${pick(gen, ASCII_CONCEPTS)}, so the existing tests still cover it.`,
];

const PROSE: readonly Template[] = [
  ...PLAIN_PROSE,
  (gen) => `I traced how ${concept(gen)} talks to ${concept(gen)} and found ${between(gen, 2, 14)} call sites to change.`,
  (gen) => `\`${pick(gen, SYMBOLS)}\` in ${relativePath(gen)} still does the work twice; the ${concept(gen)} should own it.`,
  (gen) => `Once ${concept(gen)} is in place, ${concept(gen)} becomes a thin wrapper.`,
  (gen) => `The failing case is an empty list: \`${pick(gen, SYMBOLS)}\` returns \`undefined\` instead of \`[]\`.`,
  (gen) => pick(gen, FOREIGN),
];

/** A paragraph of two to five sentences, some of them decisions. */
export function paragraph(gen: Generator): string {
  return repeat(gen, 2, 5, (g) => (chance(g, 0.2) ? pick(g, DECISIONS)(g) : pick(g, PROSE)(g))).join(' ');
}

function list(gen: Generator): string {
  const ordered = chance(gen, 0.3);
  return repeat(gen, 3, 6, (g) => pick(g, PROSE)(g))
    .map((item, index) => `${ordered ? `${index + 1}.` : '-'} ${item}`)
    .join('\n');
}

function table(gen: Generator): string {
  const rows = repeat(gen, 2, 5, (g) => `| \`${relativePath(g)}\` | ${pick(g, APPROACHES)} | ${pick(g, ['✅', '❌', '🚧'])} |`);
  return ['| File | Change | Status |', '| --- | --- | --- |', ...rows].join('\n');
}

function block(gen: Generator): string {
  const roll = gen.random();
  if (roll < 0.55) return paragraph(gen);
  if (roll < 0.7) return list(gen);
  if (roll < 0.78) return table(gen);
  return pick(gen, FENCED)(gen);
}

/** The text of an assistant answer: loose blocks, sections under headings, or a summary of changes. */
export function assistantText(gen: Generator): string {
  const blocks: string[] = [];
  const { language } = gen.style;
  if (language !== 'en' && chance(gen, 0.6)) return [answerIn(gen, language), ...(chance(gen, 0.5) ? [block(gen)] : [])].join('\n\n');
  if (chance(gen, 0.12)) return summaryShapedAnswer(gen);
  if (chance(gen, 0.25)) return repeat(gen, 1, 3, block).join('\n\n');
  if (chance(gen, 0.5)) blocks.push(paragraph(gen));
  const sections = between(gen, 1, 4);
  for (let index = 0; index < sections; index += 1) {
    blocks.push(`${chance(gen, 0.15) ? '###' : '##'} ${pick(gen, HEADINGS)}`, ...repeat(gen, 1, 3, block));
  }
  return blocks.join('\n\n');
}

/** What the user says to start a turn, in English. */
export const USER_TEXT: readonly Template[] = [
  (gen) => `Can you look at ${relativePath(gen)}? ${paragraph(gen)}`,
  (gen) => `The tests fail again:\n\n\`\`\`\n${stackTrace(gen)}\n\`\`\`\n\nPlease fix it without touching the ${concept(gen)}.`,
  (gen) => `Let's go with ${pick(gen, CHOICES)}. ${pick(gen, DECISIONS)(gen)}`,
  (gen) => `${pick(gen, FOREIGN)} ${concept(gen)} の部分をもう一度確認してください。`,
  (gen) => `Next: ${pick(gen, APPROACHES)}, and add a test that should ${pick(gen, TEST_NAMES)}.`,
  // Pasted without a fence, as users often do.
  (gen) => `I get this when I run it:\n${pastedTrace(gen)}\nWhat is going on?`,
  (gen) => pastedTemplate(gen),
];

/** What the user says to start a turn, in the session's language most of the time. */
export function userText(gen: Generator): string {
  const { language } = gen.style;
  if (language !== 'en' && chance(gen, 0.7)) return requestIn(gen, language);
  return pick(gen, USER_TEXT)(gen);
}

/**
 * ASCII prose cut to exactly `length` characters, which are also its bytes and
 * its serialised length: filler that meets a size to the byte.
 */
export function plainText(gen: Generator, length: number): string {
  let text = '';
  while (text.length < length) text += `${text ? ' ' : ''}${pick(gen, PLAIN_PROSE)(gen)}`;
  return text.slice(0, length);
}
