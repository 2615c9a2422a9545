/**
 * maenifold's format rules in one place: titles and slugs, where a note or
 * a thought session lives (`memory://` URIs and their files), concept
 * names, the `.wikilink-filter.json` block-list and YAML frontmatter
 * (memory-frontmatter.ts, re-exported here). The file store, the index, the
 * compaction note and the delivery all take them from here, so a title, a
 * URI or a concept is worked out one way only.
 */
import { join } from 'node:path';
import { normalizeConcept } from '../extraction/concepts/concepts.js';

export { formatFrontmatter, frontmatterFields, parseMemoryFile, splitMemoryFile, type FrontmatterValue, type ParsedMemory, type SplitMemory } from './memory-frontmatter.js';

/** The scheme of every memory URI. */
export const MEMORY_SCHEME = 'memory://';

/** Titles of this many characters or more are refused (PATH_TOO_LONG). */
export const MAX_TITLE_CHARS = 200;

// maenifold removes markup and shell characters from titles, hyphens included.
const TITLE_CHARACTERS = /[:|>\-[\]{}#&*!@`'$();"<>\\]/g;
// eslint-disable-next-line no-control-regex
const TITLE_CONTROLS = /[\x00-\x1F\x7F-\x9F]/g;

/**
 * The characters maenifold strips from a title — markup, shell characters,
 * `..`, slashes and controls — and nothing else (no trimming, no
 * collapsing): a part of a title that passes through unchanged keeps its
 * place in the slug.
 *
 * @param text - a title or a part of one.
 */
export function stripTitleCharacters(text: string): string {
  return text.replace(TITLE_CHARACTERS, '').split('..').join('').replace(/[/\\]/g, '').replace(TITLE_CONTROLS, '');
}

/**
 * maenifold's title sanitation: tags go, then what
 * {@link stripTitleCharacters} strips; whitespace runs become one space.
 *
 * @param input - the title as given.
 */
export function sanitizeTitle(input: string): string {
  if (input.trim() === '') return 'Untitled';
  const capped = input.length > 255 ? input.slice(0, 255) : input;
  const title = stripTitleCharacters(capped.replace(/<[^>]*>/gi, ''))
    .replace(/\s+/g, ' ')
    .trim();
  return title === '' ? 'Untitled' : title;
}

/**
 * maenifold's slug: lowercase, whitespace and `_` to `-`, only `[a-z0-9-]`, hyphen runs collapsed.
 *
 * @param text - a sanitized title.
 */
export function slugify(text: string): string {
  const slug = text
    .toLowerCase()
    .replace(/[\s_]+/g, '-')
    .replace(/[^a-z0-9-]/g, '')
    .replace(/-+/g, '-')
    .replace(/^-+|-+$/g, '');
  return slug === '' ? 'untitled' : slug;
}

/** Where a note of a given title lands. */
export interface NoteLocation {
  /** The title as maenifold stores it. */
  title: string;
  slug: string;
  /** `memory://<folder>/<slug>`. */
  uri: string;
}

/**
 * The stored title, slug and URI of a note: a second note whose title gives
 * the same slug replaces the first.
 *
 * @param folder - the folder (already validated; `''` for the root).
 * @param rawTitle - the title as given.
 */
export function noteLocation(folder: string, rawTitle: string): NoteLocation {
  const title = sanitizeTitle(rawTitle);
  const slug = slugify(title);
  return { title, slug, uri: `${MEMORY_SCHEME}${folder ? `${folder}/` : ''}${slug}` };
}

/**
 * The file of a `memory://a/b` URI: `<memoryDir>/a/b.md`. The URI must
 * already be validated (no `..`): this only maps it.
 *
 * @param memoryDir - `$MAENIFOLD_ROOT/memory`.
 * @param uri - a memory URI.
 */
export function memoryFilePath(memoryDir: string, uri: string): string {
  return `${join(memoryDir, ...uri.slice(MEMORY_SCHEME.length).split('/'))}.md`;
}

/** maenifold's SequentialThinking session ids: `session-<unix ms>-<digits>` (the suffix may be absent). */
export const SESSION_ID = /^session-(\d+)(?:-(\d+))?$/;

/**
 * Where maenifold keeps a SequentialThinking session: under the UTC date of
 * its id, `memory://thinking/sequential/YYYY/MM/DD/<id>`.
 *
 * @param sessionId - a session id.
 * @returns `null` when it is not a session id or its time is not a date.
 */
export function sessionUri(sessionId: string): string | null {
  const match = SESSION_ID.exec(sessionId);
  if (!match) return null;
  const date = new Date(Number(match[1]));
  if (Number.isNaN(date.getTime())) return null;
  const pad = (value: number, width = 2): string => String(value).padStart(width, '0');
  return `${MEMORY_SCHEME}thinking/sequential/${pad(date.getUTCFullYear(), 4)}/${pad(date.getUTCMonth() + 1)}/${pad(date.getUTCDate())}/${sessionId}`;
}

/**
 * The concept the plugin files a project under, in its links and tags.
 *
 * @param project - the project's name.
 */
export function projectConcept(project: string): string {
  return normalizeConcept(project) || 'project';
}

/** The longest concept name kept from a memory folder, in code points (the plugin's own links are never longer). */
export const MAX_MEMORY_CONCEPT_LENGTH = 100;

// C0/C1 controls and the bidi and zero-width marks: a concept name is printed into prompts.
const CONCEPT_CONTROLS = /[\u0000-\u001F\u007F-\u009F\u061C\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF]/g;

/**
 * maenifold's concept normalization — trim, lowercase, ` `/`_`/`/` to `-`,
 * collapse `--`, trim `-` (dots survive) — made safe to print: every kind of
 * whitespace (line breaks included) becomes `-`, control and invisible
 * characters become `-` too, and the name is cut to
 * {@link MAX_MEMORY_CONCEPT_LENGTH} code points. A stored note is data: a
 * multi-line `[[…]]` link must not put lines of its own into a prompt.
 *
 * @param raw - a link target as written.
 */
export function normalizeMemoryConcept(raw: string): string {
  const name = raw
    .replace(CONCEPT_CONTROLS, ' ')
    .trim()
    .toLowerCase()
    .replace(/[\s_/]+/g, '-')
    .replace(/-{2,}/g, '-')
    .replace(/^-+|-+$/g, '');
  if (name.length <= MAX_MEMORY_CONCEPT_LENGTH) return name;
  const points = [...name];
  return points.length <= MAX_MEMORY_CONCEPT_LENGTH ? name : points.slice(0, MAX_MEMORY_CONCEPT_LENGTH).join('').replace(/-+$/, '');
}

// Characters that open or close markup (tags, code, links, tables) never reach a prompt from a stored name.
const MARKUP = /[<>`[\]{}|\\#*]/g;

/**
 * A concept name from a store as it may be printed into a prompt: one
 * line, no controls, bounded ({@link normalizeMemoryConcept}), and no
 * markup characters. Stored notes are data, never instructions. Idempotent.
 *
 * @param raw - a name as the store gave it.
 * @returns the name, or `''` when nothing printable is left.
 */
export function printableConcept(raw: string): string {
  return normalizeMemoryConcept(raw.replace(MARKUP, ' '));
}

// A memory URI as maenifold prints it: no space, no markup.
const PRINTABLE_URI = /^memory:\/\/[\p{L}\p{N}\p{M}._~\/-]{1,300}$/u;

/**
 * Whether a URI from a store may be printed into a prompt as it is.
 *
 * @param uri - a `memory://` URI as the store gave it.
 */
export function isPrintableUri(uri: string): boolean {
  return PRINTABLE_URI.test(uri);
}

/**
 * `memory/.wikilink-filter.json` (`{concept: reason}`) as normalized concept
 * → reason; anything unreadable blocks nothing, as in maenifold.
 *
 * @param text - the file's content.
 */
export function parseWikiLinkFilter(text: string): Map<string, string> {
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return new Map();
    return new Map(Object.entries(parsed).map(([concept, reason]) => [normalizeMemoryConcept(concept), String(reason)]));
  } catch {
    return new Map();
  }
}
