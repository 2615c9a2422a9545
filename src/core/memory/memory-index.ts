/**
 * One memory file reduced to what the store's reads need: title, type and
 * status, the concepts maenifold would see, the first and last `## `
 * sections, a lead for snippets, and the words a search matches. Pure: the
 * caller reads the file.
 */
import { h2Sections, memoryConcepts, type H2Section } from './memory-markdown.js';
import { normalizeMemoryConcept, parseMemoryFile } from './memory-format.js';

/** What identifies a file's version on disk: an entry is trusted only while both match. */
export interface FileStamp {
  /** `memory://…` URI. */
  uri: string;
  mtimeMs: number;
  size: number;
}

/** One indexed file. */
export interface MemoryIndexEntry extends FileStamp {
  title: string;
  /** Frontmatter `type` (`memory`, `sequential`, …). */
  type: string;
  /** Frontmatter `status` (`saved`, `active`, `completed`, …). */
  status: string;
  /** Normalized WikiLinks outside code, first appearance first. */
  concepts: string[];
  /** Number of `## ` sections. */
  sections: number;
  /** `## Thought …` sections. */
  thoughts: number;
  /** First and last `## ` sections other than Completion/Cancellation, content capped. */
  first: H2Section | null;
  last: H2Section | null;
  /** The body's start, for snippets. */
  lead: string;
  /** Distinct lowercase words of title and body, each between spaces (` a b `), capped. */
  words: string;
}

/** Caps on what an entry keeps. */
export interface IndexLimits {
  /** Characters kept of a section's content. @default 2000 */
  sectionChars: number;
  /** Characters of the lead. @default 400 */
  leadChars: number;
  /** Distinct words kept. @default 2000 */
  maxWords: number;
}

/** The limits the store uses. */
export const DEFAULT_INDEX_LIMITS: Readonly<IndexLimits> = Object.freeze({ sectionChars: 2_000, leadChars: 400, maxWords: 2_000 });

const WORD = /[\p{L}\p{N}]+/gu;

/**
 * The distinct words of a text, lowercase, in order of first appearance.
 *
 * @param text - any text.
 * @param max - how many to keep.
 */
export function distinctWords(text: string, max: number): string[] {
  const words = new Set<string>();
  for (const match of text.toLowerCase().matchAll(WORD)) {
    words.add(match[0]);
    if (words.size >= max) break;
  }
  return [...words];
}

function titleFromBody(body: string, uri: string): string {
  const h1 = /^# (.+)$/m.exec(body);
  return h1?.[1]?.trim() ?? uri.slice(uri.lastIndexOf('/') + 1);
}

function capped(section: H2Section | undefined, chars: number): H2Section | null {
  if (!section) return null;
  return { heading: section.heading, content: section.content.length > chars ? section.content.slice(0, chars) : section.content };
}

/**
 * Indexes one file's text.
 *
 * @param stamp - the file's URI, mtime and size when it was read.
 * @param text - its content.
 * @param limits - caps (see {@link IndexLimits}).
 */
export function indexMemoryText(stamp: FileStamp, text: string, limits: IndexLimits = DEFAULT_INDEX_LIMITS): MemoryIndexEntry {
  const { frontmatter, body } = parseMemoryFile(text);
  const title = typeof frontmatter['title'] === 'string' && frontmatter['title'] !== '' ? frontmatter['title'] : titleFromBody(body, stamp.uri);
  const sections = h2Sections(body);
  const shown = sections.filter((section) => section.heading !== 'Completion' && section.heading !== 'Cancellation');
  const lead = body.replace(/^# .*\r?\n+/, '').slice(0, limits.leadChars);
  return {
    uri: stamp.uri,
    mtimeMs: stamp.mtimeMs,
    size: stamp.size,
    title,
    type: typeof frontmatter['type'] === 'string' ? frontmatter['type'] : 'memory',
    status: typeof frontmatter['status'] === 'string' ? frontmatter['status'] : 'active',
    concepts: memoryConcepts(body),
    sections: sections.length,
    thoughts: sections.filter((section) => section.heading.startsWith('Thought')).length,
    first: capped(shown[0], limits.sectionChars),
    last: shown.length > 1 ? capped(shown[shown.length - 1], limits.sectionChars) : null,
    lead,
    words: ` ${distinctWords(`${title}\n${body}`, limits.maxWords).join(' ')} `,
  };
}

/**
 * Whether a value has the shape of an entry (for a cache read from disk).
 *
 * @param value - anything.
 */
export function isMemoryIndexEntry(value: unknown): value is MemoryIndexEntry {
  const entry = value as MemoryIndexEntry;
  const isSection = (section: unknown): boolean =>
    section === null || (typeof (section as H2Section)?.heading === 'string' && typeof (section as H2Section).content === 'string');
  return (
    typeof entry === 'object' &&
    entry !== null &&
    typeof entry.uri === 'string' &&
    entry.uri.startsWith('memory://') &&
    Number.isFinite(entry.mtimeMs) &&
    Number.isInteger(entry.size) &&
    typeof entry.title === 'string' &&
    typeof entry.type === 'string' &&
    typeof entry.status === 'string' &&
    Array.isArray(entry.concepts) &&
    // Names as the normalization gives them: a cache edited by hand cannot carry a line into a prompt.
    entry.concepts.every((concept) => typeof concept === 'string' && normalizeMemoryConcept(concept) === concept) &&
    Number.isInteger(entry.sections) &&
    Number.isInteger(entry.thoughts) &&
    isSection(entry.first) &&
    isSection(entry.last) &&
    typeof entry.lead === 'string' &&
    typeof entry.words === 'string'
  );
}
