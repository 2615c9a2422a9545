/**
 * The three reads the hooks make, answered from index entries as data:
 * search hits, recent files with their first and last sections, and the
 * concepts related to one. Pure and synchronous.
 */
import type { ActivityItem, ActivitySection, RecentQuery, Relation, SearchHit } from './memory-answers.js';
import type { MemoryIndexEntry } from './memory-index.js';

const STOP_WORDS = new Set(
  (
    'a an and are as at be been but by can could did do does for from had has have how i if in into is it its ' +
    'me my no not of on or our so than that the their them then there these they this those to too was we were ' +
    'what when where which who whom why will with would you your about just also'
  ).split(' '),
);

const SNIPPET_CHARS = 200;
const ACTIVITY_SNIPPET_CHARS = 200;

/** What a search needs of an entry. */
export type SearchableEntry = Pick<MemoryIndexEntry, 'uri' | 'title' | 'concepts' | 'lead' | 'words' | 'mtimeMs'>;

/** SearchMemories' answer: hits, or the "no informative keywords" refusal. */
export type SearchAnswer = { ok: true; totalResults: number; results: SearchHit[] } | { ok: false; message: string };

const round = (value: number): number => Math.round(value * 1000) / 1000;

/**
 * The informative words of a query: lowercase, split on anything but letters and digits, stop words dropped.
 *
 * @param query - the query as typed.
 */
export function queryTerms(query: string): string[] {
  return [...new Set(query.toLowerCase().split(/[^\p{L}\p{N}]+/u))].filter((term) => term !== '' && !STOP_WORDS.has(term));
}

/**
 * `text` from `start` to `end`, both moved off any `[[…]]` they would cut: a start inside a link moves
 * to its `[[`, an end inside one to before its `[[`. A snippet then holds whole links or none, and
 * its reader never sees half of one.
 */
export function linkSafeSlice(text: string, start: number, end: number): string {
  let from = Math.max(0, start);
  const opened = text.lastIndexOf('[[', from);
  if (opened >= 0 && opened < from) {
    const closed = text.indexOf(']]', opened + 2);
    if (closed === -1 || closed + 2 > from) from = opened;
  }
  let to = Math.min(text.length, end);
  const last = text.lastIndexOf('[[', to - 1);
  if (last >= from) {
    const closed = text.indexOf(']]', last + 2);
    if (closed === -1 || closed + 2 > to) to = last;
  }
  return text.slice(from, Math.max(from, to));
}

function snippetOf(entry: SearchableEntry, terms: readonly string[]): string {
  const lower = entry.lead.toLowerCase();
  const hits = terms.map((term) => lower.indexOf(term)).filter((index) => index >= 0);
  const start = hits.length > 0 ? Math.max(0, Math.min(...hits) - 40) : 0;
  return linkSafeSlice(entry.lead, start, start + SNIPPET_CHARS);
}

/** A hit with its file's time, as searches rank them. */
export interface ScoredHit {
  hit: SearchHit;
  mtimeMs: number;
}

/** The order of hits: best fused score first, then the newer file, then by path. */
export function compareHits(a: ScoredHit, b: ScoredHit): number {
  return b.hit.fusedScore - a.hit.fusedScore || b.mtimeMs - a.mtimeMs || (a.hit.path < b.hit.path ? -1 : a.hit.path > b.hit.path ? 1 : 0);
}

/**
 * Ranks files for a query: `textScore` is the share of terms found in the
 * file's words, `semanticScore` the share found in its title and in its
 * concepts (what the file is about, half each), `fusedScore` their mean.
 * Ties go to the newer file.
 *
 * @param entries - the index.
 * @param query - the query.
 * @param pageSize - hits returned.
 */
export function searchEntries(entries: readonly SearchableEntry[], query: string, pageSize: number): SearchAnswer {
  const terms = queryTerms(query);
  if (terms.length === 0) return { ok: false, message: 'ERROR: Query contains no informative keywords after removing stop words. Use more specific terms.' };
  const padded = terms.map((term) => ` ${term} `);
  const scored: ScoredHit[] = [];
  for (const entry of entries) {
    let matched = 0;
    for (const term of padded) if (entry.words.includes(term)) matched += 1;
    if (matched === 0) continue;
    const title = ` ${entry.title.toLowerCase().split(/[^\p{L}\p{N}]+/u).join(' ')} `;
    const concepts = ` ${entry.concepts.join(' ').replace(/[-.]/g, ' ')} `;
    let central = 0;
    for (const term of padded) central += (title.includes(term) ? 1 : 0) + (concepts.includes(term) ? 1 : 0);
    const textScore = round(matched / terms.length);
    const semanticScore = round(central / (2 * terms.length));
    const hit = { title: entry.title, path: entry.uri, fusedScore: round((textScore + semanticScore) / 2), textScore, semanticScore, snippet: snippetOf(entry, terms) };
    scored.push({ hit, mtimeMs: entry.mtimeMs });
  }
  scored.sort(compareHits);
  return { ok: true, totalResults: scored.length, results: scored.slice(0, Math.max(0, pageSize)).map((item) => item.hit) };
}

/** Options of {@link recentActivity}: the query, with the span as `null` for all. */
export type ActivityQuery = Required<Omit<RecentQuery, 'withinMs'>> & { spanMs: number | null };

function matchesFilter(uri: string, filter: ActivityQuery['filter']): boolean {
  const thinking = uri.startsWith('memory://thinking/');
  if (filter === 'thinking') return thinking;
  if (filter === 'chat') return uri.startsWith('memory://chat/');
  if (filter === 'assumptions') return uri.startsWith('memory://assumptions/');
  if (filter === 'memory') return !thinking && !uri.startsWith('memory://chat/');
  return true;
}

function activitySnippet(content: string): string {
  const lines = content.split('\n').filter((line) => line.trim() !== '');
  const kept = lines.filter((line) => !line.trimStart().startsWith('*'));
  const snippet = (kept.length > 0 ? kept : lines).join(' ').trim();
  return snippet.length > ACTIVITY_SNIPPET_CHARS ? `${linkSafeSlice(snippet, 0, ACTIVITY_SNIPPET_CHARS - 3)}...` : snippet;
}

/** `yyyy-MM-dd HH:mm` in UTC, as RecentActivity prints times. */
function formatMinute(ms: number): string {
  return new Date(ms).toISOString().slice(0, 16).replace('T', ' ');
}

function activityItem(entry: MemoryIndexEntry, includeContent: boolean): ActivityItem {
  const id = entry.uri.slice(entry.uri.lastIndexOf('/') + 1);
  const modified = formatMinute(entry.mtimeMs);
  let item: ActivityItem;
  if (entry.uri.startsWith('memory://thinking/')) {
    const isThought = entry.uri.includes('/sequential/') || entry.thoughts > 0;
    item = { id, kind: isThought ? 'sequential' : 'workflow', modified, status: entry.status };
  } else {
    item = { id, kind: 'memory', modified, title: entry.title };
  }
  const { first, last } = entry;
  const section = (found: { heading: string; content: string }): ActivitySection =>
    includeContent ? { heading: found.heading, content: found.content } : { content: activitySnippet(found.content) };
  if (first) item.first = section(first);
  // As maenifold: a snippet equal to the first one is not repeated.
  if (last && (includeContent || activitySnippet(last.content) !== activitySnippet(first?.content ?? ''))) item.last = section(last);
  return item;
}

/**
 * RecentActivity: the newest files first, each with its first and last `## ` section.
 *
 * @param entries - the index.
 * @param query - see {@link ActivityQuery}.
 * @param now - the clock.
 */
export function recentActivity(entries: Iterable<MemoryIndexEntry>, query: ActivityQuery, now: number): ActivityItem[] {
  const newest = newestEntries(query, now);
  for (const entry of entries) newest.add(entry);
  return newest.items();
}

/** The newest entries of a query, kept while entries are added (see {@link newestEntries}). */
export interface NewestEntries {
  /** Reads one entry, in any order. */
  add(entry: MemoryIndexEntry): void;
  /** What {@link recentActivity} shows of the entries read so far, newest first. */
  items(): ActivityItem[];
}

/**
 * The entries {@link recentActivity} shows, kept in one pass as they are added: a caller on a thread others
 * wait on may add the index a part at a time and hand the thread back in between.
 *
 * @param query - the span, filter, limit and whether sections come whole.
 * @param now - epoch milliseconds the span ends at.
 */
export function newestEntries(query: ActivityQuery, now: number): NewestEntries {
  const cutoff = query.spanMs === null ? -Infinity : now - query.spanMs;
  const limit = Math.max(0, query.limit);
  const newest: MemoryIndexEntry[] = [];
  return {
    add(entry) {
      if (limit === 0 || entry.mtimeMs < cutoff || !matchesFilter(entry.uri, query.filter)) return;
      if (newest.length === limit && newerFirst(entry, newest[limit - 1] as MemoryIndexEntry) >= 0) return;
      let at = newest.length;
      while (at > 0 && newerFirst(entry, newest[at - 1] as MemoryIndexEntry) < 0) at--;
      newest.splice(at, 0, entry);
      if (newest.length > limit) newest.pop();
    },
    items: () => newest.map((entry) => activityItem(entry, query.includeContent)),
  };
}

/** Newer files first, then by URI. */
function newerFirst(a: MemoryIndexEntry, b: MemoryIndexEntry): number {
  return b.mtimeMs - a.mtimeMs || (a.uri < b.uri ? -1 : a.uri > b.uri ? 1 : 0);
}

/** A file as {@link relatedConcepts} reads it: concepts as ids into a shared name table. */
export interface ConceptFile {
  uri: string;
  mtimeMs: number;
  ids: Int32Array;
}

/**
 * The concepts that share the most files with a concept: counted in one
 * pass over typed arrays, then the newest three files kept for those shown.
 *
 * @param conceptId - the asked concept's id.
 * @param files - the files that link it.
 * @param names - concept names by id.
 * @param limit - relations returned.
 * @param blocked - ids left out of the graph (`.wikilink-filter.json`).
 */
export function relatedConcepts(conceptId: number, files: readonly ConceptFile[], names: readonly string[], limit: number, blocked: ReadonlySet<number> = new Set()): Relation[] {
  const steps = relatedConceptSteps(conceptId, files, names, limit, blocked);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/** Files {@link relatedConceptSteps} reads between two steps. */
export const RELATED_STEP_FILES = 256;

/**
 * {@link relatedConcepts} as steps: it pauses after each {@link RELATED_STEP_FILES} files it reads, and
 * returns the relations when done, so a caller on a thread others wait on can hand it back in between.
 *
 * @param conceptId - the asked concept's id.
 * @param files - the files that link it.
 * @param names - concept names by id.
 * @param limit - relations returned.
 * @param blocked - ids left out of the graph (`.wikilink-filter.json`).
 */
export function* relatedConceptSteps(conceptId: number, files: readonly ConceptFile[], names: readonly string[], limit: number, blocked: ReadonlySet<number> = new Set()): Generator<void, Relation[]> {
  const counts = new Int32Array(names.length);
  const touched: number[] = [];
  for (const [read, file] of files.entries()) {
    if (read % RELATED_STEP_FILES === RELATED_STEP_FILES - 1) yield;
    const ids = file.ids;
    for (let index = 0; index < ids.length; index++) {
      const id = ids[index] as number;
      if (counts[id] === 0) touched.push(id);
      counts[id] = (counts[id] as number) + 1;
    }
  }
  const candidates = touched.filter((id) => id !== conceptId && !blocked.has(id));
  candidates.sort((a, b) => (counts[b] as number) - (counts[a] as number) || ((names[a] as string) < (names[b] as string) ? -1 : 1));
  const top = candidates.slice(0, Math.max(0, limit));
  const slot = new Int32Array(names.length).fill(-1);
  const shown = top.map((id, index) => {
    slot[id] = index;
    return { name: names[id] as string, count: counts[id] as number, newest: [] as { uri: string; mtimeMs: number }[] };
  });
  for (const [read, file] of files.entries()) {
    if (read % RELATED_STEP_FILES === RELATED_STEP_FILES - 1) yield;
    const ids = file.ids;
    for (let index = 0; index < ids.length; index++) {
      const at = slot[ids[index] as number] as number;
      if (at < 0) continue;
      const newest = (shown[at] as (typeof shown)[number]).newest;
      const last = newest[newest.length - 1];
      if (newest.length < 3 || (last && (file.mtimeMs > last.mtimeMs || (file.mtimeMs === last.mtimeMs && file.uri < last.uri)))) {
        newest.push({ uri: file.uri, mtimeMs: file.mtimeMs });
        newest.sort((a, b) => b.mtimeMs - a.mtimeMs || (a.uri < b.uri ? -1 : 1));
        if (newest.length > 3) newest.pop();
      }
    }
  }
  return shown.map(({ name, count, newest }) => ({ name, cooccurrence: count, files: newest.map((file) => file.uri) }));
}
