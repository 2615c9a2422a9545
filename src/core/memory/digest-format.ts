/**
 * A project's memory digest as one markdown note, the same in both stores:
 * every decision not reversed and every problem not settled, the next steps
 * of the newest sessions, the problems met before, the concepts and the
 * newest files, each with a short stable id, who wrote it, when it was first
 * seen and last confirmed, and how often; then the ids the user made the
 * project forget, the newest note folded in, and the marks of every note
 * folded (digest-marks.ts), so a note that arrives late is folded once all
 * the same.
 *
 * Fields are read only above the first `## ` heading and items only as
 * `- [id] …` lines under a known heading, and an item's text is written as
 * one plain line after the fixed fields: a stored line can never forge a
 * heading, a field or another item. A damaged digest parses to what it can
 * and never throws; what does not parse is left out, never guessed.
 */
import { LINE_BREAK, splitLines } from '../text/line-breaks.js';
import { sanitizeText } from '../text/sanitize.js';
import { ITEM_KINDS, type ItemKind, type ItemSource, type MemoryItem } from './item-kinds.js';
import { MARK, noteMark, type FoldedMarks } from './digest-marks.js';

/** The kinds a digest keeps: a reversed decision is applied, never kept. */
export type DigestKind = Exclude<ItemKind, 'reversed'>;

/** The kinds in the order the digest lists them. */
export const DIGEST_KINDS: readonly DigestKind[] = ['decision', 'problem', 'next', 'met', 'concept', 'file'];

/** One item of the digest. */
export interface DigestItem extends MemoryItem {
  kind: DigestKind;
  /** Short and stable: the kind's letter and a hash of the item's normalized text. */
  id: string;
  /** UTC day (`YYYY-MM-DD`) of the note that first held it; '' when no note said. */
  firstSeen: string;
  /** UTC day of the newest note that held it. */
  lastConfirmed: string;
  /** How many notes held it. */
  confirmed: number;
  /** The session of the newest note that held it. */
  session: string;
}

/** A forgotten item: its id, and its text for the person reading the note. */
export interface ForgottenItem {
  id: string;
  text: string;
}

/** A project's digest. */
export interface Digest {
  /** The concept the note links (maenifold refuses a note without a link). */
  concept: string;
  key: string;
  items: DigestItem[];
  forgotten: ForgottenItem[];
  /** The newest note folded in; `null` before the first. */
  folded: { timestamp: string; uri: string } | null;
  /** Every note folded, by mark: what a pass and session start take as not to fold again. */
  foldedMarks: FoldedMarks;
  /** The reversals folded, newest last, with their note's day: a note older than one keeps a decision it reversed out. */
  reversals: { day: string; text: string }[];
  /** The newest sessions folded, newest first: their next steps are still current. */
  sessions: string[];
}

/** Longest item text kept, in characters. */
export const MAX_DIGEST_ITEM_CHARS = 280;
/** Longest digest read, in characters: a full one is about 50 KB. */
export const MAX_DIGEST_CHARS = 256 * 1024;

const LETTER: Readonly<Record<DigestKind, string>> = { decision: 'd', problem: 'p', next: 'n', met: 'm', concept: 'c', file: 'f' };
const FORGOTTEN_HEADING = 'Forgotten';
const FOLDED_HEADING = 'Folded Notes';
const REVERSALS_HEADING = ITEM_KINDS.reversed.noteHeading;
const REVERSAL_LINE = /^- (\d{4}-\d{2}-\d{2}|-) \| (.+)$/;
const DAY = /^\d{4}-\d{2}-\d{2}$/;
const ITEM_LINE = /^- \[([a-z][0-9a-f]{8})\] (model|heuristic) first (\d{4}-\d{2}-\d{2}|-) last (\d{4}-\d{2}-\d{2}|-) x(\d{1,7}) session ([A-Za-z0-9_-]{1,100}) \| (.+)$/;
const FORGOTTEN_LINE = /^- \[([a-z][0-9a-f]{8})\](?: \| (.*))?$/;
const FIELD = /^\*\*(Project|Project key|Folded through|Folded floor|Recent sessions)\*\*:[ \t]*(.*)$/;
const FOLDED_LINE = /^- (\S+)$/;
const SESSION = /^[A-Za-z0-9_-]{1,100}$/;

/**
 * An item's text as one plain line: no breaks, controls, link brackets, fences or leading markup, at
 * most {@link MAX_DIGEST_ITEM_CHARS}, cut at a word.
 *
 * @param text - the item as a note or the user gave it.
 */
export function digestText(text: string): string {
  const plain = sanitizeText(text.replace(LINE_BREAK, ' '))
    .replace(/\[\[|\]\]/g, '')
    .replace(/`{3,}|~{3,}/g, '')
    .replace(/\s+/g, ' ')
    .replace(/^[#>*\s-]+/, '')
    .trim();
  if (plain.length <= MAX_DIGEST_ITEM_CHARS) return plain;
  const cut = plain.slice(0, MAX_DIGEST_ITEM_CHARS);
  const space = cut.lastIndexOf(' ');
  return space > MAX_DIGEST_ITEM_CHARS / 2 ? cut.slice(0, space) : cut;
}

/**
 * What makes two items the same: letters and digits, lowercased, without a category prefix
 * (`architecture: …`), as the Project Memory block merges them.
 *
 * @param text - an item's text.
 */
export function digestKey(text: string): string {
  return text
    .toLowerCase()
    .replace(/^\(summary\)\s*/, '')
    .replace(/^[a-z ]{2,24}:\s*/, '')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim()
    .slice(0, 200);
}

/** FNV-1a, 32 bits: pure and the same on every thread, enough to tell a project's few hundred items apart. */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index += 1) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

/**
 * An item's id: the kind's letter and eight hex digits of its normalized text, so the same item
 * restated in any later note has the same id.
 *
 * @param kind - the item's kind.
 * @param text - its text (normalized here).
 */
export function digestId(kind: DigestKind, text: string): string {
  return `${LETTER[kind]}${fnv1a(`${kind}\u0000${digestKey(text)}`).toString(16).padStart(8, '0')}`;
}

/** A digest with nothing in it yet. */
export function emptyDigest(concept: string, key: string): Digest {
  return { concept, key, items: [], forgotten: [], folded: null, foldedMarks: { floor: '', marks: [] }, reversals: [], sessions: [] };
}

function itemLine(item: DigestItem): string {
  const first = DAY.test(item.firstSeen) ? item.firstSeen : '-';
  const last = DAY.test(item.lastConfirmed) ? item.lastConfirmed : '-';
  const session = SESSION.test(item.session) ? item.session : 'unknown';
  return `- [${item.id}] ${item.source} first ${first} last ${last} x${Math.max(1, Math.floor(item.confirmed))} session ${session} | ${digestText(item.text)}`;
}

/**
 * The digest's markdown. The project's concept sits on a line of its own, outside code, as the link
 * maenifold needs.
 *
 * @param digest - the digest, its items in the order they are ranked.
 */
export function formatDigest(digest: Digest): string {
  const concept = digestText(digest.concept).replace(/\s+/g, '-') || 'project';
  const folded = digest.folded && /^\S+$/.test(digest.folded.timestamp) && /^memory:\/\/\S+$/.test(digest.folded.uri) ? `${digest.folded.timestamp} ${digest.folded.uri}` : '-';
  const lines = [
    '# Memory Digest',
    '',
    `**Project**: [[${concept}]]`,
    `**Project key**: ${digestText(digest.key).replace(/\s+/g, '-')}`,
    `**Folded through**: ${folded}`,
    ...(MARK.test(digest.foldedMarks.floor) ? [`**Folded floor**: ${digest.foldedMarks.floor}`] : []),
    `**Recent sessions**: ${digest.sessions.filter((session) => SESSION.test(session)).join(' ') || '-'}`,
    '',
    'What the sessions of this project decided and left open, kept until reversed, settled or forgotten. Written by opencode-maenifold at each compaction; `opencode-maenifold forget <id>` drops an item for good.',
  ];
  for (const kind of DIGEST_KINDS) {
    const items = digest.items.filter((item) => item.kind === kind && digestText(item.text));
    if (items.length > 0) lines.push('', `## ${ITEM_KINDS[kind].noteHeading}`, '', ...items.map(itemLine));
  }
  if (digest.forgotten.length > 0) lines.push('', `## ${FORGOTTEN_HEADING}`, '', ...digest.forgotten.map((item) => `- [${item.id}]${item.text ? ` | ${digestText(item.text)}` : ''}`));
  const reversals = digest.reversals.filter((reversal) => digestText(reversal.text));
  if (reversals.length > 0) lines.push('', `## ${REVERSALS_HEADING}`, '', ...reversals.map((reversal) => `- ${DAY.test(reversal.day) ? reversal.day : '-'} | ${digestText(reversal.text)}`));
  // Last, so the items a person reads come first.
  const marks = digest.foldedMarks.marks.filter((mark) => MARK.test(mark));
  if (marks.length > 0) lines.push('', `## ${FOLDED_HEADING}`, '', ...marks.map((mark) => `- ${mark}`));
  return `${lines.join('\n')}\n`;
}

/**
 * Reads a digest back. Never throws: a damaged field is left at its empty value, a damaged item line is
 * skipped, an item under a heading it does not belong to is skipped too.
 *
 * @param content - the note's body (frontmatter removed or not).
 * @param concept - the project's concept, used when the note has none.
 * @param key - the project's key, used when the note has none.
 */
export function parseDigest(content: string, concept: string, key: string): Digest {
  const digest = emptyDigest(concept, key);
  const kindOf = new Map<string, DigestKind | 'forgotten' | 'folded' | 'reversals'>(DIGEST_KINDS.map((kind) => [ITEM_KINDS[kind].noteHeading.toLowerCase(), kind]));
  kindOf.set(FORGOTTEN_HEADING.toLowerCase(), 'forgotten');
  kindOf.set(FOLDED_HEADING.toLowerCase(), 'folded');
  kindOf.set(REVERSALS_HEADING.toLowerCase(), 'reversals');
  const seen = new Set<string>();
  const marks = new Set<string>();
  let section: DigestKind | 'forgotten' | 'folded' | 'reversals' | null = null;
  let header = true;
  for (const raw of splitLines(typeof content === 'string' ? content.slice(0, MAX_DIGEST_CHARS) : '')) {
    const line = raw.trim();
    const heading = /^##\s+(.+?)\s*#*$/.exec(line);
    if (heading && !line.startsWith('###')) {
      header = false;
      section = kindOf.get((heading[1] as string).toLowerCase()) ?? null;
      continue;
    }
    if (header) {
      const field = FIELD.exec(line);
      if (!field) continue;
      const value = (field[2] as string).trim();
      const link = /^\[\[([^\[\]\n]{1,100})\]\]$/.exec(value);
      if (field[1] === 'Project' && link) digest.concept = link[1] as string;
      else if (field[1] === 'Project key' && /^[a-z0-9-]{1,80}$/.test(value)) digest.key = value;
      else if (field[1] === 'Folded through') {
        const [timestamp, uri] = value.split(/\s+/);
        if (timestamp && uri?.startsWith('memory://') && /^\d{4}-\d{2}-\d{2}T/.test(timestamp)) digest.folded = { timestamp: timestamp.slice(0, 40), uri: uri.slice(0, 1000) };
      } else if (field[1] === 'Folded floor' && MARK.test(value)) digest.foldedMarks.floor = value;
      else if (field[1] === 'Recent sessions') digest.sessions = value.split(/\s+/).filter((session) => SESSION.test(session)).slice(0, 8);
      continue;
    }
    if (section === 'folded') {
      const mark = FOLDED_LINE.exec(line)?.[1];
      if (mark && MARK.test(mark)) marks.add(mark);
      continue;
    }
    if (section === 'reversals') {
      const reversal = REVERSAL_LINE.exec(line);
      const text = reversal ? digestText(reversal[2] as string) : '';
      if (reversal && text) digest.reversals.push({ day: reversal[1] === '-' ? '' : (reversal[1] as string), text });
      continue;
    }
    if (section === 'forgotten') {
      const forgotten = FORGOTTEN_LINE.exec(line);
      if (forgotten && !digest.forgotten.some((item) => item.id === forgotten[1])) digest.forgotten.push({ id: forgotten[1] as string, text: digestText(forgotten[2] ?? '') });
      continue;
    }
    const match = section ? ITEM_LINE.exec(line) : null;
    if (!section || !match) continue;
    const [, id, source, first, last, times, session, text] = match as unknown as [string, string, ItemSource, string, string, string, string, string];
    const plain = digestText(text);
    // An id that is not its text's (a hand edit, another kind's line) is taken as the text says.
    const ownId = digestId(section, plain);
    if (!plain || id[0] !== ownId[0] || seen.has(ownId)) continue;
    seen.add(ownId);
    digest.items.push({ kind: section, id: ownId, text: plain, source, firstSeen: first === '-' ? '' : first, lastConfirmed: last === '-' ? '' : last, confirmed: Math.max(1, Number(times)), session });
  }
  digest.foldedMarks.marks = [...marks].filter((mark) => mark > digest.foldedMarks.floor).sort();
  // A digest of the first format recorded only its newest note, all before it folded.
  if (digest.folded && digest.foldedMarks.floor === '' && digest.foldedMarks.marks.length === 0) digest.foldedMarks.floor = noteMark(digest.folded.uri, digest.key);
  return digest;
}

/**
 * Which notes a digest folded, read from its fields and its last section only: what the hook thread needs
 * to know which notes to fold on the way, without parsing the whole digest.
 *
 * @param content - the digest's body.
 * @param key - the project's key, used when the digest has none (its marks are the slugs after it).
 */
export function digestFoldedMarks(content: string, key: string): FoldedMarks {
  const text = typeof content === 'string' ? content.slice(0, MAX_DIGEST_CHARS) : '';
  const head = text.slice(0, 4096);
  const end = head.search(/\n##\s/);
  const section = text.lastIndexOf(`\n## ${FOLDED_HEADING}\n`);
  return parseDigest(`${end < 0 ? head : head.slice(0, end)}\n${section < 0 ? '' : text.slice(section)}`, '', key).foldedMarks;
}
