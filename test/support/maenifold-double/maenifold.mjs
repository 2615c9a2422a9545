#!/usr/bin/env node
// Test double of the maenifold CLI (`maenifold --tool <Name> --payload '<json>' [--json]`).
//
// It follows the contract in the project's maenifold CLI reference: same argv
// surface, same output modes (JSON envelope only for five tools and only with
// --json), exit code 0 for every handled outcome, real markdown files under
// $MAENIFOLD_ROOT/memory, and a graph snapshot ($MAENIFOLD_ROOT/memory.db, JSON
// here instead of SQLite) that only `--tool Sync` rebuilds, so BuildContext and
// RecentActivity are stale until a Sync exactly like the real CLI.
//
// Test hooks (not part of the real CLI):
//   MAENIFOLD_DOUBLE_LOG          append one JSON line per invocation
//                                 {argv, tool, payload, json, at}
//   MAENIFOLD_DOUBLE_FAULT        hang | garbage | crash | slow:<ms> | huge
//   MAENIFOLD_DOUBLE_FAULT_TOOLS  comma list of tool names the fault applies to
//
// Plain JavaScript with node: builtins only, so it starts as fast as node can.

import { createHash, randomBytes, randomInt } from 'node:crypto';
import {
  appendFileSync,
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join, relative, sep } from 'node:path';

// ---------------------------------------------------------------------------
// Constants
// ---------------------------------------------------------------------------

/** Canonical tool names, looked up case-insensitively (snake_case never matches). */
const TOOLS = [
  'WriteMemory',
  'ReadMemory',
  'DeleteMemory',
  'ListMemories',
  'SearchMemories',
  'BuildContext',
  'RecentActivity',
  'SequentialThinking',
  'Sync',
];
const TOOL_BY_LOWER = new Map(TOOLS.map((name) => [name.toLowerCase(), name]));

/** The only tools that print the JSON envelope, and only with --json. */
const ENVELOPE_TOOLS = new Set(['WriteMemory', 'ReadMemory', 'DeleteMemory', 'SequentialThinking', 'SearchMemories']);

/** Codes raised by the CLI host rather than by a tool; rendered as `Error invoking <Tool>:` in text mode. */
const HOST_ERROR_CODES = new Set(['INVALID_PAYLOAD', 'INVALID_ARGUMENT', 'INTERNAL_ERROR']);

const WIKILINK = /(?<!\[)\[\[([^[\]]+)\]\](?!\])/g;
const MAX_TITLE_CHARS = 200;
const SNIPPET_CHARS = 200;
const ACTIVITY_SNIPPET_CHARS = 200;
const ABANDON_AFTER_MS = 30 * 60 * 1000;
const GRAPH_FORMAT = 'maenifold-double-graph';
const HUGE_BYTES = 50 * 1024 * 1024;

const STOP_WORDS = new Set(
  (
    'a an and are as at be been but by can could did do does for from had has have how i if in into is it its ' +
    'me my no not of on or our so than that the their them then there these they this those to too was we were ' +
    'what when where which who whom why will with would you your about just also'
  ).split(' '),
);

// ---------------------------------------------------------------------------
// Errors and payload readers
// ---------------------------------------------------------------------------

/** A handled failure: becomes an envelope error or an `ERROR:` line, never a non-zero exit. */
class ToolError extends Error {
  /**
   * @param {string} code  maenifold error code (VALIDATION_ERROR, NOT_FOUND, …)
   * @param {string} message  human-readable message
   */
  constructor(code, message) {
    super(message);
    this.code = code;
  }
}

/** Reads an optional string; throws INVALID_ARGUMENT on a wrong type or a missing required value. */
function readString(payload, key, required = false) {
  const value = payload[key];
  if (value === undefined || value === null) {
    if (required) throw new ToolError('INVALID_ARGUMENT', `Missing required parameter '${key}'`);
    return undefined;
  }
  if (typeof value !== 'string') throw new ToolError('INVALID_ARGUMENT', `Parameter '${key}' must be a string`);
  return value;
}

function readInt(payload, key, fallback) {
  const value = payload[key];
  if (value === undefined || value === null) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value)) {
    throw new ToolError('INVALID_ARGUMENT', `Parameter '${key}' must be an integer`);
  }
  return value;
}

function readBool(payload, key, fallback) {
  const value = payload[key];
  if (value === undefined || value === null) return fallback;
  if (typeof value !== 'boolean') throw new ToolError('INVALID_ARGUMENT', `Parameter '${key}' must be a boolean`);
  return value;
}

function readStringArray(payload, key) {
  const value = payload[key];
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value) || !value.every((item) => typeof item === 'string')) {
    throw new ToolError('INVALID_ARGUMENT', `Parameter '${key}' must be an array of strings`);
  }
  return value;
}

// ---------------------------------------------------------------------------
// Paths
// ---------------------------------------------------------------------------

function rootDir() {
  return process.env.MAENIFOLD_ROOT || join(homedir(), 'maenifold');
}

function memoryDir() {
  return join(rootDir(), 'memory');
}

function graphPath() {
  return join(rootDir(), 'memory.db');
}

/** `$ROOT/memory/a/b.md` → `memory://a/b`. */
function pathToUri(path) {
  const rel = relative(memoryDir(), path).split(sep).join('/');
  return `memory://${rel.replace(/\.md$/i, '')}`;
}

/** `memory://a/b` → `$ROOT/memory/a/b.md`; refuses anything that escapes the memory root. */
function uriToPath(uri) {
  const rel = uri.slice('memory://'.length).replace(/\\/g, '/');
  validateRelativePath(rel, 'URI');
  const path = join(memoryDir(), rel);
  return path.toLowerCase().endsWith('.md') ? path : `${path}.md`;
}

/** Rejects absolute paths and `.`/`..` segments (PATH_VALIDATION_ERROR). */
function validateRelativePath(value, what) {
  const normalized = value.replace(/\\/g, '/');
  if (isAbsolute(value) || normalized.startsWith('/') || /^[A-Za-z]:/.test(normalized)) {
    throw new ToolError('PATH_VALIDATION_ERROR', `Invalid ${what} - Absolute paths are not allowed. Use relative paths only.`);
  }
  if (normalized.split('/').some((segment) => segment === '..' || segment === '.')) {
    throw new ToolError('PATH_VALIDATION_ERROR', `Invalid ${what} - Path traversal components ('.' and '..') are not allowed.`);
  }
  return normalized.replace(/^\/+|\/+$/g, '');
}

/** Every `.md` file under `dir`, sorted, dot-directories skipped. */
function listMarkdownFiles(dir) {
  if (!existsSync(dir)) return [];
  const out = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name.startsWith('.')) continue;
    const full = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...listMarkdownFiles(full));
    else if (entry.isFile() && entry.name.toLowerCase().endsWith('.md')) out.push(full);
  }
  return out.sort();
}

function sessionPath(sessionId) {
  const ms = Number(/^session-(\d+)/.exec(sessionId)?.[1] ?? 0);
  const date = new Date(ms);
  const yyyy = String(date.getUTCFullYear()).padStart(4, '0');
  const mm = String(date.getUTCMonth() + 1).padStart(2, '0');
  const dd = String(date.getUTCDate()).padStart(2, '0');
  return join(memoryDir(), 'thinking', 'sequential', yyyy, mm, dd, `${sessionId}.md`);
}

// ---------------------------------------------------------------------------
// Markdown: frontmatter, WikiLinks outside code, H2 sections
// ---------------------------------------------------------------------------

/** Splits `---\nyaml\n---\n` from the body. Values: strings, numbers kept as text, string lists. */
function parseMarkdown(text) {
  const match = /^---\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/.exec(text);
  if (!match) return { frontmatter: {}, body: text };
  const frontmatter = {};
  let listKey;
  for (const line of (match[1] ?? '').split(/\r?\n/)) {
    const item = /^\s*-\s+(.*)$/.exec(line);
    if (item && listKey) {
      frontmatter[listKey].push(parseScalar(item[1] ?? ''));
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

function parseScalar(raw) {
  if (raw.startsWith('"') && raw.endsWith('"') && raw.length >= 2) {
    try {
      return JSON.parse(raw);
    } catch {
      // Not JSON-compatible escapes: keep the inner text as written.
      return raw.slice(1, -1);
    }
  }
  if (raw.startsWith("'") && raw.endsWith("'") && raw.length >= 2) return raw.slice(1, -1).replace(/''/g, "'");
  return raw;
}

function formatScalar(value) {
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  const text = String(value);
  const plain =
    /^[A-Za-z0-9_][A-Za-z0-9 _.,/+-]*$/.test(text) &&
    !/\s$/.test(text) &&
    !/^(true|false|null|yes|no|on|off|~)$/i.test(text) &&
    !/^[-+]?[0-9][0-9_]*(\.[0-9]*)?([eE][-+]?[0-9]+)?$/.test(text);
  return plain ? text : JSON.stringify(text);
}

function formatFrontmatter(frontmatter) {
  const lines = ['---'];
  for (const [key, value] of Object.entries(frontmatter)) {
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

/** maenifold's concept normalization: trim, lowercase, ` `/`_`/`/` → `-`, collapse `--`, trim `-`. */
function normalizeConcept(concept) {
  return concept
    .trim()
    .toLowerCase()
    .replace(/[ _/]/g, '-')
    .replace(/-{2,}/g, '-')
    .replace(/^-+|-+$/g, '');
}

const FENCE_OPEN = /^ {0,3}(`{3,}|~{3,})(.*)$/;
const HEADING = /^ {0,3}#{1,6}(\s|$)/;

/**
 * Prose blocks (paragraphs and headings) of a markdown body: fenced blocks and
 * indented code are skipped, as maenifold only reads paragraphs and headings.
 */
function proseBlocks(body) {
  const blocks = [];
  let current = [];
  let fence;
  const flush = () => {
    if (current.length > 0) blocks.push(current.join('\n'));
    current = [];
  };
  for (const line of body.split(/\r?\n/)) {
    if (fence) {
      const close = /^ {0,3}(`{3,}|~{3,})\s*$/.exec(line);
      if (close && close[1]?.[0] === fence.char && (close[1]?.length ?? 0) >= fence.length) fence = undefined;
      continue;
    }
    const open = FENCE_OPEN.exec(line);
    if (open && !(open[1]?.[0] === '`' && (open[2] ?? '').includes('`'))) {
      flush();
      fence = { char: open[1]?.[0], length: open[1]?.length ?? 3 };
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
function maskInlineCode(text) {
  let out = '';
  let i = 0;
  while (i < text.length) {
    if (text[i] !== '`') {
      out += text[i];
      i += 1;
      continue;
    }
    let run = 0;
    while (text[i + run] === '`') run += 1;
    const ticks = '`'.repeat(run);
    let search = i + run;
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
      i += run;
    } else {
      out += ' '.repeat(close + run - i);
      i = close + run;
    }
  }
  return out;
}

/** Normalized, de-duplicated WikiLink concepts found outside code. */
function extractConcepts(markdownBody) {
  const concepts = new Set();
  for (const block of proseBlocks(markdownBody)) {
    for (const match of maskInlineCode(block).matchAll(WIKILINK)) {
      const concept = normalizeConcept(match[1] ?? '');
      if (concept !== '') concepts.add(concept);
    }
  }
  return [...concepts];
}

/** `## ` sections of a body (fence-aware): heading text and trimmed content up to the next `## `. */
function h2Sections(body) {
  const sections = [];
  let current;
  let fence;
  for (const line of body.split(/\r?\n/)) {
    if (!fence) {
      const open = FENCE_OPEN.exec(line);
      if (open) fence = { char: open[1]?.[0], length: open[1]?.length ?? 3 };
      const heading = /^ {0,3}##(?:[ \t]+(.*?))?[ \t]*#*[ \t]*$/.exec(line);
      if (!open && heading) {
        if (current) sections.push(current);
        current = { heading: (heading[1] ?? '').trim(), lines: [] };
        continue;
      }
    } else {
      const close = /^ {0,3}(`{3,}|~{3,})\s*$/.exec(line);
      if (close && close[1]?.[0] === fence.char && (close[1]?.length ?? 0) >= fence.length) fence = undefined;
    }
    current?.lines.push(line);
  }
  if (current) sections.push(current);
  return sections.map((s) => ({ heading: s.heading, content: s.lines.join('\n').trim() }));
}

// ---------------------------------------------------------------------------
// Titles, slugs, checksums, time
// ---------------------------------------------------------------------------

/** The title sanitation of the contract (hyphens are removed too). */
function sanitizeTitle(input) {
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

function slugify(text) {
  const slug = text
    .toLowerCase()
    .replace(/[\s_]+/g, '-')
    .replace(/[^a-z0-9-]/g, '')
    .replace(/-+/g, '-')
    .replace(/^-+|-+$/g, '');
  return slug === '' ? 'untitled' : slug;
}

function checksum(text) {
  return createHash('sha256').update(text, 'utf8').digest('base64');
}

/** `yyyy-MM-dd HH:mm` in UTC. */
function formatMinute(ms) {
  return new Date(ms).toISOString().slice(0, 16).replace('T', ' ');
}

function writeFileAtomic(path, text) {
  mkdirSync(dirname(path), { recursive: true });
  const tmp = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  writeFileSync(tmp, text);
  renameSync(tmp, path);
}

/** The per-root WikiLink block list, keyed by normalized concept. A malformed file blocks nothing. */
function loadWikiLinkFilter() {
  const path = join(memoryDir(), '.wikilink-filter.json');
  if (!existsSync(path)) return new Map();
  try {
    const parsed = JSON.parse(readFileSync(path, 'utf8'));
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return new Map();
    return new Map(Object.entries(parsed).map(([concept, reason]) => [normalizeConcept(concept), String(reason)]));
  } catch {
    // Same as maenifold: an unreadable filter is treated as empty.
    return new Map();
  }
}

// ---------------------------------------------------------------------------
// Memory tools
// ---------------------------------------------------------------------------

function writeMemory(payload) {
  const rawTitle = readString(payload, 'title', true);
  const content = readString(payload, 'content', true);
  const folderArg = readString(payload, 'folder');
  const tags = readStringArray(payload, 'tags') ?? [];

  if (rawTitle.length >= MAX_TITLE_CHARS) {
    throw new ToolError(
      'PATH_TOO_LONG',
      `Title is ${rawTitle.length} characters; titles must be shorter than ${MAX_TITLE_CHARS} characters.`,
    );
  }
  const title = sanitizeTitle(rawTitle);

  const concepts = extractConcepts(content);
  if (concepts.length === 0) {
    throw new ToolError(
      'VALIDATION_ERROR',
      'Content must contain at least one [[WikiLink]] concept outside code (fenced, indented or inline code is ignored) ' +
        "to connect to the knowledge graph. Example: 'Learning about [[Machine Learning]] and [[Data Science]]'",
    );
  }
  const filter = loadWikiLinkFilter();
  const blocked = concepts.filter((concept) => filter.has(concept));
  if (blocked.length > 0) {
    const list = blocked.map((concept) => `[[${concept}]] (${filter.get(concept)})`).join(', ');
    throw new ToolError('FILTERED_WIKILINKS', `Content contains filtered WikiLinks: ${list}. Remove or replace them.`);
  }

  const folder = folderArg ? validateRelativePath(folderArg, 'folder path') : '';
  const slug = slugify(title);
  const path = join(memoryDir(), ...(folder ? folder.split('/') : []), `${slug}.md`);
  const now = new Date().toISOString();
  const body = content.trimStart().startsWith('# ') ? content : `# ${title}\n\n${content}`;
  const text =
    formatFrontmatter({ title, permalink: slug, type: 'memory', status: 'saved', created: now, modified: now, tags }) +
    body;
  writeFileAtomic(path, text);
  process.stderr.write('[SYNC TELEMETRY] CLI write: graph not updated (run Sync)\n');

  const uri = pathToUri(path);
  const sum = checksum(text);
  return {
    data: { uri, checksum: sum, title, folder },
    text: `Created memory FILE: ${uri}\nChecksum: ${sum}\n\nUse ReadMemory with this URI to access content`,
  };
}

/** Resolves a memory:// URI, a relative path, or a title/slug to an existing file (or undefined). */
function resolveIdentifier(identifier) {
  if (identifier.startsWith('memory://')) {
    const path = uriToPath(identifier);
    return existsSync(path) ? path : undefined;
  }
  const rel = validateRelativePath(identifier, 'identifier');
  const direct = join(memoryDir(), rel);
  if (rel !== '' && existsSync(direct) && statSync(direct).isFile()) return direct;
  if (rel !== '' && existsSync(`${direct}.md`)) return `${direct}.md`;
  const slug = slugify(identifier);
  return listMarkdownFiles(memoryDir()).find((file) => file.split(sep).pop()?.slice(0, -3).toLowerCase() === slug);
}

function readMemory(payload) {
  const identifier = readString(payload, 'identifier', true);
  const path = resolveIdentifier(identifier);
  if (!path) throw new ToolError('NOT_FOUND', `Memory file not found: ${identifier}`);
  const text = readFileSync(path, 'utf8');
  const { frontmatter, body } = parseMarkdown(text);
  const uri = pathToUri(path);
  const title = typeof frontmatter.title === 'string' ? frontmatter.title : titleFromBody(body, path);
  const sum = checksum(text);
  return {
    data: { uri, title, content: body, checksum: sum, frontmatter },
    text: `# ${title}\nURI: ${uri}\nChecksum: ${sum}\n\n${body}`,
  };
}

function deleteMemory(payload) {
  const identifier = readString(payload, 'identifier', true);
  const confirm = readBool(payload, 'confirm', false);
  const path = resolveIdentifier(identifier);
  if (!path) throw new ToolError('NOT_FOUND', `Memory file not found: ${identifier}`);
  if (!confirm) throw new ToolError('VALIDATION_ERROR', 'Must set confirm=true to delete a memory file.');
  rmSync(path);
  const uri = pathToUri(path);
  return { data: { uri, deleted: true }, text: `Deleted memory FILE: ${uri}` };
}

function titleFromBody(body, path) {
  const h1 = /^# (.+)$/m.exec(body);
  return h1?.[1]?.trim() ?? (path.split(sep).pop() ?? '').replace(/\.md$/i, '');
}

function listMemories(payload) {
  const pathArg = readString(payload, 'path') ?? '';
  const rel = validateRelativePath(pathArg.replace(/^memory:\/\//, ''), 'path');
  const dir = join(memoryDir(), ...(rel ? rel.split('/') : []));
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new ToolError('NOT_FOUND', `Directory not found: memory://${rel}`);
  const entries = readdirSync(dir, { withFileTypes: true }).filter((e) => !e.name.startsWith('.'));
  const dirs = entries.filter((e) => e.isDirectory()).map((e) => e.name).sort();
  const files = entries.filter((e) => e.isFile() && e.name.toLowerCase().endsWith('.md')).map((e) => e.name).sort();
  if (dirs.length === 0 && files.length === 0) return { text: `No memories found in memory://${rel}` };
  const lines = [`# Memory listing: memory://${rel}`, ''];
  if (dirs.length > 0) {
    lines.push('Directories:');
    for (const name of dirs) lines.push(`  - ${name}/ (${listMarkdownFiles(join(dir, name)).length} files)`);
    lines.push('');
  }
  if (files.length > 0) {
    lines.push('Files:');
    for (const name of files) {
      const stat = statSync(join(dir, name));
      lines.push(`  - ${pathToUri(join(dir, name))} (${stat.size} bytes, modified ${formatMinute(stat.mtimeMs)})`);
    }
  }
  return { text: lines.join('\n').trimEnd() };
}

// ---------------------------------------------------------------------------
// SearchMemories: full-text scoring over the files on disk
// ---------------------------------------------------------------------------

const SEARCH_MODES = new Map(['Hybrid', 'Semantic', 'FullText'].map((m) => [m.toLowerCase(), m]));

function searchMemories(payload) {
  const query = readString(payload, 'query', true);
  const modeArg = readString(payload, 'mode') ?? 'Hybrid';
  const mode = SEARCH_MODES.get(modeArg.toLowerCase());
  if (!mode) throw new ToolError('INVALID_ARGUMENT', `Requested value '${modeArg}' was not found. Use Hybrid, Semantic or FullText.`);
  const pageSize = readInt(payload, 'pageSize', 10);
  const page = readInt(payload, 'page', 1);
  if (pageSize < 1 || page < 1) throw new ToolError('INVALID_ARGUMENT', 'pageSize and page must be >= 1');
  const folderArg = readString(payload, 'folder');
  const tags = readStringArray(payload, 'tags') ?? [];
  const minScore = typeof payload.minScore === 'number' ? payload.minScore : 0;

  const terms = [...new Set(query.toLowerCase().split(/[^\p{L}\p{N}]+/u))].filter((t) => t !== '' && !STOP_WORDS.has(t));
  if (terms.length === 0) {
    return {
      plain: 'ERROR: Query contains no informative keywords after removing stop words. Use more specific terms.',
    };
  }

  const folder = folderArg ? validateRelativePath(folderArg, 'folder path') : '';
  const files = listMarkdownFiles(join(memoryDir(), ...(folder ? folder.split('/') : [])));
  if (folder && files.length === 0) return { plain: 'No memories found in specified folder' };

  const scored = [];
  for (const file of files) {
    const { frontmatter, body } = parseMarkdown(readFileSync(file, 'utf8'));
    const fileTags = Array.isArray(frontmatter.tags) ? frontmatter.tags.map(String) : [];
    if (!tags.every((tag) => fileTags.includes(tag))) continue;
    const title = typeof frontmatter.title === 'string' ? frontmatter.title : titleFromBody(body, file);
    const haystack = `${title}\n${body}`.toLowerCase();
    const words = new Set(haystack.split(/[^\p{L}\p{N}]+/u));
    let hits = 0;
    let matched = 0;
    for (const term of terms) {
      const count = haystack.split(term).length - 1;
      hits += count;
      if (count > 0) matched += 1;
    }
    if (matched === 0) continue;
    const textScore = round((matched / terms.length) * (hits / (hits + 1)));
    const semanticScore = round((terms.filter((t) => words.has(t)).length / terms.length) * 0.9);
    const fusedScore = mode === 'FullText' ? textScore : mode === 'Semantic' ? semanticScore : round((textScore + semanticScore) / 2);
    if (fusedScore <= 0 || fusedScore < minScore) continue;
    scored.push({ title, path: pathToUri(file), fusedScore, textScore, semanticScore, snippet: snippetFor(body, terms) });
  }
  scored.sort((a, b) => b.fusedScore - a.fusedScore || a.path.localeCompare(b.path));
  const results = scored.slice((page - 1) * pageSize, page * pageSize);

  const lines =
    results.length === 0
      ? [`No memories found for '${query}'`]
      : [`Found ${scored.length} memories for '${query}' (${mode}, page ${page}):`, ''].concat(
          results.flatMap((r, i) => [
            `${(page - 1) * pageSize + i + 1}. **${r.title}**`,
            `   ${r.path}`,
            `   Score: ${r.fusedScore} (text ${r.textScore}, semantic ${r.semanticScore})`,
            `   ${r.snippet.replace(/\s+/g, ' ')}`,
            '',
          ]),
        );
  return {
    data: { query, mode, page, pageSize, totalResults: scored.length, results },
    text: lines.join('\n').trimEnd(),
  };
}

function round(value) {
  return Math.round(value * 1000) / 1000;
}

/** 200 characters around the first hit, cut blindly (WikiLinks may be split, as upstream). */
function snippetFor(body, terms) {
  const lower = body.toLowerCase();
  const first = Math.min(...terms.map((t) => lower.indexOf(t)).filter((i) => i >= 0));
  const start = Number.isFinite(first) ? Math.max(0, first - 40) : 0;
  return body.slice(start, start + SNIPPET_CHARS);
}

// ---------------------------------------------------------------------------
// Graph snapshot: built by Sync, read by BuildContext and RecentActivity
// ---------------------------------------------------------------------------

function sync() {
  const started = Date.now();
  const filter = loadWikiLinkFilter();
  const files = [];
  let abandoned = 0;
  for (const path of listMarkdownFiles(memoryDir())) {
    let text = readFileSync(path, 'utf8');
    let { frontmatter, body } = parseMarkdown(text);
    let mtimeMs = statSync(path).mtimeMs;
    if (frontmatter.type === 'sequential' && frontmatter.status === 'active' && started - mtimeMs > ABANDON_AFTER_MS) {
      frontmatter = { ...frontmatter, status: 'abandoned', abandoned: new Date(started).toISOString() };
      text = formatFrontmatter(frontmatter) + body;
      // Marking a session abandoned must not make it look recently active.
      writeFileSync(path, text);
      utimesSync(path, new Date(mtimeMs), new Date(mtimeMs));
      abandoned += 1;
    }
    ({ body } = parseMarkdown(text));
    const uri = pathToUri(path);
    files.push({
      uri,
      title: typeof frontmatter.title === 'string' ? frontmatter.title : titleFromBody(body, path),
      type: typeof frontmatter.type === 'string' ? frontmatter.type : 'memory',
      status: typeof frontmatter.status === 'string' ? frontmatter.status : 'active',
      modifiedMs: mtimeMs,
      concepts: extractConcepts(body).filter((concept) => !filter.has(concept)),
      content: body,
    });
  }

  const relations = new Map();
  for (const file of files) {
    const concepts = [...file.concepts].sort();
    for (let i = 0; i < concepts.length; i += 1) {
      for (let j = i + 1; j < concepts.length; j += 1) {
        const key = `${concepts[i]}\u0000${concepts[j]}`;
        const relation = relations.get(key) ?? { a: concepts[i], b: concepts[j], files: [] };
        relation.files.push(file.uri);
        relations.set(key, relation);
      }
    }
  }
  const conceptSet = new Set(files.flatMap((file) => file.concepts));
  const graph = {
    format: GRAPH_FORMAT,
    version: 1,
    syncedAt: new Date().toISOString(),
    files,
    concepts: [...conceptSet].sort(),
    relations: [...relations.values()],
    communities: detectCommunities([...conceptSet], [...relations.values()]),
  };
  writeFileAtomic(graphPath(), JSON.stringify(graph));

  const elapsed = Date.now() - started;
  process.stderr.write(
    `[SYNC TELEMETRY] files=${files.length} concepts=${conceptSet.size} relations=${relations.size} elapsed=${elapsed}ms\n`,
  );
  return {
    text: [
      'Sync complete',
      `  Files processed: ${files.length}`,
      `  Concepts: ${conceptSet.size}`,
      `  Relations: ${relations.size}`,
      `  Sessions marked abandoned: ${abandoned}`,
      `  Duration: ${elapsed}ms`,
    ].join('\n'),
  };
}

/** Connected components, numbered from 0 in order of their alphabetically first concept. */
function detectCommunities(concepts, relations) {
  const neighbours = adjacency(relations);
  const community = {};
  let next = 0;
  for (const start of [...concepts].sort()) {
    if (start in community) continue;
    const stack = [start];
    community[start] = next;
    while (stack.length > 0) {
      const current = stack.pop();
      for (const n of neighbours.get(current) ?? []) {
        if (!(n in community)) {
          community[n] = next;
          stack.push(n);
        }
      }
    }
    next += 1;
  }
  return community;
}

function adjacency(relations) {
  const map = new Map();
  for (const { a, b } of relations) {
    if (!map.has(a)) map.set(a, new Set());
    if (!map.has(b)) map.set(b, new Set());
    map.get(a).add(b);
    map.get(b).add(a);
  }
  return map;
}

/** The last Sync's snapshot, or undefined when Sync never ran. */
function loadGraph() {
  if (!existsSync(graphPath())) return undefined;
  let graph;
  try {
    graph = JSON.parse(readFileSync(graphPath(), 'utf8'));
  } catch {
    throw new ToolError('INTERNAL_ERROR', `Graph database at ${graphPath()} is unreadable. Run Sync to rebuild it.`);
  }
  if (graph?.format !== GRAPH_FORMAT) {
    throw new ToolError('INTERNAL_ERROR', `Graph database at ${graphPath()} has an unknown format. Run Sync to rebuild it.`);
  }
  return graph;
}

function buildContext(payload) {
  const conceptArg = readString(payload, 'conceptName', true);
  const depth = readInt(payload, 'depth', 2);
  const maxEntities = readInt(payload, 'maxEntities', 20);
  const includeContent = readBool(payload, 'includeContent', false);
  if (depth < 0) throw new ToolError('INVALID_ARGUMENT', 'depth must be >= 0');
  const concept = normalizeConcept(conceptArg);

  // The real CLI creates an empty graph on first use: no snapshot reads as "no relations".
  const graph = loadGraph() ?? { files: [], relations: [], communities: {} };
  const related = graph.relations
    .filter((r) => r.a === concept || r.b === concept)
    .map((r) => ({ name: r.a === concept ? r.b : r.a, files: r.files }))
    .sort((x, y) => y.files.length - x.files.length || x.name.localeCompare(y.name))
    .slice(0, Math.max(0, maxEntities));

  const lines = [`Context for CONCEPT: ${concept}`, '', `Direct relations (${related.length} CONCEPTS):`];
  const contentByUri = new Map(graph.files.map((f) => [f.uri, f.content]));
  for (const r of related) {
    lines.push(`  • ${r.name} (co-occurs in ${r.files.length} files) [community ${graph.communities[r.name] ?? 0}]`);
    const shown = r.files.slice(0, 3);
    if (shown.length > 0) lines.push(`    Files: ${shown.join(', ')}`);
    if (includeContent) {
      lines.push('    Content preview:');
      for (const uri of shown) lines.push(`      ${uri}: ${preview(contentByUri.get(uri) ?? '')}`);
    }
  }

  if (depth > 1) {
    const expanded = expandRelations(graph.relations, concept, related.slice(0, 5), depth).slice(0, maxEntities);
    lines.push('', `Expanded relations (${depth} hops):`);
    for (const name of expanded.slice(0, 20)) lines.push(`  • ${name}`);
    if (concept in graph.communities) {
      const own = graph.communities[concept];
      const seen = new Set([concept, ...related.map((r) => r.name), ...expanded]);
      const siblings = Object.keys(graph.communities)
        .filter((c) => graph.communities[c] === own && !seen.has(c))
        .sort()
        .slice(0, 10);
      if (siblings.length > 0) {
        lines.push('', `Community siblings (${siblings.length} CONCEPTS in community ${own}):`);
        for (const name of siblings) lines.push(`  • ${name}`);
      }
    }
  }
  return { text: lines.join('\n') };
}

function expandRelations(relations, concept, direct, depth) {
  const neighbours = adjacency(relations);
  const visited = new Set([concept]);
  const expanded = [];
  const traverse = (current, level) => {
    if (level >= depth) return;
    for (const next of [...(neighbours.get(current) ?? [])].sort()) {
      if (visited.has(next)) continue;
      visited.add(next);
      expanded.push(next);
      traverse(next, level + 1);
    }
  };
  for (const r of direct) traverse(r.name, 1);
  return expanded;
}

function preview(content) {
  const flat = content.replace(/\s+/g, ' ').trim();
  return flat.length <= 200 ? flat : `${flat.slice(0, 200).replace(/\s\S*$/, '')}...`;
}

// ---------------------------------------------------------------------------
// RecentActivity
// ---------------------------------------------------------------------------

/**
 * .NET `TimeSpan` text: `d`, `hh:mm`, `hh:mm:ss`, `d.hh:mm:ss[.fffffff]`, optionally
 * negative. Hours 0–23, minutes and seconds 0–59. Returns milliseconds or undefined.
 */
function parseTimeSpan(text) {
  const m = /^\s*(-)?(?:(\d+)|(?:(\d+)\.)?(\d{1,2}):(\d{1,2})(?::(\d{1,2})(?:\.(\d{1,7}))?)?)\s*$/.exec(text);
  if (!m) return undefined;
  const sign = m[1] ? -1 : 1;
  if (m[2] !== undefined) return sign * Number(m[2]) * 86_400_000;
  const [days, hours, minutes, seconds] = [m[3], m[4], m[5], m[6]].map((v) => Number(v ?? 0));
  if (hours > 23 || minutes > 59 || seconds > 59) return undefined;
  const fraction = m[7] ? Number(`0.${m[7]}`) * 1000 : 0;
  return sign * ((((days * 24 + hours) * 60 + minutes) * 60 + seconds) * 1000 + fraction);
}

const ACTIVITY_FILTERS = new Set(['all', 'thinking', 'memory', 'assumptions', 'chat']);

function recentActivity(payload) {
  const limit = Math.max(0, readInt(payload, 'limit', 10));
  const filter = (readString(payload, 'filter') ?? 'all').toLowerCase();
  const timespanArg = payload.timespan;
  const includeContent = readBool(payload, 'includeContent', false);
  if (!ACTIVITY_FILTERS.has(filter)) {
    throw new ToolError('VALIDATION_ERROR', `Unknown filter '${filter}'. Use thinking, memory, assumptions or all.`);
  }
  let spanMs;
  if (timespanArg !== undefined && timespanArg !== null) {
    spanMs = typeof timespanArg === 'string' ? parseTimeSpan(timespanArg) : undefined;
    if (spanMs === undefined) {
      throw new ToolError(
        'VALIDATION_ERROR',
        `Invalid timespan '${String(timespanArg)}'. Use a TimeSpan such as '1.00:00:00' (1 day) or '03:00:00' (3 hours).`,
      );
    }
    if (spanMs < 0) throw new ToolError('VALIDATION_ERROR', "timespan parameter must be positive. Example: '1.00:00:00' for 1 day.");
  }

  const graph = loadGraph();
  if (!graph) return { text: '# Recent Activity\n\nNo database found. Run the `Sync` command first to index memory files.' };

  const cutoff = spanMs === undefined ? -Infinity : Date.now() - spanMs;
  const selected = graph.files
    .filter((f) => f.modifiedMs >= cutoff && matchesFilter(f.uri, filter))
    .sort((a, b) => b.modifiedMs - a.modifiedMs || a.uri.localeCompare(b.uri))
    .slice(0, limit);
  if (selected.length === 0) return { text: 'No recent activity found' };

  const lines = ['# Recent Activity', ''];
  for (const file of selected) {
    lines.push(...activityBlock(file, includeContent), '');
  }
  return { text: lines.join('\n').trimEnd() };
}

function matchesFilter(uri, filter) {
  const thinking = uri.startsWith('memory://thinking/');
  if (filter === 'thinking') return thinking;
  if (filter === 'chat') return uri.startsWith('memory://chat/');
  if (filter === 'assumptions') return uri.startsWith('memory://assumptions/');
  if (filter === 'memory') return !thinking && !uri.startsWith('memory://chat/');
  return true;
}

function activityType(uri) {
  if (!uri.startsWith('memory://thinking/')) return 'memory';
  if (uri.includes('/sequential/')) return 'sequential';
  if (uri.includes('/workflow/')) return 'workflow';
  return 'thinking';
}

function activitySnippet(content) {
  const lines = content.split('\n').filter((l) => l.trim() !== '');
  const kept = lines.filter((l) => !l.trimStart().startsWith('*'));
  const snippet = (kept.length > 0 ? kept : lines).join(' ').trim();
  return snippet.length > ACTIVITY_SNIPPET_CHARS ? `${snippet.slice(0, ACTIVITY_SNIPPET_CHARS - 3)}...` : snippet;
}

function activityBlock(file, includeContent) {
  const id = file.uri.split('/').pop() ?? file.uri;
  const type = activityType(file.uri);
  const sections = h2Sections(file.content);
  const lines = [];
  let shown = sections;
  if (type === 'sequential' || type === 'workflow' || type === 'thinking') {
    const thoughts = sections.filter((s) => s.heading.startsWith('Thought')).length;
    const isThought = type === 'sequential' || thoughts > 0;
    shown = sections.filter((s) => s.heading !== 'Completion' && s.heading !== 'Cancellation');
    lines.push(`**${id}** (${isThought ? 'sequential' : 'workflow'})`, `  Modified: ${formatMinute(file.modifiedMs)}`);
    if (isThought) lines.push(`  Thoughts: ${thoughts}`);
    else lines.push(`  Steps: ${sections.filter((s) => s.heading.includes('Step') || s.heading.includes('Response')).length}`);
    lines.push(`  Status: ${file.status}`);
  } else {
    lines.push(
      `**${id}** (memory)`,
      `  Modified: ${formatMinute(file.modifiedMs)}`,
      `  Title: ${file.title}`,
      `  Sections: ${sections.length}`,
    );
  }
  const first = shown[0];
  const last = shown[shown.length - 1];
  if (first) {
    if (includeContent) lines.push(`  First H2: ${first.heading}`, `  First H2 Content: ${first.content}`);
    else lines.push(`  First: "${activitySnippet(first.content)}"`);
  }
  if (last && shown.length > 1) {
    if (includeContent) lines.push(`  Last H2: ${last.heading}`, `  Last H2 Content: ${last.content}`);
    else if (activitySnippet(last.content) !== activitySnippet(first?.content ?? '')) {
      lines.push(`  Last: "${activitySnippet(last.content)}"`);
    }
  }
  return lines;
}

// ---------------------------------------------------------------------------
// SequentialThinking
// ---------------------------------------------------------------------------

const SESSION_ID = /^session-(\d+)(?:-(\d+))?$/;

function sequentialThinking(payload) {
  const response = readString(payload, 'response');
  const thoughts = readString(payload, 'thoughts');
  const nextThoughtNeeded = readBool(payload, 'nextThoughtNeeded', false);
  const thoughtNumber = readInt(payload, 'thoughtNumber', 0);
  const totalThoughts = readInt(payload, 'totalThoughts', 0);
  const sessionArg = readString(payload, 'sessionId');
  const cancel = readBool(payload, 'cancel', false);
  const conclusion = readString(payload, 'conclusion');
  const analysisType = readString(payload, 'analysisType');
  const agent = readString(payload, 'agent') ?? process.env.AGENT_ID ?? 'agent';
  if (thoughtNumber < 0 || totalThoughts < 0) {
    throw new ToolError('INVALID_ARGUMENT', 'thoughtNumber and totalThoughts must be >= 0');
  }

  if (!cancel && extractConcepts(`${response ?? ''}\n\n${thoughts ?? ''}`).length === 0) {
    throw new ToolError(
      'WIKILINK_REQUIRED',
      "Must include [[concepts]] (WikiLinks outside code) in response or thoughts. Example: 'Analyzing [[Machine Learning]] algorithms'",
    );
  }
  if (sessionArg !== undefined && !SESSION_ID.test(sessionArg)) {
    throw new ToolError(
      'INVALID_SESSION_ID',
      'Invalid sessionId format. Use maenifold-generated values (session-{unix-milliseconds}-{digits}) or omit sessionId to start a new session.',
    );
  }

  let sessionId = sessionArg;
  const exists = sessionId !== undefined && existsSync(sessionPath(sessionId));
  if (sessionId === undefined) {
    if (thoughtNumber !== 0) {
      throw new ToolError('SESSION_MISSING', 'No sessionId given for a continuing thought. Start with thoughtNumber=0 and no sessionId.');
    }
  } else if (thoughtNumber === 0 && exists) {
    throw new ToolError('SESSION_EXISTS', `Session ${sessionId} exists. Continue it with thoughtNumber > 0, or omit sessionId to start a new one.`);
  } else if (thoughtNumber === 0) {
    throw new ToolError('SESSION_NOT_FOUND', `Session ${sessionId} not found. To start a new session, don't provide sessionId.`);
  } else if (!exists) {
    throw new ToolError('SESSION_MISSING', `Session ${sessionId} missing. Start with thoughtNumber=0.`);
  }

  const completing = !nextThoughtNeeded && !cancel;
  if (completing && (conclusion === undefined || conclusion.trim() === '')) {
    throw new ToolError('CONCLUSION_REQUIRED', 'Conclusion required when completing session. Must synthesize findings with [[concepts]].');
  }
  if (completing && extractConcepts(conclusion ?? '').length === 0) {
    throw new ToolError('CONCLUSION_WIKILINK_REQUIRED', 'Conclusion must include [[concepts]] for knowledge graph integration.');
  }

  if (sessionId === undefined) {
    sessionId = `session-${Date.now()}-${String(randomInt(0, 100_000)).padStart(5, '0')}`;
    const frontmatter = {
      title: `Sequential Thinking Session ${sessionId}`,
      permalink: sessionId,
      type: 'sequential',
      status: 'active',
      created: new Date().toISOString(),
      analysisType,
    };
    writeFileAtomic(sessionPath(sessionId), `${formatFrontmatter(frontmatter)}# Sequential Thinking Session\n`);
  }
  const path = sessionPath(sessionId);
  let { frontmatter, body } = parseMarkdown(readFileSync(path, 'utf8'));
  const stamp = new Date().toISOString().slice(0, 19).replace('T', ' ');
  if (!cancel && response !== undefined) {
    const text = `${response}\n${thoughts ? `\n*Thoughts: ${thoughts}*\n` : ''}\n*${stamp}*`;
    body = appendSection(body, `Thought ${thoughtNumber}/${totalThoughts} [${agent}]`, text);
  }
  let status = typeof frontmatter.status === 'string' ? frontmatter.status : 'active';
  if (cancel) {
    status = 'cancelled';
    frontmatter = { ...frontmatter, status, cancelled: new Date().toISOString(), thoughtCount: thoughtNumber + 1 };
  } else if (completing) {
    body = appendSection(body, 'Conclusion', conclusion ?? '');
    status = 'completed';
    frontmatter = { ...frontmatter, status, completed: new Date().toISOString(), thoughtCount: thoughtNumber + 1 };
  } else {
    status = 'active';
    frontmatter = { ...frontmatter, status };
  }
  writeFileAtomic(path, formatFrontmatter(frontmatter) + body);

  let message = thoughtNumber === 0 ? `Created session: ${sessionId}` : `Added thought ${thoughtNumber} to session: ${sessionId}`;
  if (cancel) message += '\n\n❌ Thinking cancelled';
  else if (completing) message += '\n\n✅ Thinking complete';
  else message += `\n\n💭 Continue with thought ${thoughtNumber + 1}/${totalThoughts}`;
  return {
    data: { sessionId, thoughtNumber, totalThoughts, status, nextThoughtNeeded, message },
    text: message,
  };
}

function appendSection(body, heading, content) {
  const base = body === '' || body.endsWith('\n') ? body : `${body}\n`;
  return `${base}\n## ${heading}\n\n${content}\n`;
}

// ---------------------------------------------------------------------------
// Dispatch, output, recording, faults
// ---------------------------------------------------------------------------

const HANDLERS = {
  WriteMemory: writeMemory,
  ReadMemory: readMemory,
  DeleteMemory: deleteMemory,
  ListMemories: listMemories,
  SearchMemories: searchMemories,
  BuildContext: buildContext,
  RecentActivity: recentActivity,
  SequentialThinking: sequentialThinking,
  Sync: sync,
};

const USAGE = [
  'maenifold CLI',
  '',
  'Usage:',
  "  Direct tool mode:  maenifold --tool <name> --payload '<json>' [--json]",
  '',
  `Available tools: ${TOOLS.join(', ')}`,
].join('\n');

/** `--tool`, `--payload` (each followed by a value) and `--json`, in any order. */
function parseArgv(argv) {
  const args = { tool: undefined, payload: undefined, json: false };
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i];
    if (arg === '--json') args.json = true;
    else if (arg === '--tool' && i + 1 < argv.length) args.tool = argv[++i];
    else if (arg === '--payload' && i + 1 < argv.length) args.payload = argv[++i];
  }
  return args;
}

function record(argv, args) {
  const logPath = process.env.MAENIFOLD_DOUBLE_LOG;
  if (!logPath) return;
  let payload = args.payload ?? null;
  if (typeof args.payload === 'string') {
    try {
      payload = JSON.parse(args.payload);
    } catch {
      // Recorded as the raw text so tests can see what was sent.
    }
  }
  const line = JSON.stringify({ argv, tool: args.tool ?? null, payload, json: args.json, at: new Date().toISOString() });
  try {
    appendFileSync(logPath, `${line}\n`);
  } catch (error) {
    // A broken log path must not turn a handled call into a crash; say so on stderr.
    process.stderr.write(`maenifold double: cannot append to MAENIFOLD_DOUBLE_LOG: ${error instanceof Error ? error.message : String(error)}\n`);
  }
}

function envelope(success, data, error) {
  return JSON.stringify({ success, data: success ? data : null, error: success ? null : error });
}

/** Runs one tool and renders its outcome for the tool's output mode. */
function invoke(args) {
  const canonical = args.tool === undefined ? undefined : TOOL_BY_LOWER.get(args.tool.toLowerCase());
  if (!canonical) {
    const message = `Unknown tool: ${args.tool}`;
    return args.json ? envelope(false, null, { code: 'UNKNOWN_TOOL', message }) : `ERROR: ${message}`;
  }
  const useEnvelope = args.json && ENVELOPE_TOOLS.has(canonical);
  const fail = (code, message) => {
    if (useEnvelope) return envelope(false, null, { code, message });
    return HOST_ERROR_CODES.has(code) ? `Error invoking ${args.tool}: ${message}` : `ERROR: ${message}`;
  };

  let payload;
  try {
    if (args.payload === undefined) throw new Error('Missing --payload argument');
    payload = JSON.parse(args.payload);
  } catch (error) {
    return fail('INVALID_PAYLOAD', error instanceof Error ? error.message : String(error));
  }
  if (payload === null || typeof payload !== 'object' || Array.isArray(payload)) {
    return fail('INVALID_PAYLOAD', 'The payload must be a JSON object');
  }

  try {
    mkdirSync(memoryDir(), { recursive: true });
    const result = HANDLERS[canonical](payload);
    if (result.plain !== undefined) return result.plain;
    return useEnvelope ? envelope(true, result.data) : result.text;
  } catch (error) {
    if (error instanceof ToolError) return fail(error.code, error.message);
    return fail('INTERNAL_ERROR', error instanceof Error ? error.message : String(error));
  }
}

function faultFor(tool) {
  const fault = process.env.MAENIFOLD_DOUBLE_FAULT;
  if (!fault) return undefined;
  const only = process.env.MAENIFOLD_DOUBLE_FAULT_TOOLS;
  if (only) {
    const names = only.split(',').map((name) => name.trim().toLowerCase());
    if (!names.includes((tool ?? '').toLowerCase())) return undefined;
  }
  return fault;
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Writes `bytes` of filler to stdout, honouring back-pressure; stops quietly if the reader goes away. */
async function writeHuge(bytes) {
  const chunk = Buffer.alloc(1024 * 1024, 'maenifold-double huge output\n');
  let closed = false;
  process.stdout.on('error', () => {
    closed = true;
  });
  for (let written = 0; written < bytes && !closed; written += chunk.length) {
    const part = bytes - written < chunk.length ? chunk.subarray(0, bytes - written) : chunk;
    if (!process.stdout.write(part)) await new Promise((resolve) => process.stdout.once('drain', resolve));
  }
}

/** Applies an injected fault. Returns true when the fault replaces the normal run. */
async function applyFault(fault) {
  if (fault === 'hang') {
    // Never settles: the caller has to kill the process.
    setInterval(() => {}, 1 << 30);
    await new Promise(() => {});
  }
  if (fault === 'garbage') {
    process.stdout.write(Buffer.concat([Buffer.from([0xff, 0xfe, 0x00, 0x7b]), randomBytes(512), Buffer.from('\n')]));
    return true;
  }
  if (fault === 'crash') {
    process.stderr.write(
      [
        'Unhandled exception. System.InvalidOperationException: Injected crash (MAENIFOLD_DOUBLE_FAULT=crash)',
        '   at Maenifold.Tools.ToolRegistry.TryInvoke(String name, JsonElement payload, Object& result)',
        '   at Program.<Main>$(String[] args) in /src/Program.cs:line 74',
        '',
      ].join('\n'),
    );
    process.exitCode = 134;
    return true;
  }
  if (fault === 'huge') {
    await writeHuge(HUGE_BYTES);
    return true;
  }
  const slow = /^slow:(\d+)$/.exec(fault);
  if (slow) {
    await sleep(Number(slow[1]));
    return false;
  }
  process.stderr.write(`maenifold double: ignoring unknown MAENIFOLD_DOUBLE_FAULT '${fault}'\n`);
  return false;
}

async function main() {
  const argv = process.argv.slice(2);
  const args = parseArgv(argv);
  record(argv, args);
  const fault = faultFor(args.tool);
  if (fault && (await applyFault(fault))) return;
  if (args.tool === undefined) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  process.stdout.write(`${invoke(args)}\n`);
}

await main();
