/**
 * maenifold's markdown rules, as its files are written and read: YAML
 * frontmatter, title sanitation and slugs, the WikiLinks it sees (outside
 * fenced, indented and inline code) with its own normalization, and `## `
 * sections. A line scanner rather than remark: the index reads tens of
 * megabytes, and remark takes seconds per ten.
 */

/** maenifold's WikiLink pattern: `[[x]]` but not `[[[x]]]`. */
const WIKILINK = /(?<!\[)\[\[([^[\]]+)\]\](?!\])/g;
const FENCE_OPEN = /^ {0,3}(`{3,}|~{3,})(.*)$/;
const FENCE_CLOSE = /^ {0,3}(`{3,}|~{3,})\s*$/;
const HEADING = /^ {0,3}#{1,6}(\s|$)/;
const H2 = /^ {0,3}##(?:[ \t]+(.*?))?[ \t]*#*[ \t]*$/;

/** A frontmatter value: a scalar kept as text, or a list of them. */
export type FrontmatterValue = string | number | boolean | string[];

/** A memory file split into its frontmatter and body. */
export interface ParsedMemory {
  frontmatter: Record<string, FrontmatterValue>;
  body: string;
}

function parseScalar(raw: string): string {
  if (raw.length >= 2 && raw.startsWith('"') && raw.endsWith('"')) {
    try {
      return String(JSON.parse(raw));
    } catch {
      // Escapes JSON does not know: the inner text as written.
      return raw.slice(1, -1);
    }
  }
  if (raw.length >= 2 && raw.startsWith("'") && raw.endsWith("'")) return raw.slice(1, -1).replace(/''/g, "'");
  return raw;
}

/**
 * Splits `---\nyaml\n---\n` from the body (the subset of YAML maenifold writes).
 *
 * @param text - a memory file.
 */
export function parseMemoryFile(text: string): ParsedMemory {
  const match = /^---\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/.exec(text);
  if (!match) return { frontmatter: {}, body: text };
  const frontmatter: Record<string, FrontmatterValue> = Object.create(null) as Record<string, FrontmatterValue>;
  let listKey: string | undefined;
  for (const line of (match[1] ?? '').split(/\r?\n/)) {
    const item = /^\s*-\s+(.*)$/.exec(line);
    const list = listKey === undefined ? undefined : frontmatter[listKey];
    if (item && Array.isArray(list)) {
      list.push(parseScalar(item[1] ?? ''));
      continue;
    }
    const pair = /^([A-Za-z_][\w-]*):\s*(.*)$/.exec(line);
    if (!pair) continue;
    const key = pair[1] ?? '';
    const raw = (pair[2] ?? '').trim();
    listKey = undefined;
    if (raw === '') {
      frontmatter[key] = [];
      listKey = key;
    } else if (raw.startsWith('[') && raw.endsWith(']')) {
      const inner = raw.slice(1, -1).trim();
      frontmatter[key] = inner === '' ? [] : inner.split(',').map((part) => parseScalar(part.trim()));
    } else {
      frontmatter[key] = parseScalar(raw);
    }
  }
  return { frontmatter, body: text.slice(match[0].length).replace(/^(\r?\n)+/, '') };
}

function formatScalar(value: string | number | boolean): string {
  if (typeof value !== 'string') return String(value);
  const plain =
    /^[A-Za-z0-9_][A-Za-z0-9 _.,/+-]*$/.test(value) &&
    !/\s$/.test(value) &&
    !/^(true|false|null|yes|no|on|off|~)$/i.test(value) &&
    !/^[-+]?[0-9][0-9_]*(\.[0-9]*)?([eE][-+]?[0-9]+)?$/.test(value);
  return plain ? value : JSON.stringify(value);
}

/**
 * The frontmatter block, fields in the order given, followed by a blank line.
 *
 * @param fields - values; `undefined` ones are left out.
 */
export function formatFrontmatter(fields: Record<string, FrontmatterValue | undefined>): string {
  const lines = ['---'];
  for (const [key, value] of Object.entries(fields)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) {
      if (value.length === 0) lines.push(`${key}: []`);
      else lines.push(`${key}:`, ...value.map((item) => `- ${formatScalar(item)}`));
    } else {
      lines.push(`${key}: ${formatScalar(value)}`);
    }
  }
  lines.push('---', '');
  return `${lines.join('\n')}\n`;
}

/**
 * maenifold's title sanitation: markup, `: | > - [ ] { } # & * ! @ \` '`,
 * shell characters, `..`, slashes and control characters go; whitespace runs
 * become one space.
 *
 * @param input - the title as given.
 */
export function sanitizeTitle(input: string): string {
  if (input.trim() === '') return 'Untitled';
  let title = input.length > 255 ? input.slice(0, 255) : input;
  title = title.replace(/<[^>]*>/gi, '');
  title = title.replace(/[:|>\-[\]{}#&*!@`']/g, '');
  title = title.replace(/[$();&|`\\<>"]/g, '');
  title = title.split('..').join('').replace(/[/\\]/g, '');
  // eslint-disable-next-line no-control-regex
  title = title.replace(/[\x00-\x1F\x7F-\x9F]/g, '');
  title = title.replace(/\s+/g, ' ').trim();
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

/** Paragraphs and headings of a body; fenced blocks and indented code are skipped. */
function proseBlocks(body: string): string[] {
  const blocks: string[] = [];
  let current: string[] = [];
  let fence: { char: string; length: number } | undefined;
  const flush = (): void => {
    if (current.length > 0) blocks.push(current.join('\n'));
    current = [];
  };
  for (const line of body.split(/\r?\n/)) {
    if (fence) {
      const close = FENCE_CLOSE.exec(line);
      if (close && close[1]?.[0] === fence.char && (close[1]?.length ?? 0) >= fence.length) fence = undefined;
      continue;
    }
    const open = FENCE_OPEN.exec(line);
    if (open && !(open[1]?.[0] === '`' && (open[2] ?? '').includes('`'))) {
      flush();
      fence = { char: open[1]?.[0] ?? '`', length: open[1]?.length ?? 3 };
      continue;
    }
    if (line.trim() === '') {
      flush();
      continue;
    }
    // Indented code cannot interrupt a paragraph (CommonMark), so only outside one.
    if (current.length === 0 && /^(?: {4}|\t)/.test(line)) continue;
    if (HEADING.test(line)) {
      flush();
      blocks.push(line);
      continue;
    }
    current.push(line);
  }
  flush();
  return blocks;
}

/** Blanks out inline code spans (a run of n backticks closed by a run of exactly n). */
function maskInlineCode(text: string): string {
  if (!text.includes('`')) return text;
  let out = '';
  let index = 0;
  while (index < text.length) {
    if (text[index] !== '`') {
      const next = text.indexOf('`', index);
      const end = next === -1 ? text.length : next;
      out += text.slice(index, end);
      index = end;
      continue;
    }
    let run = 0;
    while (text[index + run] === '`') run += 1;
    const ticks = '`'.repeat(run);
    let search = index + run;
    let close = -1;
    while (search < text.length) {
      const found = text.indexOf(ticks, search);
      if (found < 0) break;
      let after = found + run;
      while (text[after] === '`') after += 1;
      if (after - found === run) {
        close = found;
        break;
      }
      search = after;
    }
    if (close < 0) {
      out += ticks;
      index += run;
    } else {
      out += ' '.repeat(close + run - index);
      index = close + run;
    }
  }
  return out;
}

/**
 * The concepts maenifold sees in a body: WikiLinks in paragraphs and
 * headings, normalized, de-duplicated, in order of first appearance.
 *
 * @param body - markdown (frontmatter already removed).
 */
export function memoryConcepts(body: string): string[] {
  if (!body.includes('[[')) return [];
  const concepts = new Set<string>();
  for (const block of proseBlocks(body)) {
    if (!block.includes('[[')) continue;
    for (const match of maskInlineCode(block).matchAll(WIKILINK)) {
      const concept = normalizeMemoryConcept(match[1] ?? '');
      if (concept !== '') concepts.add(concept);
    }
  }
  return [...concepts];
}

/** One `## ` section: its heading and trimmed content up to the next `## `. */
export interface H2Section {
  heading: string;
  content: string;
}

/**
 * The `## ` sections of a body, fence-aware.
 *
 * @param body - markdown (frontmatter already removed).
 */
export function h2Sections(body: string): H2Section[] {
  const sections: { heading: string; lines: string[] }[] = [];
  let current: { heading: string; lines: string[] } | undefined;
  let fence: { char: string; length: number } | undefined;
  for (const line of body.split(/\r?\n/)) {
    if (!fence) {
      const open = FENCE_OPEN.exec(line);
      if (open) fence = { char: open[1]?.[0] ?? '`', length: open[1]?.length ?? 3 };
      const heading = open ? null : H2.exec(line);
      if (heading) {
        if (current) sections.push(current);
        current = { heading: (heading[1] ?? '').trim(), lines: [] };
        continue;
      }
    } else {
      const close = FENCE_CLOSE.exec(line);
      if (close && close[1]?.[0] === fence.char && (close[1]?.length ?? 0) >= fence.length) fence = undefined;
    }
    current?.lines.push(line);
  }
  if (current) sections.push(current);
  return sections.map((section) => ({ heading: section.heading, content: section.lines.join('\n').trim() }));
}

/**
 * `yyyy-MM-dd HH:mm` in UTC, as RecentActivity prints times.
 *
 * @param ms - epoch milliseconds.
 */
export function formatMinute(ms: number): string {
  return new Date(ms).toISOString().slice(0, 16).replace('T', ' ');
}
