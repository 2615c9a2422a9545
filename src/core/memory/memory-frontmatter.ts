/**
 * maenifold's YAML frontmatter: read with the `yaml` parser, written in the
 * exact form maenifold writes. Import it through memory-format.ts.
 */
import { isMap, isScalar, isSeq, parseDocument } from 'yaml';

/** A frontmatter value: a scalar kept as text, or a list of them. */
export type FrontmatterValue = string | number | boolean | string[];

/** A memory file split into its frontmatter and body. */
export interface ParsedMemory {
  frontmatter: Record<string, FrontmatterValue>;
  body: string;
}

const FRONTMATTER = /^---\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/;

function readFrontmatter(yaml: string): Record<string, FrontmatterValue> {
  const fields: Record<string, FrontmatterValue> = Object.create(null) as Record<string, FrontmatterValue>;
  // Failsafe: every scalar stays the text it was written as, so a file read and written again keeps its values.
  const document = parseDocument(yaml, { schema: 'failsafe', uniqueKeys: false });
  // Damaged frontmatter reads as none; the body still counts.
  if (document.errors.length > 0 || !isMap(document.contents)) return fields;
  for (const pair of document.contents.items) {
    const key = isScalar(pair.key) ? pair.key.value : undefined;
    if (typeof key !== 'string') continue;
    const value = pair.value;
    // `key:` with nothing after it opens a list that may stay empty.
    if (value === null || (isScalar(value) && value.type === 'PLAIN' && value.value === '')) fields[key] = [];
    else if (isScalar(value) && typeof value.value === 'string') fields[key] = value.value;
    else if (isSeq(value)) fields[key] = value.items.flatMap((item) => (isScalar(item) && typeof item.value === 'string' ? [item.value] : []));
  }
  return fields;
}

/** A memory file split, its frontmatter not read yet. */
export interface SplitMemory {
  /** The frontmatter's YAML, `null` when the file has none. */
  yaml: string | null;
  body: string;
}

/**
 * Splits `---\nyaml\n---\n` from the body without reading the YAML: the body alone is often all a reader
 * needs, and the `yaml` parser costs about 0.8 ms a note once compiled (13 ms on its first call).
 *
 * @param text - a memory file.
 */
export function splitMemoryFile(text: string): SplitMemory {
  const match = FRONTMATTER.exec(text);
  if (!match) return { yaml: null, body: text };
  return { yaml: match[1] ?? '', body: text.slice(match[0].length).replace(/^(\r?\n)+/, '') };
}

/**
 * The fields of a frontmatter's YAML (see {@link splitMemoryFile}), every scalar as text; none when it is
 * damaged.
 *
 * @param yaml - the frontmatter, `null` for none.
 */
export function frontmatterFields(yaml: string | null): Record<string, FrontmatterValue> {
  return yaml === null ? {} : readFrontmatter(yaml);
}

/**
 * Splits `---\nyaml\n---\n` from the body; the frontmatter is read with the
 * `yaml` parser, every scalar as text.
 *
 * @param text - a memory file.
 */
export function parseMemoryFile(text: string): ParsedMemory {
  const { yaml, body } = splitMemoryFile(text);
  return { frontmatter: frontmatterFields(yaml), body };
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
 * The frontmatter block, fields in the order given, followed by a blank
 * line. Written by hand rather than by the `yaml` stringifier: the bytes
 * must be the ones maenifold writes (plain where YAML allows, else
 * double-quoted, lists as `- item` lines), and any valid YAML reads back.
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
