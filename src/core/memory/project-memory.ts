/**
 * What a new session is told of its project's earlier sessions: the model's
 * latest compaction summary, then what the session notes kept (open
 * problems, work in progress, decisions, problems met, concepts, files),
 * merged across notes and fitted to an exact token budget.
 *
 * Notes are read back by session-note.ts, each item with its kind and its
 * source, so nothing is extracted twice. Merging rules, per kind as the
 * item-kind table says, and per source: for each source, the newest note of
 * a session that carries items of that source stands for the session.
 * - notes newest first; an item said again in an older note is kept once,
 *   with the date it was last said;
 * - problems and next steps describe a session's state when it compacted, so
 *   only the newest note of each session counts for them: an older note of
 *   the same session was superseded (its problems settled or restated);
 * - next steps come from the newest sessions only: older plans were picked up
 *   or dropped since;
 * - problems met and settled come last, as pitfalls not to step into again;
 *   a problem settled in a later note is no longer open;
 * - decisions accumulate across notes; a decision the newest note of its
 *   session no longer carries, or that a later note reversed, is left out;
 * - within each kind the model's items come first, and extracted ones fill
 *   only what the model left out (one that restates a model item is dropped).
 *
 * Everything read is data: each item becomes one plain line (no heading, no
 * link brackets, no control characters, secrets redacted), and the summary is
 * quoted line by line, so nothing stored can open a section of its own. The
 * quote keeps only the summary's prose: its lists are shown as items.
 */
import { redactSecrets } from '../text/secrets.js';
import { sanitizeText } from '../text/sanitize.js';
import { normalizeLineBreaks, splitLines } from '../text/line-breaks.js';
import { fitLines } from '../text/fit-lines.js';
import { truncateToTokens } from '../text/tokens/token-truncation.js';
import type { TokenEncoding } from '../text/tokens/tokens.js';
import { ITEM_KINDS, KIND_ORDER, type ItemKind, type ItemSource, type MemoryItem } from './item-kinds.js';
import { parseSessionNote, plainItem, type MergedNotes, type ParsedSessionNote, type ProjectNoteText } from './session-note.js';

export type { MergedNotes, ProjectNoteText } from './session-note.js';
import { parseSummaryLists } from './summary-lists.js';
import { digestBlockItems, digestKey, digestLists } from './digest.js';


/** The lists of one compaction note, by kind, without their sources: {@link parseSessionNote} gives them. */
export interface ParsedCompactionNote {
  uri: string;
  session: string;
  /** ISO time of the compaction; '' when the note does not say. */
  timestamp: string;
  concepts: string[];
  decisions: string[];
  problems: string[];
  next: string[];
  /** Problems met and settled or worked around. */
  met: string[];
  files: string[];
}

/** Input of {@link buildProjectMemory}. */
export interface ProjectMemoryInput {
  /** The project's name, for the heading. */
  project: string;
  /** Its compaction notes, any order (sorted here by their timestamps). */
  notes: ProjectNoteText[];
  /**
   * The project's memory digest (digest.ts), `null` when it has none yet; `notes` are then only those
   * it has not folded, and the block shows the digest with them folded in. Absent: `notes` alone are merged.
   */
  digest?: ProjectNoteText | null;
  /** When the digest's items are ranked, UTC milliseconds. @default Date.now() */
  now?: number;
  /** The latest compaction summary, with when it was written. */
  summary: { text: string; at: string } | null;
  /** Most tokens of the whole block. */
  totalBudget: number;
  /** Most tokens of the summary's share. */
  summaryBudget: number;
  encoding: TokenEncoding;
}

/** The fitted block and what it holds. */
export interface ProjectMemory {
  /** Empty when there is nothing to say. */
  text: string;
  /** Exact count of `text`. */
  tokens: number;
  summary: boolean;
  problems: number;
  next: number;
  decisions: number;
  notes: number;
}

/** The heading of the block. */
export const PROJECT_MEMORY_HEADING = '## Project Memory';

/** Most tokens one item line may take. */
const MAX_ITEM_TOKENS = 90;

/**
 * A compaction note's lists by kind, whoever wrote each item.
 *
 * @deprecated read notes with {@link parseSessionNote}, which keeps each item's source.
 * @param note - the note as read back.
 */
export function parseCompactionNote(note: ProjectNoteText): ParsedCompactionNote {
  const { uri, session, timestamp, items } = parseSessionNote(note);
  const of = (kind: ItemKind): string[] => items.filter((item) => item.kind === kind).map((item) => item.text);
  return { uri, session, timestamp, concepts: of('concept'), decisions: of('decision'), problems: of('problem'), next: of('next'), met: of('met'), files: of('file') };
}

/** What makes two items the same in the block: the digest's key, on its first 120 characters. */
function itemKey(text: string): string {
  return digestKey(text).slice(0, 120);
}

/** The UTC day of a note's timestamp, whatever offset it was written with. */
function dayOf(timestamp: string): string {
  const at = instantOf(timestamp);
  return Number.isFinite(at) ? new Date(at).toISOString().slice(0, 10) : '';
}

function dated(text: string, timestamp: string): string {
  const day = dayOf(timestamp);
  return day ? `- (${day}) ${text}` : `- ${text}`;
}

/** A note's time as UTC milliseconds: a timestamp with an offset (another writer's) compares by the instant, not its text. */
function instantOf(timestamp: string): number {
  const at = /^\d{4}-\d{2}-\d{2}T/.test(timestamp) ? Date.parse(timestamp) : Number.NaN;
  return Number.isNaN(at) ? Number.NEGATIVE_INFINITY : at;
}

/** Notes newest first: by the instant of their timestamp, then by URI (a note's slug carries its UTC time). */
function newestFirst(notes: readonly ParsedSessionNote[]): ParsedSessionNote[] {
  return [...notes].sort((a, b) => {
    const [atA, atB] = [instantOf(a.timestamp), instantOf(b.timestamp)];
    if (atA !== atB) return atA < atB ? 1 : -1;
    return a.uri < b.uri ? 1 : a.uri > b.uri ? -1 : 0;
  });
}


/** An item as the block shows it: with the time of the newest note that said it. */
export interface BlockItem extends MemoryItem {
  /** The note's timestamp; '' when it had none. */
  at: string;
}

/** The merged items of a project's notes by kind, each kind model items first, each item once. */
export type MergedItems = Record<ItemKind, BlockItem[]>;

const SOURCES: readonly ItemSource[] = ['model', 'heuristic'];

/** The words of an item, for telling whether one says what another does. */
function wordsOf(key: string): Set<string> {
  return new Set(key.split(' ').filter((word) => word.length > 1));
}

/**
 * Whether an extracted item restates an item the model wrote: the same text, or most of the shorter's
 * words in the longer.
 */
function restates(key: string, words: Set<string>, model: ReadonlyArray<{ key: string; words: Set<string> }>): boolean {
  return model.some((other) => {
    if (other.key === key) return true;
    const [small, large] = words.size <= other.words.size ? [words, other.words] : [other.words, words];
    if (small.size < 3) return false;
    let shared = 0;
    for (const word of small) if (large.has(word)) shared += 1;
    return shared / small.size >= 0.8;
  });
}

/** Whether a reversal names the decision: the same text, or the decision's text within it. */
function reverses(reversal: string, decision: string): boolean {
  return reversal === decision || (decision.length >= 12 && reversal.includes(decision));
}

/**
 * Merges notes by the rules in this module's header, per item source: for each source, the newest note of
 * a session that carries items of that source stands for the session.
 *
 * @param notes - parsed notes, any order.
 */
export function mergeProjectNotes(notes: readonly ParsedSessionNote[]): MergedItems {
  const ordered = newestFirst(notes);
  const sessionOf = (note: ParsedSessionNote): string => note.session || note.uri;
  // Per source: each session's newest note carrying items of it, sessions newest first.
  const latest = new Map<ItemSource, ParsedSessionNote[]>();
  const dropped = new Set<string>();
  for (const source of SOURCES) {
    const newest = new Map<string, ParsedSessionNote>();
    for (const note of ordered) if (note.items.some((item) => item.source === source) && !newest.has(sessionOf(note))) newest.set(sessionOf(note), note);
    latest.set(source, [...newest.values()]);
    // A decision the newest note of its session (for the decision's source) dropped was reversed there.
    for (const note of ordered) {
      const head = newest.get(sessionOf(note));
      if (!head || head === note) continue;
      const kept = new Set(head.items.filter((item) => item.kind === 'decision' && item.source === source).map((item) => itemKey(item.text)));
      for (const item of note.items) if (item.kind === 'decision' && item.source === source && !kept.has(itemKey(item.text))) dropped.add(`${source}\u0000${itemKey(item.text)}`);
    }
  }
  // Reversals and settlements count against what older notes said: a decision made again later stands.
  const reversedBefore = new Map<ParsedSessionNote, string[]>();
  const settledAfter = new Map<ParsedSessionNote, Set<string>>();
  const reversals: string[] = [];
  const settled = new Set<string>();
  for (const note of ordered) {
    settledAfter.set(note, new Set(settled));
    for (const item of note.items) if (item.kind === 'reversed') reversals.push(itemKey(item.text));
    reversedBefore.set(note, [...reversals]);
    for (const item of note.items) if (item.kind === 'met') settled.add(itemKey(item.text));
  }
  const openKeys = new Set<string>();
  for (const source of SOURCES) for (const note of latest.get(source) ?? []) for (const item of note.items) if (item.kind === 'problem' && !(settledAfter.get(note)?.has(itemKey(item.text)) ?? false)) openKeys.add(itemKey(item.text));

  const keeps = (note: ParsedSessionNote, item: MemoryItem): boolean => {
    const key = itemKey(item.text);
    if (item.kind === 'decision') return !dropped.has(`${item.source}\u0000${key}`) && !(reversedBefore.get(note) ?? []).some((reversal) => reverses(reversal, key));
    if (item.kind === 'problem') return !(settledAfter.get(note)?.has(key) ?? false);
    if (item.kind === 'met') return !openKeys.has(key);
    return true;
  };
  const merged = {} as MergedItems;
  for (const kind of KIND_ORDER) {
    const spec = ITEM_KINDS[kind];
    const items: BlockItem[] = [];
    const model: Array<{ key: string; words: Set<string> }> = [];
    const seen = new Set<string>();
    for (const source of SOURCES) {
      const from = spec.memory.kind === 'accumulates' ? ordered : (latest.get(source) ?? []).slice(0, spec.memory.sessions);
      for (const note of from) {
        for (const item of note.items) {
          if (items.length >= spec.maxInBlock) break;
          if (item.kind !== kind || item.source !== source || !keeps(note, item)) continue;
          const key = itemKey(item.text);
          const words = wordsOf(key);
          // Model items first; an extracted one only for what the model left out.
          if (!key || seen.has(key) || (source === 'heuristic' && restates(key, words, model))) continue;
          seen.add(key);
          if (source === 'model') model.push({ key, words });
          items.push({ ...item, at: note.timestamp });
        }
      }
    }
    merged[kind] = items;
  }
  return merged;
}

/** The summary as quoted lines: its own headings and fences cannot open anything in the block. */
function quotedSummary(text: string): string {
  // Every break a reader honours splits here (a lone CR, NEL, U+2028…): a line of the summary left unsplit would open a line of its own.
  return splitLines(redactSecrets(sanitizeText(normalizeLineBreaks(text))).text)
    .map((line) => line.trimEnd())
    .filter((line, index, lines) => line !== '' || (index > 0 && lines[index - 1] !== ''))
    .map((line) => (line ? `> ${line}` : '>'))
    .join('\n')
    .trim();
}

/**
 * The part of the summary the quote keeps: its prose, when its lists are shown as items; the whole summary
 * when none of them is (its items never reached a note), so nothing it says is lost.
 */
function summaryProse(text: string, merged: MergedItems): string {
  const lists = parseSummaryLists(text);
  const shown = new Set(KIND_ORDER.flatMap((kind) => merged[kind].filter((item) => item.source === 'model').map((item) => itemKey(item.text))));
  return lists.items.some((item) => shown.has(itemKey(item.text))) ? lists.prose : text;
}

/** What {@link renderProjectMemory} renders: the merged items, the summary and the budgets. */
export interface ProjectMemoryRender extends Omit<ProjectMemoryInput, 'notes'> {
  items: MergedItems;
  /** How many notes the items were merged from, for the report. */
  notes: number;
}

/**
 * The block from merged items: fitted in whole lines to `totalBudget`, the summary first within its own
 * share (only its prose: what became items is shown as items), then each kind in the table's order.
 *
 * @param input - see {@link ProjectMemoryRender}.
 */
export function renderProjectMemory(input: ProjectMemoryRender): ProjectMemory {
  const merged = input.items;
  const empty: ProjectMemory = { text: '', tokens: 0, summary: false, problems: 0, next: 0, decisions: 0, notes: input.notes };
  const summaryText = input.summary ? quotedSummary(summaryProse(input.summary.text, merged)) : '';
  if (!summaryText && merged.problem.length + merged.next.length + merged.decision.length + merged.concept.length === 0) return empty;

  const redact = (line: string): string => redactSecrets(line).text;
  const item = (line: string): string => truncateToTokens(redact(line), MAX_ITEM_TOKENS, input.encoding);
  type Line = { text: string; kind: ItemKind | 'summary' };
  const lines: Line[] = [];
  if (summaryText) {
    // The time comes from a state file: shown only when it is one.
    const at = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.exec(input.summary?.at ?? '')?.[0];
    const when = at ? ` (${at.replace('T', ' ')} UTC)` : '';
    const share = Math.max(0, Math.min(input.summaryBudget, input.totalBudget - 100));
    const cut = truncateToTokens(summaryText, share, input.encoding);
    if (cut) lines.push({ text: `\n### Latest compaction summary${when}\n${cut}${cut.length < summaryText.length ? '\n> …' : ''}`, kind: 'summary' });
  }
  let inline = 0;
  for (const kind of KIND_ORDER) {
    const spec = ITEM_KINDS[kind];
    const items = merged[kind];
    if (!spec.blockHeading || items.length === 0) continue;
    if (spec.shown === 'inline') {
      lines.push({ text: `${inline++ === 0 ? '\n' : ''}${spec.blockHeading}: ${items.map((entry) => entry.text).join(', ')}`, kind });
      continue;
    }
    items.forEach((entry, index) => {
      const text = item(spec.dated ? dated(entry.text, entry.at) : `- ${entry.text}`);
      lines.push({ text: index === 0 ? `\n### ${spec.blockHeading}\n${text}` : text, kind });
    });
  }

  const header = `${PROJECT_MEMORY_HEADING}\nWhat earlier sessions of the project ${plainItem(input.project) || 'project'} left in memory, newest first.`;
  const fitted = fitLines(
    lines.map((line) => line.text),
    input.totalBudget,
    { header, separator: '\n', encoding: input.encoding },
  );
  if (fitted.kept === 0) return empty;
  const kept = lines.slice(0, fitted.kept);
  const count = (kind: Line['kind']): number => kept.filter((line) => line.kind === kind).length;
  return { text: fitted.text, tokens: fitted.tokens, summary: count('summary') > 0, problems: count('problem'), next: count('next'), decisions: count('decision'), notes: input.notes };
}

/**
 * The block a new session of the project receives, from its notes: read back, merged and rendered.
 *
 * @param input - see {@link ProjectMemoryInput}.
 */
export function buildProjectMemory(input: ProjectMemoryInput): ProjectMemory {
  const { notes, digest, now, ...rest } = input;
  const parsed = notes.map(parseSessionNote);
  const items = digest !== undefined ? digestBlockItems(digestLists(digest, notes, now ?? Date.now()).digest) : mergeProjectNotes(parsed);
  return renderProjectMemory({ ...rest, items, notes: parsed.length });
}
