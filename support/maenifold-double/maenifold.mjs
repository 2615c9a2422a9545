#!/usr/bin/env node
// Test double of the maenifold CLI, reduced to the contract the plugin relies on
// (maenifold-cli.md): `maenifold --tool <Name> --payload '<json>' [--json]`, tool
// names case-insensitive, exit 0 for every handled outcome, the JSON envelope only
// with --json and only for the envelope tools, plain text otherwise, WikiLinks
// required outside code, and the tools the plugin calls: WriteMemory, ReadMemory,
// ListMemories, SearchMemories, RecentActivity, BuildContext, SequentialThinking,
// plus Sync, the only way new files reach BuildContext and RecentActivity.
// Not here, because the plugin never reads them: DeleteMemory, communities,
// expanded relations, pagination, tag filters, abandoning idle sessions.
// The files it writes are held to the same golden files as the built-in file store
// (test/main/memory/memory-port.test.ts).
//
// Test hooks (not part of the real CLI):
//   MAENIFOLD_DOUBLE_LOG          append one JSON line per invocation {argv, tool, payload, json, at}
//   MAENIFOLD_DOUBLE_FAULT        hang | garbage | cutoff | crash | huge | slow:<ms> | error:<CODE>
//   MAENIFOLD_DOUBLE_FAULT_TOOLS  comma list of tool names the fault applies to
//   MAENIFOLD_DOUBLE_NOW          the clock, as an ISO time: what a note or a session is stamped with
//
// Plain JavaScript with node: builtins only, so it starts as fast as node can.

import { appendFileSync, existsSync, mkdirSync, readFileSync, readdirSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, relative, sep } from 'node:path';

/** node:crypto, loaded at its first use: only writes and sessions need it, and loading it took about a sixth of the CPU of a call that reads. */
const nodeCrypto = () => process.getBuiltinModule('node:crypto');

const TOOLS = ['WriteMemory', 'ReadMemory', 'ListMemories', 'SearchMemories', 'BuildContext', 'RecentActivity', 'SequentialThinking', 'Sync'];
const TOOL_BY_LOWER = new Map(TOOLS.map((name) => [name.toLowerCase(), name]));
const ENVELOPE_TOOLS = new Set(['WriteMemory', 'ReadMemory', 'DeleteMemory', 'SequentialThinking', 'SearchMemories']);
/** Raised by the CLI host rather than a tool: `Error invoking <Tool>:` in text mode. */
const HOST_ERROR_CODES = new Set(['INVALID_PAYLOAD', 'INVALID_ARGUMENT', 'INTERNAL_ERROR']);
const WIKILINK = /(?<!\[)\[\[([^[\]]+)\]\](?!\])/g;
const STOP_WORDS = new Set('a an and are as at be but by for from has have i in is it of on or so that the this to was we were with you'.split(' '));

/** A handled failure: an envelope error or an `ERROR:` line, never a non-zero exit. */
class ToolError extends Error {
  constructor(code, message) {
    super(message);
    this.code = code;
  }
}

function arg(payload, key, type, fallback) {
  const value = payload[key];
  if (value === undefined || value === null) {
    if (fallback === undefined) throw new ToolError('INVALID_ARGUMENT', `Missing required parameter '${key}'`);
    return fallback;
  }
  const ok = type === 'integer' ? Number.isInteger(value) : type === 'string[]' ? Array.isArray(value) && value.every((v) => typeof v === 'string') : typeof value === type;
  if (!ok) throw new ToolError('INVALID_ARGUMENT', `Parameter '${key}' must be of type ${type}`);
  return value;
}
const OPTIONAL = null;
const opt = (payload, key, type) => arg(payload, key, type, OPTIONAL) ?? undefined;

// --- Paths and files --------------------------------------------------------

const rootDir = () => process.env.MAENIFOLD_ROOT || join(homedir(), 'maenifold');
const memoryDir = () => join(rootDir(), 'memory');
const graphPath = () => join(rootDir(), 'memory.db');
const pathToUri = (path) => `memory://${relative(memoryDir(), path).split(sep).join('/').replace(/\.md$/i, '')}`;

function relativePath(value) {
  const normalized = value.replace(/\\/g, '/');
  if (normalized.startsWith('/') || /^[A-Za-z]:/.test(normalized) || normalized.split('/').some((s) => s === '..' || s === '.')) {
    throw new ToolError('PATH_VALIDATION_ERROR', `Invalid path '${value}' - absolute paths and '.'/'..' segments are not allowed.`);
  }
  return normalized.replace(/^\/+|\/+$/g, '');
}

function listMarkdown(dir) {
  if (!existsSync(dir)) return [];
  const out = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name.startsWith('.')) continue;
    const full = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...listMarkdown(full));
    else if (entry.name.toLowerCase().endsWith('.md')) out.push(full);
  }
  return out.sort();
}

function writeAtomic(path, text) {
  mkdirSync(dirname(path), { recursive: true });
  const tmp = `${path}.${process.pid}.${nodeCrypto().randomBytes(4).toString('hex')}.tmp`;
  writeFileSync(tmp, text);
  renameSync(tmp, path);
}

/** The time now, or the fixed time a test set, in ms. */
const nowMs = () => (process.env.MAENIFOLD_DOUBLE_NOW ? Date.parse(process.env.MAENIFOLD_DOUBLE_NOW) : Date.now());

const checksum = (text) => nodeCrypto().createHash('sha256').update(text, 'utf8').digest('base64');
const minute = (ms) => new Date(ms).toISOString().slice(0, 16).replace('T', ' ');

// --- Markdown: frontmatter, WikiLinks outside code, H2 sections ---------------

function parseMarkdown(text) {
  const match = /^---\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/.exec(text);
  if (!match) return { frontmatter: {}, body: text };
  const frontmatter = {};
  let list;
  for (const line of match[1].split(/\r?\n/)) {
    const item = /^\s*-\s+(.*)$/.exec(line);
    if (item && list) list.push(scalar(item[1]));
    const pair = item ? null : /^([A-Za-z_][\w-]*):\s*(.*)$/.exec(line);
    if (!pair) continue;
    list = pair[2].trim() === '' ? (frontmatter[pair[1]] = []) : undefined;
    if (!list) frontmatter[pair[1]] = pair[2].trim() === '[]' ? [] : scalar(pair[2].trim());
  }
  return { frontmatter, body: text.slice(match[0].length).replace(/^(\r?\n)+/, '') };
}

function scalar(raw) {
  if (!raw.startsWith('"')) return raw;
  try {
    return JSON.parse(raw);
  } catch {
    // Not JSON escapes: keep the inner text.
    return raw.slice(1, -1);
  }
}

/** YAML scalars: plain when unambiguous, else double-quoted (JSON escapes are valid YAML). */
function yamlScalar(value) {
  const text = String(value);
  const plain = /^[A-Za-z0-9_][A-Za-z0-9 _.,/+-]*$/.test(text) && !/\s$/.test(text) && !/^(true|false|null|yes|no|on|off|~)$/i.test(text) && !/^[-+]?\d[\d_]*(\.\d*)?([eE][-+]?\d+)?$/.test(text);
  return typeof value === 'number' || plain ? text : JSON.stringify(text);
}

function formatFrontmatter(frontmatter) {
  const lines = ['---'];
  for (const [key, value] of Object.entries(frontmatter)) {
    if (value === undefined) continue;
    if (!Array.isArray(value)) lines.push(`${key}: ${yamlScalar(value)}`);
    else if (value.length === 0) lines.push(`${key}: []`);
    else lines.push(`${key}:`, ...value.map((item) => `- ${yamlScalar(item)}`));
  }
  return `${lines.join('\n')}\n---\n\n`;
}

/** maenifold's normalization: trim, lowercase, ` `/`_`/`/` → `-`, collapse `--`, trim `-`. */
const normalizeConcept = (c) => c.trim().toLowerCase().replace(/[ _/]/g, '-').replace(/-{2,}/g, '-').replace(/^-+|-+$/g, '');

/** The text of paragraphs and headings: fenced and indented code dropped, inline code blanked. */
function prose(body) {
  const kept = [];
  let fence;
  let inParagraph = false;
  for (const line of body.split(/\r?\n/)) {
    const marker = /^ {0,3}(`{3,}|~{3,})(.*)$/.exec(line);
    if (fence) {
      if (marker && marker[1][0] === fence[0] && marker[1].length >= fence.length && marker[2].trim() === '') fence = undefined;
      continue;
    }
    if (marker && !(marker[1][0] === '`' && marker[2].includes('`'))) {
      fence = marker[1];
      inParagraph = false;
      continue;
    }
    // Indented code cannot interrupt a paragraph (CommonMark).
    if (!inParagraph && /^(?: {4}|\t)/.test(line)) continue;
    inParagraph = line.trim() !== '' && !/^ {0,3}#{1,6}(\s|$)/.test(line);
    kept.push(line);
  }
  return kept.join('\n').replace(/(`+)([\s\S]*?[^`])\1(?!`)/g, (span) => ' '.repeat(span.length));
}

const concepts = (body) => [...new Set([...prose(body).matchAll(WIKILINK)].map((m) => normalizeConcept(m[1])).filter((c) => c !== ''))];

function h2Sections(body) {
  const sections = [];
  for (const line of body.split(/\r?\n/)) {
    const heading = /^##\s+(.*?)\s*$/.exec(line);
    if (heading) sections.push({ heading: heading[1], lines: [] });
    else sections.at(-1)?.lines.push(line);
  }
  return sections.map((s) => ({ heading: s.heading, content: s.lines.join('\n').trim() }));
}

// --- Titles ------------------------------------------------------------------

function sanitizeTitle(input) {
  const title = input
    .replace(/<[^>]*>/g, '')
    .replace(/[:|>\-[\]{}#&*!@`'$();"<\\]/g, '')
    // '..' goes before the slashes, as in maenifold: 'a./.b' keeps its '..' once the slash is gone.
    .split('..')
    .join('')
    .replace(/[/\\]/g, '')
    .replace(/[\x00-\x1F\x7F-\x9F]/g, '')
    .replace(/\s+/g, ' ')
    .trim();
  return title === '' ? 'Untitled' : title;
}

const slugify = (text) => text.toLowerCase().replace(/[\s_]+/g, '-').replace(/[^a-z0-9-]/g, '').replace(/-+/g, '-').replace(/^-+|-+$/g, '') || 'untitled';

// --- Tools -------------------------------------------------------------------

function writeMemory(payload) {
  const rawTitle = arg(payload, 'title', 'string');
  const content = arg(payload, 'content', 'string');
  const folder = relativePath(opt(payload, 'folder', 'string') ?? '');
  const tags = opt(payload, 'tags', 'string[]') ?? [];
  if (rawTitle.length >= 200) throw new ToolError('PATH_TOO_LONG', `Title is ${rawTitle.length} characters; titles must be shorter than 200.`);
  const found = concepts(content);
  if (found.length === 0) throw new ToolError('VALIDATION_ERROR', 'Content must contain at least one [[WikiLink]] outside code.');
  const blocked = readFilter();
  const refused = found.filter((c) => blocked.has(c));
  if (refused.length > 0) throw new ToolError('FILTERED_WIKILINKS', `Content contains filtered WikiLinks: ${refused.map((c) => `[[${c}]] (${blocked.get(c)})`).join(', ')}`);
  const title = sanitizeTitle(rawTitle);
  const slug = slugify(title);
  const path = join(memoryDir(), ...(folder ? folder.split('/') : []), `${slug}.md`);
  const now = new Date(nowMs()).toISOString();
  const body = content.trimStart().startsWith('# ') ? content : `# ${title}\n\n${content}`;
  const text = formatFrontmatter({ title, permalink: slug, type: 'memory', status: 'saved', created: now, modified: now, tags }) + body;
  writeAtomic(path, text);
  process.stderr.write('[SYNC TELEMETRY] CLI write: graph not updated (run Sync)\n');
  const uri = pathToUri(path);
  return { data: { uri, checksum: checksum(text), title, folder }, text: `Created memory FILE: ${uri}` };
}

/** `memory/.wikilink-filter.json` as normalized concept → reason; unreadable reads as empty, as in maenifold. */
function readFilter() {
  try {
    return new Map(Object.entries(JSON.parse(readFileSync(join(memoryDir(), '.wikilink-filter.json'), 'utf8'))).map(([c, r]) => [normalizeConcept(c), String(r)]));
  } catch {
    return new Map();
  }
}

function readMemory(payload) {
  const identifier = arg(payload, 'identifier', 'string');
  const path = join(memoryDir(), `${relativePath(identifier.replace(/^memory:\/\//, '').replace(/\.md$/i, ''))}.md`);
  if (!existsSync(path)) throw new ToolError('NOT_FOUND', `Memory file not found: ${identifier}`);
  const text = readFileSync(path, 'utf8');
  const { frontmatter, body } = parseMarkdown(text);
  const uri = pathToUri(path);
  return { data: { uri, title: frontmatter.title ?? uri, content: body, checksum: checksum(text), frontmatter }, text: `# ${frontmatter.title}\nURI: ${uri}\n\n${body}` };
}

function listMemories(payload) {
  const rel = relativePath((opt(payload, 'path', 'string') ?? '').replace(/^memory:\/\//, ''));
  const dir = join(memoryDir(), ...(rel ? rel.split('/') : []));
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new ToolError('NOT_FOUND', `Directory not found: memory://${rel}`);
  const entries = readdirSync(dir, { withFileTypes: true }).filter((e) => !e.name.startsWith('.')).sort((a, b) => a.name.localeCompare(b.name));
  if (entries.length === 0) return { text: `No memories found in memory://${rel}` };
  const lines = [`# Memory listing: memory://${rel}`, ''];
  for (const e of entries) lines.push(e.isDirectory() ? `  - ${e.name}/` : `  - ${pathToUri(join(dir, e.name))}`);
  return { text: lines.join('\n') };
}

function searchMemories(payload) {
  const query = arg(payload, 'query', 'string');
  const mode = opt(payload, 'mode', 'string') ?? 'Hybrid';
  if (!['hybrid', 'semantic', 'fulltext'].includes(mode.toLowerCase())) throw new ToolError('INVALID_ARGUMENT', `Unknown mode '${mode}'`);
  const pageSize = opt(payload, 'pageSize', 'integer') ?? 10;
  const folder = relativePath(opt(payload, 'folder', 'string') ?? '');
  const terms = [...new Set(query.toLowerCase().split(/[^\p{L}\p{N}]+/u))].filter((t) => t !== '' && !STOP_WORDS.has(t));
  if (terms.length === 0) return { plain: 'ERROR: Query contains no informative keywords after removing stop words. Use more specific terms.' };
  const files = listMarkdown(join(memoryDir(), ...(folder ? folder.split('/') : [])));
  if (folder && files.length === 0) return { plain: 'No memories found in specified folder' };
  const results = [];
  for (const file of files) {
    const { frontmatter, body } = parseMarkdown(readFileSync(file, 'utf8'));
    const haystack = `${frontmatter.title ?? ''}\n${body}`.toLowerCase();
    const matched = terms.filter((t) => haystack.includes(t)).length;
    if (matched === 0) continue;
    const score = Math.round((matched / terms.length) * 1000) / 1000;
    const at = Math.max(0, Math.min(...terms.map((t) => body.toLowerCase().indexOf(t)).filter((i) => i >= 0)) - 40);
    // Cut blindly at 200 characters: a WikiLink may be split, as upstream.
    results.push({ title: frontmatter.title ?? '', path: pathToUri(file), fusedScore: score, textScore: score, semanticScore: score, snippet: body.slice(at, at + 200) });
  }
  results.sort((a, b) => b.fusedScore - a.fusedScore || a.path.localeCompare(b.path));
  const page = results.slice(0, pageSize);
  return { data: { query, totalResults: results.length, results: page }, text: page.map((r) => `${r.title} ${r.path}`).join('\n') || `No memories found for '${query}'` };
}

/** The last Sync's snapshot: new files reach BuildContext and RecentActivity only through Sync. */
function loadGraph() {
  if (!existsSync(graphPath())) return undefined;
  try {
    return JSON.parse(readFileSync(graphPath(), 'utf8'));
  } catch {
    throw new ToolError('INTERNAL_ERROR', `Graph database at ${graphPath()} is unreadable. Run Sync to rebuild it.`);
  }
}

function sync() {
  const blocked = readFilter();
  const files = listMarkdown(memoryDir()).map((path) => {
    const { frontmatter, body } = parseMarkdown(readFileSync(path, 'utf8'));
    return { uri: pathToUri(path), title: frontmatter.title ?? '', status: frontmatter.status ?? 'active', modifiedMs: statSync(path).mtimeMs, concepts: concepts(body).filter((c) => !blocked.has(c)), body };
  });
  writeAtomic(graphPath(), JSON.stringify({ files }));
  process.stderr.write(`[SYNC TELEMETRY] files=${files.length}\n`);
  return { text: `Sync complete\n  Files processed: ${files.length}` };
}

function buildContext(payload) {
  const concept = normalizeConcept(arg(payload, 'conceptName', 'string'));
  const maxEntities = opt(payload, 'maxEntities', 'integer') ?? 20;
  opt(payload, 'depth', 'integer');
  // Before any Sync the real CLI creates an empty graph: no relations, not an error.
  const related = new Map();
  for (const file of loadGraph()?.files ?? []) {
    if (!file.concepts.includes(concept)) continue;
    for (const other of file.concepts) if (other !== concept) related.set(other, [...(related.get(other) ?? []), file.uri]);
  }
  const top = [...related].sort((a, b) => b[1].length - a[1].length || a[0].localeCompare(b[0])).slice(0, Math.max(0, maxEntities));
  const lines = [`Context for CONCEPT: ${concept}`, '', `Direct relations (${top.length} CONCEPTS):`];
  // The plugin never reads the community; it is printed because maenifold prints one.
  for (const [name, uris] of top) lines.push(`  \u2022 ${name} (co-occurs in ${uris.length} files) [community 0]`, `    Files: ${uris.slice(0, 3).join(', ')}`);
  return { text: lines.join('\n') };
}

/** .NET TimeSpan text (`d`, `hh:mm[:ss]`, `d.hh:mm:ss`) in ms, or undefined. */
function parseTimeSpan(text) {
  const m = /^(?:(\d+)|(?:(\d+)\.)?(\d{1,2}):(\d{1,2})(?::(\d{1,2}))?)$/.exec(text);
  if (!m) return undefined;
  if (m[1] !== undefined) return Number(m[1]) * 86_400_000;
  const [d, h, min, s] = [m[2], m[3], m[4], m[5]].map((v) => Number(v ?? 0));
  return h > 23 || min > 59 || s > 59 ? undefined : (((d * 24 + h) * 60 + min) * 60 + s) * 1000;
}

function recentActivity(payload) {
  const limit = opt(payload, 'limit', 'integer') ?? 10;
  const includeContent = opt(payload, 'includeContent', 'boolean') ?? false;
  const span = payload.timespan === undefined ? Infinity : parseTimeSpan(String(payload.timespan));
  if (span === undefined) throw new ToolError('VALIDATION_ERROR', `Invalid timespan '${payload.timespan}'. Use '1.00:00:00' (1 day) or '03:00:00' (3 hours).`);
  const graph = loadGraph();
  if (!graph) return { text: '# Recent Activity\n\nNo database found. Run the `Sync` command first to index memory files.' };
  const recent = graph.files.filter((f) => f.modifiedMs >= nowMs() - span).sort((a, b) => b.modifiedMs - a.modifiedMs).slice(0, limit);
  if (recent.length === 0) return { text: 'No recent activity found' };
  const lines = ['# Recent Activity', ''];
  for (const file of recent) {
    const thinking = file.uri.startsWith('memory://thinking/');
    const sections = h2Sections(file.body);
    lines.push(`**${file.uri.split('/').pop()}** (${thinking ? 'sequential' : 'memory'})`, `  Modified: ${minute(file.modifiedMs)}`);
    lines.push(thinking ? `  Status: ${file.status}` : `  Title: ${file.title}`);
    const [first, last] = [sections[0], sections.length > 1 ? sections.at(-1) : undefined];
    if (first) lines.push(includeContent ? `  First H2: ${first.heading}\n  First H2 Content: ${first.content}` : `  First: "${first.content.slice(0, 200)}"`);
    if (last) lines.push(includeContent ? `  Last H2: ${last.heading}\n  Last H2 Content: ${last.content}` : `  Last: "${last.content.slice(0, 200)}"`);
    lines.push('');
  }
  return { text: lines.join('\n').trimEnd() };
}

function sessionPath(id) {
  const day = new Date(Number(id.split('-')[1])).toISOString().slice(0, 10).split('-');
  return join(memoryDir(), 'thinking', 'sequential', ...day, `${id}.md`);
}

function sequentialThinking(payload) {
  const response = opt(payload, 'response', 'string') ?? '';
  const thoughts = opt(payload, 'thoughts', 'string');
  const next = opt(payload, 'nextThoughtNeeded', 'boolean') ?? false;
  const number = opt(payload, 'thoughtNumber', 'integer') ?? 0;
  const total = opt(payload, 'totalThoughts', 'integer') ?? 0;
  const conclusion = opt(payload, 'conclusion', 'string');
  let id = opt(payload, 'sessionId', 'string');
  if (concepts(`${response}\n\n${thoughts ?? ''}`).length === 0) throw new ToolError('WIKILINK_REQUIRED', 'Must include [[concepts]] (WikiLinks outside code) in response or thoughts.');
  if (id !== undefined && !/^session-\d+(-\d+)?$/.test(id)) throw new ToolError('INVALID_SESSION_ID', 'Invalid sessionId format. Omit sessionId to start a new session.');
  const exists = id !== undefined && existsSync(sessionPath(id));
  if (id === undefined && number !== 0) throw new ToolError('SESSION_MISSING', 'No sessionId for a continuing thought. Start with thoughtNumber=0.');
  if (id !== undefined && number === 0) throw new ToolError(exists ? 'SESSION_EXISTS' : 'SESSION_NOT_FOUND', `Session ${id} ${exists ? 'exists' : 'not found'}.`);
  if (id !== undefined && !exists) throw new ToolError('SESSION_MISSING', `Session ${id} missing. Start with thoughtNumber=0.`);
  if (!next && !conclusion?.trim()) throw new ToolError('CONCLUSION_REQUIRED', 'Conclusion required when completing session.');
  if (!next && concepts(conclusion).length === 0) throw new ToolError('CONCLUSION_WIKILINK_REQUIRED', 'Conclusion must include [[concepts]].');

  const now = new Date(nowMs()).toISOString();
  if (id === undefined) {
    id = `session-${nowMs()}-${String(nodeCrypto().randomInt(0, 100_000)).padStart(5, '0')}`;
    const head = { title: `Sequential Thinking Session ${id}`, permalink: id, type: 'sequential', status: 'active', created: now, analysisType: opt(payload, 'analysisType', 'string') };
    writeAtomic(sessionPath(id), `${formatFrontmatter(head)}# Sequential Thinking Session\n`);
  }
  let { frontmatter, body } = parseMarkdown(readFileSync(sessionPath(id), 'utf8'));
  const section = (heading, text) => `${body.endsWith('\n') ? body : `${body}\n`}\n## ${heading}\n\n${text}\n`;
  body = section(`Thought ${number}/${total} [${opt(payload, 'agent', 'string') ?? process.env.AGENT_ID ?? 'agent'}]`, `${response}\n${thoughts ? `\n*Thoughts: ${thoughts}*\n` : ''}\n*${now.slice(0, 19).replace('T', ' ')}*`);
  const status = next ? 'active' : 'completed';
  if (!next) body = section('Conclusion', conclusion);
  frontmatter = next ? { ...frontmatter, status } : { ...frontmatter, status, completed: now, thoughtCount: number + 1 };
  writeAtomic(sessionPath(id), formatFrontmatter(frontmatter) + body);
  const message = `${number === 0 ? `Created session: ${id}` : `Added thought ${number} to session: ${id}`}\n\n${next ? `Continue with thought ${number + 1}/${total}` : 'Thinking complete'}`;
  return { data: { sessionId: id, thoughtNumber: number, totalThoughts: total, status, nextThoughtNeeded: next, message }, text: message };
}

const HANDLERS = { WriteMemory: writeMemory, ReadMemory: readMemory, ListMemories: listMemories, SearchMemories: searchMemories, BuildContext: buildContext, RecentActivity: recentActivity, SequentialThinking: sequentialThinking, Sync: sync };

// --- Invocation, output, recording, faults -----------------------------------

function parseArgv(argv) {
  const args = { tool: undefined, payload: undefined, json: false };
  for (let i = 0; i < argv.length; i += 1) {
    if (argv[i] === '--json') args.json = true;
    else if (argv[i] === '--tool' && i + 1 < argv.length) args.tool = argv[++i];
    else if (argv[i] === '--payload' && i + 1 < argv.length) args.payload = argv[++i];
  }
  return args;
}

function record(argv, args) {
  if (!process.env.MAENIFOLD_DOUBLE_LOG) return;
  let payload = args.payload ?? null;
  try {
    payload = JSON.parse(args.payload);
  } catch {
    // Recorded as the raw text, so a test sees what was sent.
  }
  appendFileSync(process.env.MAENIFOLD_DOUBLE_LOG, `${JSON.stringify({ argv, tool: args.tool ?? null, payload, json: args.json, at: new Date().toISOString() })}\n`);
}

const envelope = (success, data, error) => JSON.stringify({ success, data: success ? data : null, error: success ? null : error });

/** Runs one tool and renders its outcome in the tool's output mode. */
function invoke(args, injectedError) {
  const tool = TOOL_BY_LOWER.get((args.tool ?? '').toLowerCase());
  if (!tool) return args.json ? envelope(false, null, { code: 'UNKNOWN_TOOL', message: `Unknown tool: ${args.tool}` }) : `ERROR: Unknown tool: ${args.tool}`;
  const useEnvelope = args.json && ENVELOPE_TOOLS.has(tool);
  const fail = (code, message) => (useEnvelope ? envelope(false, null, { code, message }) : HOST_ERROR_CODES.has(code) ? `Error invoking ${args.tool}: ${message}` : `ERROR: ${message}`);
  if (injectedError) return fail(injectedError, `injected ${injectedError}`);
  let payload;
  try {
    payload = JSON.parse(args.payload ?? 'missing');
  } catch (error) {
    return fail('INVALID_PAYLOAD', error.message);
  }
  if (payload === null || typeof payload !== 'object' || Array.isArray(payload)) return fail('INVALID_PAYLOAD', 'The payload must be a JSON object');
  try {
    mkdirSync(memoryDir(), { recursive: true });
    const result = HANDLERS[tool](payload);
    return result.plain ?? (useEnvelope ? envelope(true, result.data) : result.text);
  } catch (error) {
    return error instanceof ToolError ? fail(error.code, error.message) : fail('INTERNAL_ERROR', String(error?.message ?? error));
  }
}

function faultFor(tool) {
  const fault = process.env.MAENIFOLD_DOUBLE_FAULT;
  const only = process.env.MAENIFOLD_DOUBLE_FAULT_TOOLS;
  if (!fault || (only && !only.toLowerCase().split(',').map((n) => n.trim()).includes((tool ?? '').toLowerCase()))) return undefined;
  return fault;
}

/** Writes 50 MiB of filler, honouring back-pressure; stops quietly when the reader goes away. */
async function flood() {
  const chunk = Buffer.alloc(1024 * 1024, 'maenifold-double huge output\n');
  let closed = false;
  process.stdout.on('error', () => (closed = true));
  for (let i = 0; i < 50 && !closed; i += 1) if (!process.stdout.write(chunk)) await new Promise((resolve) => process.stdout.once('drain', resolve));
}

async function main() {
  const argv = process.argv.slice(2);
  const args = parseArgv(argv);
  record(argv, args);
  const fault = faultFor(args.tool) ?? '';
  if (fault === 'hang') {
    setInterval(() => {}, 1 << 30);
    return;
  }
  if (fault === 'garbage') return void process.stdout.write(Buffer.concat([Buffer.from([0xff, 0xfe, 0x00, 0x7b]), nodeCrypto().randomBytes(512), Buffer.from('\n')]));
  if (fault === 'crash') {
    process.stderr.write('Unhandled exception. System.InvalidOperationException: Injected crash\n   at Program.<Main>$(String[] args)\n');
    process.exitCode = 134;
    return;
  }
  if (fault === 'huge') return flood();
  if (fault.startsWith('slow:')) await new Promise((resolve) => setTimeout(resolve, Number(fault.slice(5))));
  if (args.tool === undefined) return void process.stdout.write(`maenifold CLI\n\nUsage: maenifold --tool <name> --payload '<json>' [--json]\n`);
  const out = invoke(args, fault.startsWith('error:') ? fault.slice(6) : undefined);
  // A JSON answer cut off mid-way, as when the process is stopped while it prints.
  process.stdout.write(fault === 'cutoff' ? out.slice(0, Math.ceil(out.length / 2)) : `${out}\n`);
}

await main();
