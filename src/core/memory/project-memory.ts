/**
 * What a new session is told of its project's earlier sessions: the model's
 * latest compaction summary, then what the compaction notes kept (open
 * problems, work in progress, decisions, concepts, files), merged across
 * notes and fitted to an exact token budget.
 *
 * Notes are read back from their stable headings (compaction-note.ts writes
 * them), so nothing is extracted twice. Merging rules:
 * - notes newest first; an item said again in an older note is kept once,
 *   with the date it was last said;
 * - problems and next steps describe a session's state when it compacted, so
 *   only the newest note of each session counts for them: an older note of
 *   the same session was superseded (its problems settled or restated);
 * - next steps come from the newest sessions only: older plans were picked up
 *   or dropped since;
 * - problems met and settled come last, as pitfalls not to step into again;
 * - decisions accumulate across notes; a decision the newest note of its
 *   session no longer carries was reversed or dropped and is left out.
 *
 * Everything read is data: each item becomes one plain line (no heading, no
 * link brackets, no control characters, secrets redacted), and the summary is
 * quoted line by line, so nothing stored can open a section of its own.
 */
import { redactSecrets } from '../text/secrets.js';
import { sanitizeText } from '../text/sanitize.js';
import { LINE_BREAK, normalizeLineBreaks, splitLines } from '../text/line-breaks.js';
import { fitLines } from '../text/fit-lines.js';
import { truncateToTokens } from '../text/tokens/token-truncation.js';
import { cutAtBoundary } from '../text/boundary-cut.js';
import type { TokenEncoding } from '../text/tokens/tokens.js';
import { digestLists } from './digest.js';

/** A compaction note as read back. */
export interface ProjectNoteText {
  uri: string;
  /** The note's body (frontmatter removed or not: both parse). */
  content: string;
}

/** The lists of one compaction note. */
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

/** Headings of the note's lists, as compaction-note.ts writes them. */
export const NOTE_SECTIONS = {
  concepts: 'Key Concepts',
  decisions: 'Decisions Made',
  problems: 'Open Problems',
  next: 'In Progress',
  met: 'Problems Met',
  files: 'Working Set',
} as const;

const MAX_ITEMS = { problems: 10, next: 8, decisions: 14, met: 6, concepts: 12, files: 10 } as const;
/** Sessions whose next steps are still current. */
const NEXT_SESSIONS = 2;
/** Longest item line, in characters. */
const MAX_ITEM_CHARS = 280;
/** Most tokens one item line may take. */
const MAX_ITEM_TOKENS = 90;
/** Longest note read, in characters: a note the plugin writes is a few kilobytes. */
const MAX_NOTE_CHARS = 64 * 1024;

const FIELD = /^\*\*(Session|Timestamp)\*\*:\s*(.*)$/;
const PLACEHOLDER = /^_.*_$/;

/** One stored line as plain text on one line: no controls, no link brackets, no markup that opens a block. */
function plainItem(text: string): string {
  // Breaks become spaces before sanitizing, which would drop VT, FF and NEL as controls and join the words around them.
  const plain = sanitizeText(text.replace(LINE_BREAK, ' '))
    .replace(/\[\[|\]\]/g, '')
    .replace(/`{3,}|~{3,}/g, '')
    .replace(/\s+/g, ' ')
    .replace(/^[#>\s-]+/, '')
    .trim();
  return cutAtBoundary(plain, MAX_ITEM_CHARS);
}

/**
 * Reads a compaction note's lists from its headings; lines under an unknown heading are ignored.
 *
 * @param note - the note as read back.
 */
export function parseCompactionNote(note: ProjectNoteText): ParsedCompactionNote {
  const parsed: ParsedCompactionNote = { uri: note.uri, session: '', timestamp: '', concepts: [], decisions: [], problems: [], next: [], met: [], files: [] };
  const sectionOf = new Map<string, keyof typeof NOTE_SECTIONS>(Object.entries(NOTE_SECTIONS).map(([key, heading]) => [heading.toLowerCase(), key as keyof typeof NOTE_SECTIONS]));
  let current: keyof typeof NOTE_SECTIONS | null = null;
  for (const raw of splitLines(note.content.slice(0, MAX_NOTE_CHARS))) {
    const line = raw.trim();
    const heading = /^##\s+(.+?)\s*#*$/.exec(line);
    if (heading && !line.startsWith('###')) {
      current = sectionOf.get((heading[1] as string).toLowerCase()) ?? null;
      continue;
    }
    const field = FIELD.exec(line);
    if (field) {
      if (field[1] === 'Session') parsed.session = (field[2] as string).trim().slice(0, 100);
      else parsed.timestamp = (field[2] as string).trim().slice(0, 40);
      continue;
    }
    if (current === null || !/^[-*]\s+/.test(line)) continue;
    const item = line.replace(/^[-*]\s+/, '');
    if (PLACEHOLDER.test(item)) continue;
    const text = plainItem(item);
    if (text) parsed[current].push(text);
  }
  return parsed;
}

/** What makes two items the same: letters and digits, lowercased, without a category prefix. */
function itemKey(text: string): string {
  return text
    .toLowerCase()
    .replace(/^[a-z ]{2,24}:\s*/, '')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim()
    .slice(0, 120);
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
function newestFirst(notes: readonly ParsedCompactionNote[]): ParsedCompactionNote[] {
  return [...notes].sort((a, b) => {
    const [atA, atB] = [instantOf(a.timestamp), instantOf(b.timestamp)];
    if (atA !== atB) return atA < atB ? 1 : -1;
    return a.uri < b.uri ? 1 : a.uri > b.uri ? -1 : 0;
  });
}

/** The merged lists of a project's notes, newest first, each item once. */
export interface MergedNotes {
  problems: string[];
  met: string[];
  next: string[];
  decisions: string[];
  concepts: string[];
  files: string[];
}

/**
 * Merges notes by the rules in this module's header.
 *
 * @param notes - parsed notes, any order.
 */
export function mergeProjectNotes(notes: readonly ParsedCompactionNote[]): MergedNotes {
  const ordered = newestFirst(notes);
  const newestOfSession = new Map<string, ParsedCompactionNote>();
  for (const note of ordered) if (!newestOfSession.has(note.session || note.uri)) newestOfSession.set(note.session || note.uri, note);
  const latest = [...newestOfSession.values()];
  const collect = (sources: readonly ParsedCompactionNote[], pick: (note: ParsedCompactionNote) => readonly string[], max: number, withDate: boolean): string[] => {
    const seen = new Set<string>();
    const items: string[] = [];
    for (const note of sources) {
      for (const item of pick(note)) {
        const key = itemKey(item);
        if (!key || seen.has(key)) continue;
        seen.add(key);
        items.push(withDate ? dated(item, note.timestamp) : item);
        if (items.length >= max) return items;
      }
    }
    return items;
  };
  // A decision the newest note of its session dropped was reversed there.
  const dropped = new Set<string>();
  for (const note of ordered) {
    const newest = newestOfSession.get(note.session || note.uri);
    if (!newest || newest === note) continue;
    const kept = new Set(newest.decisions.map(itemKey));
    for (const decision of note.decisions) if (!kept.has(itemKey(decision))) dropped.add(itemKey(decision));
  }
  const problems = collect(latest, (note) => note.problems, MAX_ITEMS.problems, true);
  const open = new Set(latest.flatMap((note) => note.problems.map(itemKey)));
  return {
    problems,
    met: collect(latest, (note) => note.met.filter((item) => !open.has(itemKey(item))), MAX_ITEMS.met, true),
    next: collect(latest.slice(0, NEXT_SESSIONS), (note) => note.next, MAX_ITEMS.next, false),
    decisions: collect(ordered, (note) => note.decisions.filter((decision) => !dropped.has(itemKey(decision))), MAX_ITEMS.decisions, true),
    concepts: collect(ordered, (note) => note.concepts, MAX_ITEMS.concepts, false),
    files: collect(latest.slice(0, 1), (note) => note.files, MAX_ITEMS.files, false),
  };
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
 * The block a new session of the project receives: fitted in whole lines to `totalBudget`, the summary
 * first within its own share, then open problems, work in progress, decisions, concepts and files.
 *
 * @param input - see {@link ProjectMemoryInput}.
 */
export function buildProjectMemory(input: ProjectMemoryInput): ProjectMemory {
  const notes = input.notes.map(parseCompactionNote);
  const merged = input.digest !== undefined ? digestLists(input.digest, input.notes, input.now ?? Date.now()).merged : mergeProjectNotes(notes);
  const empty: ProjectMemory = { text: '', tokens: 0, summary: false, problems: 0, next: 0, decisions: 0, notes: notes.length };
  const summaryText = input.summary ? quotedSummary(input.summary.text) : '';
  if (!summaryText && merged.problems.length + merged.next.length + merged.decisions.length + merged.concepts.length === 0) return empty;

  const redact = (line: string): string => redactSecrets(line).text;
  const item = (line: string): string => truncateToTokens(redact(line), MAX_ITEM_TOKENS, input.encoding);
  type Line = { text: string; kind: 'summary' | 'problems' | 'next' | 'decisions' | 'other' };
  const lines: Line[] = [];
  if (summaryText) {
    // The time comes from a state file: shown only when it is one.
    const at = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.exec(input.summary?.at ?? '')?.[0];
    const when = at ? ` (${at.replace('T', ' ')} UTC)` : '';
    const share = Math.max(0, Math.min(input.summaryBudget, input.totalBudget - 100));
    const cut = truncateToTokens(summaryText, share, input.encoding);
    if (cut) lines.push({ text: `\n### Latest compaction summary${when}\n${cut}${cut.length < summaryText.length ? '\n> …' : ''}`, kind: 'summary' });
  }
  const section = (title: string, items: readonly string[], kind: Line['kind']): void => {
    items.forEach((text, index) => lines.push({ text: index === 0 ? `\n### ${title}\n${item(text)}` : item(text), kind }));
  };
  section('Open problems', merged.problems, 'problems');
  section('In progress and next steps', merged.next.map((text) => `- ${text}`), 'next');
  section('Decisions', merged.decisions, 'decisions');
  section('Problems met before (settled or worked around)', merged.met, 'other');
  if (merged.concepts.length > 0) lines.push({ text: `\nKey concepts: ${merged.concepts.join(', ')}`, kind: 'other' });
  if (merged.files.length > 0) lines.push({ text: `Files in play: ${merged.files.join(', ')}`, kind: 'other' });

  const header = `${PROJECT_MEMORY_HEADING}\nWhat earlier sessions of the project ${plainItem(input.project) || 'project'} left in memory, newest first.`;
  const fitted = fitLines(
    lines.map((line) => line.text),
    input.totalBudget,
    { header, separator: '\n', encoding: input.encoding },
  );
  if (fitted.kept === 0) return empty;
  const kept = lines.slice(0, fitted.kept);
  const count = (kind: Line['kind']): number => kept.filter((line) => line.kind === kind).length;
  return { text: fitted.text, tokens: fitted.tokens, summary: count('summary') > 0, problems: count('problems'), next: count('next'), decisions: count('decisions'), notes: notes.length };
}
