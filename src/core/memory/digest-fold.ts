/**
 * Folding session notes into a project's digest, oldest note first:
 * - an item said again is confirmed: its last day, count and session move on; a model item confirmed
 *   by an extracted restatement stays the model's, an extracted one the model restates becomes the model's;
 * - decisions accumulate until reversed: by a `reversed` item naming them (the same normalized text, or
 *   most of its words), or when the newest note of the session that last said one no longer says it
 *   (a note with no item of the model's says nothing of the model's items: the compaction note before
 *   the summary arrives);
 * - problems stay until settled: by a `met` item of the same text, or when the newest note of their
 *   session no longer lists them; a settled problem is kept as met, a pitfall;
 * - next steps come from the newest sessions only, files from the newest note only; concepts accumulate;
 * - a forgotten id never comes back;
 * - each note is folded once, whatever order notes reach the store in: one older than a note already
 *   folded (another process's, or one the outbox delivered late) adds and confirms what it says, but
 *   takes nothing from what newer notes said (see {@link foldOne});
 * - each kind is bounded: past its bound the least confirmed go first (and are reported).
 */
import type { MemoryItem } from './item-kinds.js';
import { digestId, digestKey, digestText, DIGEST_KINDS, type Digest, type DigestItem, type DigestKind } from './digest-format.js';
import { isFolded, lateness, noteMark, withFoldedMarks } from './digest-marks.js';

/** A session note as the fold takes it. */
export interface FoldNote {
  uri: string;
  session: string;
  /** ISO time of the note; '' when it does not say. */
  timestamp: string;
  items: MemoryItem[];
}

/** The digest after a fold, and what its bounds dropped. */
export interface FoldResult {
  digest: Digest;
  dropped: DigestItem[];
}

/** Most items kept per kind: several times what the block shows, so an item outranked for a while is not lost. */
export const DIGEST_BOUNDS: Readonly<Record<DigestKind, number>> = { decision: 60, problem: 25, next: 10, met: 15, concept: 24, file: 12 };

/** Forgotten ids kept, and the characters of each one's text kept for the reader. */
const MAX_FORGOTTEN = 500;
const MAX_FORGOTTEN_TEXT = 120;

/** Reversals kept, newest first, for the notes that arrive after them. */
const MAX_REVERSALS = 60;

/** Sessions whose next steps are still current. */
const NEXT_SESSIONS = 2;

/**
 * The exponent of the decay. 0.5 is ACT-R's base-level decay, the power law maenifold ranks its own memory
 * with: an item confirmed a day ago weighs 0.71 of today's, a month ago 0.18, a year ago 0.05, so an old
 * item still outranks nothing but stays, as the digest's items must.
 */
export const DECAY_ALPHA = 0.5;

const DAY_MS = 86_400_000;

/** A note's time as UTC milliseconds; -Infinity when it has none. */
function instantOf(timestamp: string): number {
  const at = /^\d{4}-\d{2}-\d{2}T/.test(timestamp) ? Date.parse(timestamp) : Number.NaN;
  return Number.isNaN(at) ? Number.NEGATIVE_INFINITY : at;
}

function dayOf(timestamp: string): string {
  const at = instantOf(timestamp);
  return Number.isFinite(at) ? new Date(at).toISOString().slice(0, 10) : '';
}

/**
 * An item's rank: weight × (1 + age in days since last confirmed)^-α, the weight growing with the
 * square root of how often it was confirmed (each restatement is evidence, with diminishing returns).
 *
 * @param item - the item.
 * @param now - the time ranked at, UTC milliseconds.
 */
export function digestScore(item: DigestItem, now: number): number {
  const last = Date.parse(`${item.lastConfirmed}T00:00:00Z`);
  const age = Number.isFinite(last) ? Math.max(0, (now - last) / DAY_MS) : 365;
  return Math.sqrt(Math.max(1, item.confirmed)) * (1 + age) ** -DECAY_ALPHA;
}

/**
 * Items in the order they are shown: by kind, the model's before the extracted ones, then by score;
 * at equal score in the order given (the fold's: what the newest note said first).
 *
 * @param items - in the fold's order, which ties keep.
 * @param now - the time ranked at.
 */
export function rankDigestItems(items: readonly DigestItem[], now: number): DigestItem[] {
  const kindRank = new Map(DIGEST_KINDS.map((kind, index) => [kind, index]));
  return items
    .map((item) => ({ item, score: digestScore(item, now) }))
    .sort((a, b) => (kindRank.get(a.item.kind) ?? 0) - (kindRank.get(b.item.kind) ?? 0) || Number(a.item.source !== 'model') - Number(b.item.source !== 'model') || b.score - a.score)
    .map(({ item }) => item);
}

function words(text: string): Set<string> {
  return new Set(digestKey(text).split(' ').filter((word) => word.length > 1));
}

/** Whether a reversal names a decision: the same text, or most of the decision's words. */
function names(reversal: string, decision: string): boolean {
  if (digestKey(reversal) === digestKey(decision)) return true;
  const [said, made] = [words(reversal), words(decision)];
  if (made.size < 2) return false;
  const shared = [...made].filter((word) => said.has(word)).length;
  return shared / made.size >= 0.8 || shared / new Set([...said, ...made]).size >= 0.6;
}

/** Whether one text restates another: the same words, or most of the shorter's words (three at least) in the longer. */
function restates(a: string, b: string): boolean {
  const [one, other] = [words(a), words(b)];
  const [small, large] = one.size <= other.size ? [one, other] : [other, one];
  if (digestKey(a) === digestKey(b)) return true;
  if (small.size < 3) return false;
  return [...small].filter((word) => large.has(word)).length / small.size >= 0.8;
}

/** Notes oldest first: by instant, then by URI (a note's slug carries its time). */
function oldestFirst(notes: readonly FoldNote[]): FoldNote[] {
  return [...notes].sort((a, b) => instantOf(a.timestamp) - instantOf(b.timestamp) || (a.uri < b.uri ? -1 : a.uri > b.uri ? 1 : 0));
}

/** How a note stands to those folded before it. */
interface NoteAge {
  /** Older than a note already folded: its session is not the newest, its files not the working set. */
  late: boolean;
  /** Its own session has a newer note folded, which said what of the session still holds. */
  superseded: boolean;
}

/**
 * Folds one note. A late note (see {@link NoteAge}) is folded as the older word it is: it adds and
 * confirms items but moves no item's session and no recent session; a reversal or a settling it makes
 * reaches only items not confirmed after its day; and a superseded one drops nothing of its session, adds
 * none of its next steps, and adds an item only where the newer note of its session said nothing of that
 * source (what that note left out, it dropped).
 */
function foldOne(items: Map<string, DigestItem>, forgotten: ReadonlySet<string>, note: FoldNote, sessions: string[], reversed: { day: string; text: string }[], age: NoteAge): void {
  const day = dayOf(note.timestamp);
  const session = note.session.replace(/[^A-Za-z0-9_-]/g, '').slice(0, 100) || 'unknown';
  const spoken = new Set([...items.values()].filter((item) => item.session === session).map((item) => item.source));
  const older = (item: DigestItem): boolean => !age.late || !day || item.lastConfirmed <= day;
  // Each item said, under the id of the item it confirms: its own, or a model item an extraction restates (and the other way round).
  const said = new Map<string, { kind: DigestKind; text: string; model: boolean; own: string }>();
  const reversals: string[] = [];
  for (const item of note.items) {
    const text = digestText(item.text.replace(/^\(summary\)\s*/, ''));
    if (!text) continue;
    if (item.kind === 'reversed') {
      reversals.push(text);
      continue;
    }
    const model = item.source === 'model';
    // The working set is the newest note's, and next steps the newest of a session's.
    if (age.late && (item.kind === 'file' || (age.superseded && item.kind === 'next'))) continue;
    const own = digestId(item.kind, text);
    const restated = items.has(own) ? undefined : [...items.values()].find((known) => known.kind === item.kind && (known.source === 'model') !== model && restates(known.text, text));
    const id = restated?.id ?? own;
    const earlier = said.get(id);
    said.set(id, { kind: item.kind, text: earlier && !(model && !earlier.model) ? earlier.text : text, model: model || (earlier?.model ?? false), own: earlier?.own ?? own });
  }
  // The newest note of a session says what of that session still holds: what it no longer says was dropped.
  // Per source: a compaction note, written before the summary, says nothing of the model's items.
  const sources = new Set(note.items.map((item) => item.source));
  if (!age.superseded) {
    for (const [id, item] of items) {
      if (item.session === session && sources.has(item.source) && !said.has(id) && item.kind !== 'met' && item.kind !== 'concept') items.delete(id);
    }
  }
  // The ids this note said, in its order: they move ahead of what older notes said (see `saidFirst`).
  const spokenNow: string[] = [];
  for (const [id, { kind, text, model, own }] of said) {
    if (forgotten.has(id) || forgotten.has(own)) continue;
    const known = items.get(id);
    if (!known && age.superseded && spoken.has(model ? 'model' : 'heuristic') && kind !== 'concept' && kind !== 'met') continue;
    // A decision a newer note reversed stays reversed when an older note says it.
    if (!known && age.late && kind === 'decision' && reversed.some((reversal) => (!day || reversal.day >= day) && names(reversal.text, text))) continue;
    if (!known) {
      items.set(id, { kind, id, text, source: model ? 'model' : 'heuristic', firstSeen: day, lastConfirmed: day, confirmed: 1, session });
      spokenNow.push(id);
      continue;
    }
    known.confirmed += 1;
    if (day >= known.lastConfirmed) known.lastConfirmed = day;
    // A late note may be the first to have said it.
    if (day && (!known.firstSeen || day < known.firstSeen)) known.firstSeen = day;
    if (!age.late) known.session = session;
    if (model && known.source !== 'model') {
      // The model's words replace the extraction's, and the id follows the text (ids are read back from it).
      const upgraded = { ...known, source: 'model' as const, text, id: digestId(kind, text) };
      items.delete(id);
      if (!forgotten.has(upgraded.id)) items.set(upgraded.id, upgraded);
      spokenNow.push(upgraded.id);
    } else spokenNow.push(id);
  }
  for (const reversal of reversals) for (const [id, item] of items) if (item.kind === 'decision' && names(reversal, item.text) && older(item)) items.delete(id);
  reversed.push(...reversals.map((text) => ({ day, text })));
  reversed.splice(0, Math.max(0, reversed.length - MAX_REVERSALS));
  // A problem met and settled in this note is open no more (one said again later is open again).
  for (const { kind, text } of said.values()) {
    const problem = kind === 'met' ? items.get(digestId('problem', text)) : undefined;
    if (problem && older(problem)) items.delete(problem.id);
  }
  if (!age.late) saidFirst(items, spokenNow);
  if (!age.late && sessions[0] !== session) sessions.unshift(session);
  sessions.splice(NEXT_SESSIONS);
  const hasFiles = [...said.values()].some((item) => item.kind === 'file');
  for (const [id, item] of items) {
    if (item.kind === 'next' && !sessions.includes(item.session)) items.delete(id);
    // The working set is the newest note's: files of an older note are not in play any more.
    if (item.kind === 'file' && hasFiles && item.session !== session) items.delete(id);
  }
}

/**
 * Puts what the newest note said first, in its order, ahead of what older notes said. The ranking sorts
 * stably on this order, so items of equal score (confirmed as often, on the same day) stand newest
 * first, and within one note in the order its extraction ranked them. A late note moves nothing: it is
 * the older word.
 */
function saidFirst(items: Map<string, DigestItem>, ids: readonly string[]): void {
  const front = ids.flatMap((id) => {
    const item = items.get(id);
    return item ? [item] : [];
  });
  const moved = new Set(front.map((item) => item.id));
  const rest = [...items.values()].filter((item) => !moved.has(item.id));
  items.clear();
  for (const item of [...front, ...rest]) items.set(item.id, item);
}

/**
 * Keeps each kind within {@link DIGEST_BOUNDS}: past it, the least confirmed go first, then the
 * extracted before the model's, then the lowest score, then what was said longest ago.
 *
 * @param items - the digest's items.
 * @param now - the time ranked at.
 */
export function boundDigestItems(items: readonly DigestItem[], now: number): { kept: DigestItem[]; dropped: DigestItem[] } {
  const kept: DigestItem[] = [];
  const dropped: DigestItem[] = [];
  for (const kind of DIGEST_KINDS) {
    const ofKind = items
      .filter((item) => item.kind === kind)
      .sort((a, b) => b.confirmed - a.confirmed || Number(a.source !== 'model') - Number(b.source !== 'model') || digestScore(b, now) - digestScore(a, now));
    kept.push(...ofKind.slice(0, DIGEST_BOUNDS[kind]));
    dropped.push(...ofKind.slice(DIGEST_BOUNDS[kind]));
  }
  return { kept, dropped };
}

/**
 * Folds notes into a digest (the digest given is not changed).
 *
 * @param digest - the digest as read.
 * @param notes - notes the digest has not folded, any order: one it has folded is left out.
 * @param now - the time ranked at, UTC milliseconds.
 */
export function foldDigest(digest: Digest, notes: readonly FoldNote[], now: number): FoldResult {
  const items = new Map(digest.items.map((item) => [item.id, { ...item }]));
  const forgotten = new Set(digest.forgotten.map((item) => item.id));
  const sessions = [...digest.sessions];
  let folded = digest.folded;
  let marks = digest.foldedMarks;
  const reversed = [...digest.reversals];
  for (const note of oldestFirst(notes)) {
    const mark = noteMark(note.uri, digest.key);
    if (isFolded(marks, mark)) continue;
    foldOne(items, forgotten, note, sessions, reversed, lateness(marks, mark));
    marks = withFoldedMarks(marks, [mark]);
    if (!folded || instantOf(note.timestamp) > instantOf(folded.timestamp) || (note.timestamp === folded.timestamp && note.uri > folded.uri)) {
      if (/^\d{4}-\d{2}-\d{2}T/.test(note.timestamp)) folded = { timestamp: note.timestamp, uri: note.uri };
    }
  }
  const { kept, dropped } = boundDigestItems([...items.values()], now);
  return { digest: { ...digest, items: rankDigestItems(kept, now), forgotten: [...digest.forgotten], folded, foldedMarks: marks, reversals: reversed, sessions }, dropped };
}

/** What {@link forgetDigestItem} did. */
export type ForgetResult = { ok: true; digest: Digest; forgotten: DigestItem[] } | { ok: false; reason: string };

/**
 * Records items as forgotten: by id, or every item whose normalized text is the one given. The ids are
 * kept, so no later fold brings them back.
 *
 * @param digest - the digest as read.
 * @param idOrText - an item's id (`d1a2b3c4d`) or its text.
 */
export function forgetDigestItem(digest: Digest, idOrText: string): ForgetResult {
  const wanted = idOrText.trim();
  const key = digestKey(wanted);
  const matches = /^[a-z][0-9a-f]{8}$/.test(wanted) ? digest.items.filter((item) => item.id === wanted) : key ? digest.items.filter((item) => digestKey(item.text) === key) : [];
  if (matches.length === 0) return { ok: false, reason: `no item ${/^[a-z][0-9a-f]{8}$/.test(wanted) ? `with id ${wanted}` : `"${digestText(wanted).slice(0, 80)}"`} in the project's memory` };
  const ids = new Set(matches.map((item) => item.id));
  // The oldest forgotten ids go past the bound: an item that old is unlikely to be restated word for word.
  const forgotten = [...digest.forgotten.filter((item) => !ids.has(item.id)), ...matches.map((item) => ({ id: item.id, text: item.text.slice(0, MAX_FORGOTTEN_TEXT) }))].slice(-MAX_FORGOTTEN);
  return { ok: true, digest: { ...digest, items: digest.items.filter((item) => !ids.has(item.id)), forgotten }, forgotten: matches };
}
