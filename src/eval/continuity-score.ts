/**
 * Scores what a new session of a project received at its start against the
 * truth of the session the project compacted before: an item counts when all
 * its keyword groups occur in one line or one bullet of the received text, so
 * words scattered over a block never add up to a decision nobody wrote down.
 * Also how lines are compared across runs (for leakage) and how a delivered
 * summary is recognised.
 */
import { ITEM_KINDS, type ItemKind } from '../core/memory/item-kinds.js';
import { PROJECT_MEMORY_HEADING } from '../core/memory/project-memory.js';
import { allGroupsMatch, normalizeForMatch } from './truth-match.js';
import type { Truth, TruthItem } from './score.js';

/** Hits and totals of one session (or a pool of sessions). */
export interface ContinuityCounts {
  decisionTruth: number;
  decisionHits: number;
  problemTruth: number;
  problemHits: number;
  nextTruth: number;
  nextHits: number;
  topicTruth: number;
  topicHits: number;
}

/** How many of the decision, problem and next-step lines a block holds match a truth item. */
export interface InjectedPrecision {
  /** Those lines in the received text. */
  lines: number;
  /** Those that match some truth item of any of the three kinds. */
  matched: number;
  /** The lines that match none, as received. */
  unmatched: string[];
}

/** One session's score of received text. */
export interface ContinuityScore {
  counts: ContinuityCounts;
  /** The injected lines' precision against the session's decisions, problems and next steps. */
  injected: InjectedPrecision;
  /** Whether the received text holds the summary the compaction delivered. */
  carried: boolean;
  missed: { decisions: string[]; problems: string[]; next: string[]; topics: string[] };
}

const LIST_ITEM = /^\s*(?:[-*+•]|\d+[.)])\s+/;
const CONTINUATION = /^\s+\S/;

/**
 * The units an item must fit in: each bullet of a list with the indented
 * lines that continue it, and each other non-empty line; normalized.
 *
 * @param text - the received text.
 */
export function receivedUnits(text: string): string[] {
  const units: string[] = [];
  let bullet: string[] | null = null;
  const close = (): void => {
    if (bullet) units.push(normalizeForMatch(bullet.join(' ')));
    bullet = null;
  };
  for (const line of text.split(/\r?\n/)) {
    if (line.trim().length === 0) {
      close();
    } else if (LIST_ITEM.test(line)) {
      close();
      bullet = [line.trim()];
    } else if (bullet && CONTINUATION.test(line)) {
      bullet.push(line.trim());
    } else {
      close();
      units.push(normalizeForMatch(line.trim()));
    }
  }
  close();
  return units;
}

/**
 * The Project Memory block of a received text: from its heading to the next `## ` heading (graph
 * context, another plugin's block), or `''` when the text holds none.
 *
 * @param text - the received text.
 */
export function projectMemoryBlock(text: string): string {
  const lines = text.split(/\r?\n/);
  const start = lines.findIndex((line) => line.trim() === PROJECT_MEMORY_HEADING);
  if (start < 0) return '';
  const end = lines.findIndex((line, index) => index > start && /^##\s/.test(line));
  return lines.slice(start, end < 0 ? lines.length : end).join('\n');
}

/** The kinds whose lines the injected precision counts: what the block asserts the project decided, has open, and does next. */
const INJECTED_KINDS: readonly ItemKind[] = ['decision', 'problem', 'next'];
const BLOCK_SECTION = /^###\s+(.+?)\s*#*$/;

function injectedKind(heading: string): ItemKind | null {
  const wanted = heading.trim().toLowerCase();
  for (const kind of INJECTED_KINDS) {
    const title = ITEM_KINDS[kind].blockHeading.toLowerCase();
    // A heading may carry a note after its title ("Decisions (newest first)"), never another word run on.
    if (title && (wanted === title || (wanted.startsWith(title) && !/^[\p{L}\p{N}]/u.test(wanted.slice(title.length))))) return kind;
  }
  return null;
}

/**
 * The decision, open-problem and next-step lines of the Project Memory block in a received text: each
 * bullet under one of those block headings (ITEM_KINDS), with the indented lines that continue it, as
 * the line-by-line recall reads it. Quoted summary text, other sections and other blocks are not items.
 *
 * @param text - the received text.
 * @returns each line's kind and text (trimmed, as received).
 */
export function injectedLines(text: string): { kind: ItemKind; text: string }[] {
  const lines: { kind: ItemKind; text: string }[] = [];
  let inBlock = false;
  let kind: ItemKind | null = null;
  let bullet: string[] | null = null;
  const close = (): void => {
    if (bullet && kind) lines.push({ kind, text: bullet.join(' ') });
    bullet = null;
  };
  for (const line of text.split(/\r?\n/)) {
    if (/^##\s/.test(line)) {
      close();
      inBlock = line.trim() === PROJECT_MEMORY_HEADING;
      kind = null;
      continue;
    }
    const section = BLOCK_SECTION.exec(line);
    if (section) {
      close();
      kind = inBlock ? injectedKind(section[1] as string) : null;
    } else if (LIST_ITEM.test(line)) {
      close();
      if (kind) bullet = [line.trim()];
    } else if (bullet && CONTINUATION.test(line)) {
      bullet.push(line.trim());
    } else {
      close();
    }
  }
  close();
  return lines;
}

/**
 * The injected lines' precision: of the decision, problem and next-step lines a received block holds,
 * those whose text matches some truth item (all of its keyword groups in the one line), whatever the
 * item's kind: a decision the session took that the block files as a next step still informs.
 *
 * @param received - the received text.
 * @param items - the truth items any line may match.
 */
export function injectedPrecision(received: string, items: readonly TruthItem[]): InjectedPrecision {
  const lines = injectedLines(received);
  const unmatched = lines.filter((line) => !items.some((item) => allGroupsMatch(item.keywords, normalizeForMatch(line.text)))).map((line) => line.text);
  return { lines: lines.length, matched: lines.length - unmatched.length, unmatched };
}

/** Truth items whose groups all occur in one unit, and the texts of the others. */
function recall(items: readonly TruthItem[], units: readonly string[]): { hits: number; missed: string[] } {
  const missed = items.filter((item) => !units.some((unit) => allGroupsMatch(item.keywords, unit))).map((item) => item.text);
  return { hits: items.length - missed.length, missed };
}

/**
 * Whether a topic occurs anywhere in the text: one of its `|` alternatives, as written or with its spaces as hyphens.
 *
 * @param topic - a truth topic.
 * @param text - normalized with `normalizeForMatch`.
 */
export function topicOccurs(topic: string, text: string): boolean {
  return topic.split('|').some((alternative) => {
    const wanted = normalizeForMatch(alternative).trim();
    return wanted.length > 0 && (text.includes(wanted) || text.includes(wanted.replace(/\s+/g, '-')));
  });
}

const MARKDOWN_LEAD = /^(?:[-*+>•]|\d+[.)]|#{1,6})\s+/;
const EMPHASIS = /[*_`]+/g;

/** A line as the summary probe compares it: normalized, markdown marks and extra spaces gone. */
function plainLine(line: string): string {
  let text = normalizeForMatch(line).trim();
  while (MARKDOWN_LEAD.test(text)) text = text.replace(MARKDOWN_LEAD, '');
  return text.replace(EMPHASIS, '').replace(/\s+/g, ' ').trim();
}

/** Characters of a summary's first line the probe keeps: enough to be unique, short enough to survive a cut. */
export const PROBE_CHARS = 80;

/**
 * What identifies a delivered summary in another text: its first non-empty
 * line that is not a heading or a rule (`## Goal` would occur anywhere), its
 * markdown marks removed, normalized, at most {@link PROBE_CHARS} characters;
 * the first non-empty line when every line is a heading.
 *
 * @param summary - the summary as stored.
 */
export function summaryProbe(summary: string): string {
  const lines = summary.split(/\r?\n/).filter((line) => line.trim().length > 0);
  const content = lines.find((line) => !/^\s*(?:#{1,6}\s|[-*_=]{3,}\s*$)/.test(line)) ?? lines[0] ?? '';
  return plainLine(content).slice(0, PROBE_CHARS).trim();
}

/**
 * Whether `text` holds the summary `probe` stands for, in one of its lines.
 *
 * @param text - any text (received text, a memory file).
 * @param probe - from {@link summaryProbe}; an empty probe is never carried.
 */
export function carriesSummary(text: string, probe: string): boolean {
  if (probe.length === 0) return false;
  return text.split(/\r?\n/).some((line) => plainLine(line).includes(probe));
}

/**
 * Scores one session's received text.
 *
 * @param truth - the compacted session's truth.
 * @param received - what the next session received.
 * @param probe - the delivered summary's probe ({@link summaryProbe}).
 */
export function scoreContinuity(truth: Truth, received: string, probe: string): ContinuityScore {
  const units = receivedUnits(received);
  const whole = normalizeForMatch(received);
  const decisions = recall(truth.decisions, units);
  const problems = recall(truth.problems, units);
  const next = recall(truth.next, units);
  const topics = truth.topics.filter((topic) => !topicOccurs(topic, whole));
  return {
    counts: {
      decisionTruth: truth.decisions.length,
      decisionHits: decisions.hits,
      problemTruth: truth.problems.length,
      problemHits: problems.hits,
      nextTruth: truth.next.length,
      nextHits: next.hits,
      topicTruth: truth.topics.length,
      topicHits: truth.topics.length - topics.length,
    },
    injected: injectedPrecision(received, [...truth.decisions, ...truth.problems, ...truth.next]),
    carried: carriesSummary(received, probe),
    missed: { decisions: decisions.missed, problems: problems.missed, next: next.missed, topics },
  };
}

/**
 * A failed run's score: every item missed, nothing carried.
 *
 * @param truth - the session's truth.
 */
export function missedContinuity(truth: Truth): ContinuityScore {
  return scoreContinuity(truth, '', '');
}

const DATE_TIME = /\d{4}-\d{2}-\d{2}(?:[t ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:z|[+-]\d{2}:?\d{2})?)?/g;
const CLOCK = /\b\d{1,2}:\d{2}(?::\d{2})?\b/g;
const EPOCH = /\b\d{10,13}\b/g;
const AGE = /\b\d+(?:\.\d+)?\s*(?:ms|s|sec|secs|seconds?|min|mins|minutes?|h|hours?|d|days?|weeks?)\b(?:\s+ago)?/g;

/**
 * A line as compared between two runs: normalized, with dates, times, epoch stamps and ages masked (two
 * runs never start in the same second), whitespace collapsed.
 *
 * @param line - one line of received text.
 */
export function comparableLine(line: string): string {
  return normalizeForMatch(line)
    .replace(DATE_TIME, '<date>')
    .replace(EPOCH, '<stamp>')
    .replace(CLOCK, '<time>')
    .replace(AGE, '<age>')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * A received text with its dates, times, epoch stamps and ages masked and nothing else changed: what two
 * runs of the same scenario started at different times still hold in common, to the byte.
 *
 * @param text - received text.
 */
export function clockMasked(text: string): string {
  return text
    .replace(new RegExp(DATE_TIME.source, 'gi'), '<date>')
    .replace(EPOCH, '<stamp>')
    .replace(CLOCK, '<time>')
    .replace(new RegExp(AGE.source, 'gi'), '<age>');
}

/**
 * The lines of `text` that `other` lacks, as they are (trimmed), counted with their multiplicity; blank
 * lines are left out.
 *
 * @param text - one received text.
 * @param other - the text it is compared with.
 */
export function linesMissingFrom(text: string, other: string): string[] {
  const available = new Map<string, number>();
  for (const line of other.split(/\r?\n/)) {
    const key = line.trim();
    if (key) available.set(key, (available.get(key) ?? 0) + 1);
  }
  const missing: string[] = [];
  for (const line of text.split(/\r?\n/)) {
    const key = line.trim();
    if (!key) continue;
    const left = available.get(key) ?? 0;
    if (left > 0) available.set(key, left - 1);
    else missing.push(key);
  }
  return missing;
}

/**
 * The non-empty lines of `text` that `baseline` lacks, counted with their
 * multiplicity (a line `text` holds twice and `baseline` once is one extra),
 * compared by {@link comparableLine}.
 *
 * @param text - received in the run under test.
 * @param baseline - received in the run without what is tested.
 * @returns the extra lines as `text` has them.
 */
export function extraLines(text: string, baseline: string): string[] {
  const available = new Map<string, number>();
  for (const line of baseline.split(/\r?\n/)) {
    const key = comparableLine(line);
    if (key) available.set(key, (available.get(key) ?? 0) + 1);
  }
  const extra: string[] = [];
  for (const line of text.split(/\r?\n/)) {
    const key = comparableLine(line);
    if (!key) continue;
    const left = available.get(key) ?? 0;
    if (left > 0) available.set(key, left - 1);
    else extra.push(line.trim());
  }
  return extra;
}

/** What one session's leakage measurement found. */
export interface Leakage {
  /** Lines P's next session received only because Q compacted in the same memory. */
  fromOther: string[];
  /** Lines the never-compacted project R received in the shared memory and not in an empty one. */
  intoUntouched: string[];
}

/**
 * Leaked lines of one session's run.
 *
 * @param received - P's next session: with Q compacted beside it, and before Q compacted.
 * @param untouched - R's session: in the shared memory, and in an empty one.
 */
export function leakage(received: { withOther: string; alone: string }, untouched: { shared: string; empty: string }): Leakage {
  return { fromOther: extraLines(received.withOther, received.alone), intoUntouched: extraLines(untouched.shared, untouched.empty) };
}
