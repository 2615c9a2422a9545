/**
 * Synthetic OpenCode session exports for tests, benchmarks and `npm start`.
 *
 * A session is deterministic for its seed and lands within a few bytes of the
 * requested size: every message is serialised once to measure it, and the
 * last one is filler cut to the bytes that remain. Content comes from pools of
 * templates so that every stage has something to find — headings, WikiLinks,
 * decisions, fenced code that must be ignored, non-ASCII text, tool calls with
 * paths, failures and test output — without any per-byte work.
 */
import type { SessionExport, SessionMessage, SessionPart, TextPart, ToolPart } from '../workers/session-types.js';

/** Where generated tool calls work when no project root is given. */
export const DEFAULT_PROJECT_ROOT = '/home/user/project';

/** The largest size {@link parseSize} accepts: 1 GB. */
export const MAX_SIZE_BYTES = 1024 ** 3;

/** Below this many bytes left, a message is not worth generating: filler takes the rest. */
const FILLER_MIN_BYTES = 2_048;
/** Fresh messages tried when one does not fit, before settling for filler. */
const FIT_ATTEMPTS = 8;

/** Everything a session is generated from; the only mutable state, one per call. */
interface Generator {
  random: () => number;
  projectRoot: string;
  sessionID: string;
  nextMessage: number;
  nextPart: number;
  /** Epoch milliseconds, moving forward with every message and part. */
  clock: number;
  /** The user message the current turn answers; `null` when the user speaks next. */
  turnParent: string | null;
  /** Assistant steps with tool calls left before the turn's final answer. */
  toolStepsLeft: number;
}

type Template = (gen: Generator) => string;

/** mulberry32: a tiny, fast generator, plenty for varying text. */
function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

function pick<T>(gen: Generator, items: readonly T[]): T {
  return items[Math.floor(gen.random() * items.length)] as T;
}

function between(gen: Generator, min: number, max: number): number {
  return min + Math.floor(gen.random() * (max - min + 1));
}

function chance(gen: Generator, probability: number): boolean {
  return gen.random() < probability;
}

function repeat(gen: Generator, min: number, max: number, make: Template): string[] {
  return Array.from({ length: between(gen, min, max) }, () => make(gen));
}

const ID_ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const COUNTER_DIGITS = 12;

function randomSuffix(gen: Generator, length: number): string {
  let suffix = '';
  for (let index = 0; index < length; index += 1) suffix += ID_ALPHABET[Math.floor(gen.random() * ID_ALPHABET.length)];
  return suffix;
}

// A zero-padded counter first, so ids sort in creation order as OpenCode's do.
function nextId(gen: Generator, prefix: 'msg' | 'prt'): string {
  const counter = prefix === 'msg' ? gen.nextMessage++ : gen.nextPart++;
  return `${prefix}_${String(counter).padStart(COUNTER_DIGITS, '0')}${randomSuffix(gen, 14)}`;
}

function counterOf(id: unknown, prefix: 'msg' | 'prt'): number {
  if (typeof id !== 'string' || !id.startsWith(`${prefix}_`)) return -1;
  const digits = id.slice(4, 4 + COUNTER_DIGITS);
  return /^\d+$/.test(digits) && digits.length === COUNTER_DIGITS ? Number(digits) : -1;
}

// ---- Content pools -------------------------------------------------------

const CONCEPTS = [
  'cache layer', 'worker pool', 'session export', 'token budget', 'knowledge graph', 'hook thread', 'compaction',
  'memory store', 'event loop', 'backpressure', 'rate limiter', 'schema migration', 'retry policy', 'structured clone',
  'working set', 'preservation context', 'boundary sections', 'SQLite', 'TypeScript', 'message bus', 'vector index',
  'データ構造', 'Café', '缓存策略', 'Übersicht', 'naïve Bayes', 'résumé parser', 'Zürich office', 'キャッシュ',
] as const;
const ASCII_CONCEPTS = CONCEPTS.filter((concept) => /^[\x20-\x7e]+$/.test(concept));
const CHOICES = [
  'a worker pool', 'an LRU cache', 'SQLite', 'structured clone', 'a ring buffer', 'JSON Lines', 'remark-parse',
  'gpt-tokenizer', 'a bounded queue', 'Redis', 'a SharedArrayBuffer', 'plain regular expressions', 'msgpack',
] as const;
const ONE_WORD_CHOICES = ['SQLite', 'Redis', 'piscina', 'remark', 'tinybench', 'zod', 'msgpack', 'esbuild', 'vitest', 'tsx'] as const;
const REASONS = [
  'it keeps the hook thread responsive', 'it is already a dependency', 'the data fits in memory',
  'it avoids a native build step', 'the host kills slow hooks', 'tests can run it inline',
  'it survives a worker crash', 'the output must stay deterministic', 'profiling showed most of the time in parsing',
  'the rest of the codebase does the same', 'large sessions would otherwise stall the UI',
] as const;
const PURPOSES = [
  'local storage', 'token counting', 'parsing markdown', 'the cache layer', 'session snapshots',
  'batching tool output', 'the benchmark fixtures', 'section boundaries', 'option validation',
] as const;
const APPROACHES = [
  'parse each message once and cache it by id', 'split the transcript into 32 KB batches',
  'keep only the head and the tail of tool output', 'count tokens on the final text only',
  'treat fenced code as opaque', 'retry once, then fall back to the inline runner',
  'validate options at the boundary and use defaults for the rest',
] as const;
const FOREIGN = [
  'この変更で[[データ構造]]がかなり単純になりました。', '缓存命中率提高了 40%，但[[缓存策略]]仍需调整。',
  'Le [[Café]] sert une crème brûlée parfaite — déjà vu, à vrai dire.', 'Die [[Übersicht]] ist jetzt vollständig ✅',
  'Tests are green again 🎉 and the flaky one is gone.', 'Straße, façade, naïve, coöperate — all survive the round trip.',
  '見出しの後に続く段落も正しく扱われます 🚀', 'Привет: кириллица тоже проходит без потерь.',
] as const;
const HEADINGS = [
  'Plan', 'Findings', 'Root cause', 'Next steps', 'Decisions', 'What changed', 'Open questions', 'Summary',
  'Benchmarks', 'Test results', 'Cache layer', 'データ構造の設計', 'Résumé des changements', 'Risks ⚠️',
] as const;
const SYMBOLS = [
  'selectBoundarySections', 'countConcepts', 'extractDecisions', 'messageToUnit', 'resolveOptions', 'runTask',
  'truncateToTokens', 'normalizeToolPath', 'createWorkerPool', 'sanitizeText', 'loadSession', 'mergeCounts',
] as const;
const TYPES = ['Message', 'AnalysisUnit', 'Section', 'Decision', 'ToolCallView', 'CacheEntry'] as const;
const DIRS = ['src/main', 'src/workers', 'src/workers/stages', 'src/cli', 'src/shared', 'test/main', 'test/workers', 'bench'] as const;
const NAMES = [
  'worker-pool', 'sections', 'cache', 'session-units', 'decisions', 'tokens', 'options', 'protocol', 'markdown',
  'concepts', 'budget', 'task-runner',
] as const;
const TEST_NAMES = [
  'keep the last heading', 'ignore headings inside fences', 'return an empty list for no messages',
  'fall back to the inline runner', 'count each link once per message', 'reject a negative budget',
] as const;

function concept(gen: Generator): string {
  return `[[${pick(gen, CONCEPTS)}]]`;
}

function relativePath(gen: Generator): string {
  const dir = pick(gen, DIRS);
  return `${dir}/${pick(gen, NAMES)}${dir.startsWith('test') ? '.test' : ''}.ts`;
}

function absolutePath(gen: Generator): string {
  return `${gen.projectRoot}/${relativePath(gen)}`;
}

// ---- Text ------------------------------------------------------------------

const DECISIONS: readonly Template[] = [
  (gen) => `We decided to use ${pick(gen, CHOICES)} because ${pick(gen, REASONS)}.`,
  (gen) => `We will not use ${pick(gen, CHOICES)} since ${pick(gen, REASONS)}.`,
  (gen) => `Approach: ${pick(gen, APPROACHES)}.`,
  (gen) => `For now we are using ${pick(gen, ONE_WORD_CHOICES)} for ${pick(gen, PURPOSES)}.`,
  (gen) => {
    const chosen = pick(gen, CHOICES);
    return `I chose ${chosen} over ${pick(gen, CHOICES.filter((choice) => choice !== chosen))} because ${pick(gen, REASONS)}.`;
  },
  (gen) => `We decided against ${pick(gen, CHOICES)} because ${pick(gen, REASONS)}.`,
];

// ASCII only and free of quotes and backslashes: filler is cut to an exact byte count.
const PLAIN_PROSE: readonly Template[] = [
  ...DECISIONS,
  (gen) => `The [[${pick(gen, ASCII_CONCEPTS)}]] now handles ${pick(gen, PURPOSES)} without blocking the event loop.`,
  (gen) => `Profiling shows ${between(gen, 12, 87)} percent of the time in ${pick(gen, SYMBOLS)} on large sessions.`,
  (gen) => `Nothing here touches the ${pick(gen, ASCII_CONCEPTS)}, so the existing tests still cover it.`,
];

const PROSE: readonly Template[] = [
  ...PLAIN_PROSE,
  (gen) => `I traced how ${concept(gen)} talks to ${concept(gen)} and found ${between(gen, 2, 14)} call sites to change.`,
  (gen) => `\`${pick(gen, SYMBOLS)}\` in ${relativePath(gen)} still does the work twice; the ${concept(gen)} should own it.`,
  (gen) => `Once ${concept(gen)} is in place, ${concept(gen)} becomes a thin wrapper.`,
  (gen) => `The failing case is an empty list: \`${pick(gen, SYMBOLS)}\` returns \`undefined\` instead of \`[]\`.`,
  (gen) => pick(gen, FOREIGN),
];

function paragraph(gen: Generator): string {
  return repeat(gen, 2, 5, (g) => (chance(g, 0.2) ? pick(g, DECISIONS)(g) : pick(g, PROSE)(g))).join(' ');
}

function list(gen: Generator): string {
  const ordered = chance(gen, 0.3);
  return repeat(gen, 3, 6, (g) => pick(g, PROSE)(g))
    .map((item, index) => `${ordered ? `${index + 1}.` : '-'} ${item}`)
    .join('\n');
}

function table(gen: Generator): string {
  const rows = repeat(gen, 2, 5, (g) => `| \`${relativePath(g)}\` | ${pick(g, APPROACHES)} | ${pick(g, ['✅', '❌', '🚧'])} |`);
  return ['| File | Change | Status |', '| --- | --- | --- |', ...rows].join('\n');
}

const CODE: readonly Template[] = [
  (gen) => {
    const type = pick(gen, TYPES);
    return `export function ${pick(gen, SYMBOLS)}(items: readonly ${type}[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const item of items) {
    // One entry per ${type}; duplicates only bump the count.
    counts.set(item.id, (counts.get(item.id) ?? 0) + 1);
  }
  return counts;
}`;
  },
  (gen) => `const result = await pool.run({ task: '${pick(gen, SYMBOLS)}', input }, { signal: AbortSignal.timeout(${between(gen, 2, 50) * 100}) });
if (!result.ok) {
  log.warn('${pick(gen, SYMBOLS)} failed: %s', result.error.message);
  return fallback;
}`,
  (gen) => `export interface ${pick(gen, TYPES)}Options {
  /** @default ${between(gen, 1, 64) * 1024} */
  maxEntries?: number;
  /** @default '${gen.projectRoot}' */
  projectRoot?: string;
}`,
  (gen) => `it('should ${pick(gen, TEST_NAMES)}', () => {
  const result = ${pick(gen, SYMBOLS)}(fixture);
  expect(result).toHaveLength(${between(gen, 0, 9)});
});`,
  () => `class LruCache<K, V> {
  readonly #entries = new Map<K, V>();
  get(key: K): V | undefined {
    const value = this.#entries.get(key);
    if (value !== undefined) {
      this.#entries.delete(key);
      this.#entries.set(key, value);
    }
    return value;
  }
}`,
];

const FENCED: readonly Template[] = [
  (gen) => `\`\`\`ts\n${pick(gen, CODE)(gen)}\n\`\`\``,
  (gen) => `~~~ts\n${pick(gen, CODE)(gen)}\n~~~`,
  (gen) => `\`\`\`bash\nnpm run typecheck\nnpx vitest run ${relativePath(gen).replace(/^src/, 'test')}\n\`\`\``,
  (gen) => `\`\`\`json\n{ "maxThreads": ${between(gen, 1, 8)}, "taskTimeoutMs": ${between(gen, 1, 30) * 100}, "projectRoot": "${gen.projectRoot}" }\n\`\`\``,
  // Headings and links inside fences are text, not structure: extraction must skip them.
  (gen) => `\`\`\`md\n## ${pick(gen, HEADINGS)}\n\nSee ${concept(gen)} for the details.\n\`\`\``,
  (gen) => `~~~markdown\n# Notes\n## ${pick(gen, HEADINGS)}\n- ${concept(gen)} is not a real link here\n~~~`,
];

function block(gen: Generator): string {
  const roll = gen.random();
  if (roll < 0.55) return paragraph(gen);
  if (roll < 0.7) return list(gen);
  if (roll < 0.78) return table(gen);
  return pick(gen, FENCED)(gen);
}

function assistantText(gen: Generator): string {
  const blocks: string[] = [];
  if (chance(gen, 0.25)) return repeat(gen, 1, 3, block).join('\n\n');
  if (chance(gen, 0.5)) blocks.push(paragraph(gen));
  const sections = between(gen, 1, 4);
  for (let index = 0; index < sections; index += 1) {
    blocks.push(`${chance(gen, 0.15) ? '###' : '##'} ${pick(gen, HEADINGS)}`, ...repeat(gen, 1, 3, block));
  }
  return blocks.join('\n\n');
}

const USER_TEXT: readonly Template[] = [
  (gen) => `Can you look at ${relativePath(gen)}? ${paragraph(gen)}`,
  (gen) => `The tests fail again:\n\n\`\`\`\n${stackTrace(gen)}\n\`\`\`\n\nPlease fix it without touching the ${concept(gen)}.`,
  (gen) => `Let's go with ${pick(gen, CHOICES)}. ${pick(gen, DECISIONS)(gen)}`,
  (gen) => `${pick(gen, FOREIGN)} ${concept(gen)} の部分をもう一度確認してください。`,
  (gen) => `Next: ${pick(gen, APPROACHES)}, and add a test that should ${pick(gen, TEST_NAMES)}.`,
];

function plainText(gen: Generator, length: number): string {
  let text = '';
  while (text.length < length) text += `${text ? ' ' : ''}${pick(gen, PLAIN_PROSE)(gen)}`;
  return text.slice(0, length);
}

// ---- Tool output -------------------------------------------------------------

function stackTrace(gen: Generator): string {
  const frames = repeat(gen, 3, 7, (g) => `    at ${pick(g, SYMBOLS)} (${absolutePath(g)}:${between(g, 3, 240)}:${between(g, 5, 40)})`);
  return `TypeError: Cannot read properties of undefined (reading '${pick(gen, ['id', 'parts', 'text', 'state'])}')\n${frames.join('\n')}`;
}

function testRun(gen: Generator): string {
  const files = repeat(gen, 3, 8, relativePath).map((path) => path.replace(/^src/, 'test').replace(/(?<!\.test)\.ts$/, '.test.ts'));
  const failed = chance(gen, 0.4);
  const lines = files.map((file, index) => (failed && index === 0 ? ` FAIL  ${file} > should ${pick(gen, TEST_NAMES)}` : ` PASS  ${file} (${between(gen, 2, 40)} tests) ${between(gen, 5, 900)}ms`));
  if (failed) lines.push('AssertionError: expected 3 to be 4', `error: ${stackTrace(gen)}`);
  if (chance(gen, 0.3)) lines.push(`warning: ${pick(gen, SYMBOLS)} is deprecated, use ${pick(gen, SYMBOLS)} instead`);
  lines.push('', ` Test Files  ${failed ? '1 failed | ' : ''}${files.length - (failed ? 1 : 0)} passed (${files.length})`);
  return lines.join('\n');
}

function numberedFile(gen: Generator): string[] {
  const text = [`import type { ${pick(gen, TYPES)} } from './protocol.js';`, '', ...repeat(gen, 2, 6, (g) => `${pick(g, CODE)(g)}\n`)].join('\n');
  return text.split('\n').map((line, index) => `${index + 1}: ${line}`);
}

const BASH_RUNS: readonly ((gen: Generator) => [command: string, output: string])[] = [
  (gen) => ['npx vitest run', testRun(gen)],
  (gen) => ['npx tsc --noEmit', repeat(gen, 1, 4, (g) => `${relativePath(g)}(${between(g, 1, 200)},${between(g, 1, 40)}): error TS2322: Type 'string' is not assignable to type 'number'.`).join('\n')],
  (gen) => ['npm install', `npm warn deprecated inflight@1.0.6: This module is not supported\nadded ${between(gen, 20, 400)} packages in ${between(gen, 1, 30)}s`],
  (gen) => [`node ${relativePath(gen).replace(/\.ts$/, '.js')}`, stackTrace(gen)],
  (gen) => ['git status --short', repeat(gen, 2, 8, (g) => `${pick(g, [' M', '??', ' D', 'A '])} ${relativePath(g)}`).join('\n')],
  (gen) => ['cat package.json', JSON.stringify({ name: 'project', version: `0.${between(gen, 1, 9)}.0`, type: 'module', scripts: { test: 'vitest run', build: 'tsc' } }, null, 2)],
];

// Rarely, a long log: the kind of output that has to be bounded before it crosses a thread.
function longLog(gen: Generator): [command: string, output: string] {
  return ['npm run build --verbose', repeat(gen, 300, 900, (g) => `${pick(g, ['info', 'warning:', 'verbose'])} ${pick(g, PLAIN_PROSE)(g)}`).join('\n')];
}

function toolError(tool: string, filePath: string): string {
  if (tool === 'read') return `File not found: ${filePath}`;
  if (tool === 'edit') return 'oldString not found in content';
  if (tool === 'write') return `EACCES: permission denied, open '${filePath}'`;
  if (tool === 'bash') return 'Command timed out after 120000 ms';
  return 'The user rejected permission to use this tool';
}

function toolCall(gen: Generator): Omit<ToolPart, 'id' | 'messageID' | 'sessionID'> {
  const start = (gen.clock += between(gen, 50, 4_000));
  const time = { start, end: (gen.clock += between(gen, 5, 3_000)) };
  const tool = pick(gen, ['read', 'read', 'read', 'edit', 'write', 'bash', 'bash', 'grep', 'glob'] as const);
  const filePath = absolutePath(gen);
  const title = filePath.slice(gen.projectRoot.length + 1);
  let input: Record<string, unknown>;
  let output: string;
  let metadata: Record<string, unknown> = {};
  if (tool === 'read') {
    const lines = numberedFile(gen);
    input = { filePath };
    output = `<path>${filePath}</path>\n<type>file</type>\n<content>\n${lines.join('\n')}\n\n(End of file - total ${lines.length} lines)\n</content>`;
    metadata = { preview: lines.slice(0, 3).join('\n'), truncated: false };
  } else if (tool === 'edit') {
    input = { filePath, oldString: pick(gen, CODE)(gen).split('\n', 1)[0], newString: pick(gen, CODE)(gen).split('\n', 1)[0] };
    output = 'Edit applied successfully.';
    metadata = { diff: `Index: ${filePath}\n--- ${filePath}\n+++ ${filePath}\n@@ -${between(gen, 1, 200)},3 +${between(gen, 1, 200)},3 @@` };
  } else if (tool === 'write') {
    input = { filePath, content: pick(gen, CODE)(gen) };
    output = 'Wrote file successfully.';
  } else if (tool === 'bash') {
    const [command, text] = chance(gen, 0.03) ? longLog(gen) : pick(gen, BASH_RUNS)(gen);
    input = { command, description: `Runs ${command.split(' ', 2).join(' ')}` };
    output = text;
  } else {
    const path = chance(gen, 0.5) ? gen.projectRoot : `${gen.projectRoot}/src`;
    const paths = repeat(gen, 2, 12, absolutePath);
    input = tool === 'grep' ? { pattern: pick(gen, SYMBOLS), path } : { pattern: pick(gen, ['**/*.ts', 'src/**/*.test.ts', '*.json']), path };
    output = tool === 'grep' ? `Found ${paths.length} matches\n${paths.map((p) => `${p}:\n  Line ${between(gen, 1, 300)}: ${pick(gen, SYMBOLS)}(input);`).join('\n')}` : paths.join('\n');
  }
  if (chance(gen, 0.06)) {
    const state = { status: 'error' as const, input, error: toolError(tool, filePath), time };
    return { type: 'tool', tool, callID: `call_${randomSuffix(gen, 16)}`, state };
  }
  return { type: 'tool', tool, callID: `call_${randomSuffix(gen, 16)}`, state: { status: 'completed', input, output, title, metadata, time } };
}

// ---- Messages ---------------------------------------------------------------

function withIds(gen: Generator, messageID: string, parts: readonly SessionPart[]): SessionPart[] {
  return parts.map((part) => ({ ...part, id: nextId(gen, 'prt'), sessionID: gen.sessionID, messageID }));
}

function userMessage(gen: Generator, text: string): SessionMessage {
  const id = nextId(gen, 'msg');
  const created = (gen.clock += between(gen, 5_000, 120_000));
  const parts: SessionPart[] = [{ type: 'text', text }];
  // OpenCode records some tool results as synthetic user text; extraction must skip it.
  if (chance(gen, 0.04)) parts.push({ type: 'text', synthetic: true, text: `Called the Read tool with the following input: {"filePath":"${absolutePath(gen)}"}` });
  gen.turnParent = id;
  gen.toolStepsLeft = between(gen, 0, 3);
  return {
    info: { role: 'user', time: { created }, agent: 'build', model: { providerID: 'anthropic', modelID: 'claude-sonnet-4-5' }, id, sessionID: gen.sessionID },
    parts: withIds(gen, id, parts),
  };
}

function assistantMessage(gen: Generator, finalText: string | null): SessionMessage {
  const id = nextId(gen, 'msg');
  const created = (gen.clock += between(gen, 200, 5_000));
  const usesTools = finalText === null && gen.toolStepsLeft > 0;
  const body: SessionPart[] = [{ type: 'step-start' }];
  if (usesTools) {
    gen.toolStepsLeft -= 1;
    if (chance(gen, 0.6)) body.push({ type: 'text', text: paragraph(gen) });
    body.push(...Array.from({ length: between(gen, 1, 4) }, () => toolCall(gen)));
  } else {
    body.push({ type: 'text', text: finalText ?? assistantText(gen) });
  }
  const input = between(gen, 2_000, 90_000);
  const output = between(gen, 50, 4_000);
  const tokens = { total: input + output, input, output, reasoning: 0, cache: { write: 0, read: between(gen, 0, input) } };
  const finish = usesTools ? 'tool-calls' : 'stop';
  body.push({ type: 'step-finish', reason: finish, tokens, cost: 0 });
  const parentID = gen.turnParent ?? '';
  if (!usesTools) gen.turnParent = null;
  return {
    info: {
      parentID, role: 'assistant', mode: 'build', agent: 'build', path: { cwd: gen.projectRoot, root: gen.projectRoot },
      cost: 0, tokens, modelID: 'claude-sonnet-4-5', providerID: 'anthropic',
      time: { created, completed: (gen.clock += between(gen, 500, 60_000)) }, finish, id, sessionID: gen.sessionID,
    },
    parts: withIds(gen, id, body),
  };
}

function nextMessage(gen: Generator, fillerText: string | null = null): SessionMessage {
  if (gen.turnParent === null) return userMessage(gen, fillerText ?? pick(gen, USER_TEXT)(gen));
  return assistantMessage(gen, fillerText);
}

function isTextPart(part: SessionPart): part is TextPart {
  return part.type === 'text' && typeof part['text'] === 'string';
}

function byteSize(value: unknown): number {
  return Buffer.byteLength(JSON.stringify(value), 'utf8');
}

/** Appends messages adding about `budget` bytes (separating commas included) to the serialised export. */
function appendMessages(gen: Generator, messages: SessionMessage[], budget: number): void {
  let used = 0;
  let misses = 0;
  for (;;) {
    const separator = messages.length > 0 ? 1 : 0;
    const room = budget - used;
    if (room >= FILLER_MIN_BYTES && misses < FIT_ATTEMPTS) {
      const saved = { ...gen };
      const message = nextMessage(gen);
      const bytes = byteSize(message) + separator;
      // Leave room for filler after it, so the total can always be met exactly.
      if (used + bytes <= budget - FILLER_MIN_BYTES) {
        messages.push(message);
        used += bytes;
        misses = 0;
      } else {
        Object.assign(gen, saved);
        misses += 1;
      }
      continue;
    }
    const filler = nextMessage(gen, '');
    const text = filler.parts.find(isTextPart);
    const length = room - byteSize(filler) - separator;
    if (length >= 0 && text) {
      text.text = plainText(gen, length);
      messages.push(filler);
    }
    return;
  }
}

function createGenerator(seed: number, projectRoot: string): Generator {
  const random = mulberry32(Math.imul(seed | 0, 0x9e3779b1) ^ 0x5eed);
  const gen: Generator = { random, projectRoot, sessionID: '', nextMessage: 1, nextPart: 1, clock: 0, turnParent: null, toolStepsLeft: 0 };
  gen.sessionID = `ses_${randomSuffix(gen, 26)}`;
  gen.clock = 1_750_000_000_000 + Math.floor(random() * 10_000_000_000);
  return gen;
}

/** Options of {@link generateSession}. */
export interface GenerateSessionOptions {
  /** Seed of all content and ids: the same seed gives the same session. */
  seed: number;
  /** Size of `JSON.stringify(session)` in UTF-8 bytes; met within a few bytes above ~2 KB. */
  targetBytes: number;
  /** Directory the tool calls read, edit and search. @default '/home/user/project' */
  projectRoot?: string;
}

/**
 * A synthetic session export of about `targetBytes`, with alternating user
 * and assistant turns, headings, WikiLinks, decisions, fenced code, non-ASCII
 * text and tool calls (some failed).
 *
 * @param options - seed, size and project root; see {@link GenerateSessionOptions}.
 * @throws Error when `seed` or `targetBytes` is not a finite number.
 */
export function generateSession(options: GenerateSessionOptions): SessionExport {
  const { seed, targetBytes, projectRoot = DEFAULT_PROJECT_ROOT } = options;
  if (!Number.isFinite(seed)) throw new Error(`options.seed must be a finite number (got ${String(seed)})`);
  if (!Number.isFinite(targetBytes) || targetBytes < 0) throw new Error(`options.targetBytes must be a number of bytes, 0 or more (got ${String(targetBytes)})`);
  const gen = createGenerator(seed, projectRoot);
  const created = gen.clock;
  // `updated` is a placeholder of the same width until the last message is known.
  const info = { id: gen.sessionID, slug: `synthetic-${randomSuffix(gen, 6).toLowerCase()}`, projectID: 'global', directory: projectRoot, title: `Synthetic session (seed ${seed})`, version: '1.18.33', time: { created, updated: created } };
  const messages: SessionMessage[] = [];
  appendMessages(gen, messages, targetBytes - byteSize({ info, messages }));
  if (messages.length === 0) messages.push(nextMessage(gen, 'Hi'));
  info.time.updated = gen.clock;
  return { info, messages };
}

/**
 * A longer version of a session: the same message objects, in order, then
 * new messages adding about `extraBytes`, with ids after every existing one.
 *
 * @param session - the export to extend; it is not modified.
 * @param extraBytes - how many bytes the new messages add to its serialisation.
 * @param seed - seed of the new content.
 */
export function growSession(session: SessionExport, extraBytes: number, seed: number): SessionExport {
  if (!Number.isFinite(extraBytes)) throw new Error(`extraBytes must be a number of bytes (got ${String(extraBytes)})`);
  const directory = session.info['directory'];
  const gen = createGenerator(seed, typeof directory === 'string' && directory ? directory : DEFAULT_PROJECT_ROOT);
  gen.sessionID = session.info.id;
  let lastMessage = 0;
  let lastPart = 0;
  let clock = 0;
  for (const message of session.messages) {
    lastMessage = Math.max(lastMessage, counterOf(message.info.id, 'msg'));
    clock = Math.max(clock, message.info.time.created, message.info.time.completed ?? 0);
    for (const part of message.parts) lastPart = Math.max(lastPart, counterOf(part['id'], 'prt'));
  }
  gen.nextMessage = lastMessage + 1;
  gen.nextPart = lastPart + 1;
  if (clock > 0) gen.clock = clock;
  const last = session.messages.at(-1);
  // A session that ends on the user's words gets its answer first.
  if (last?.info.role === 'user') gen.turnParent = last.info.id;
  const messages = [...session.messages];
  if (extraBytes > 0) appendMessages(gen, messages, extraBytes);
  const time = session.info['time'];
  const info = typeof time === 'object' && time !== null ? { ...session.info, time: { ...time, updated: gen.clock } } : { ...session.info };
  return { info, messages };
}

const SIZE_PATTERN = /^\s*([+-]?(?:\d+(?:\.\d*)?|\.\d+))\s*(b|kb|mb|gb)?\s*$/i;
const UNIT_BYTES: Readonly<Record<string, number>> = { b: 1, kb: 1024, mb: 1024 ** 2, gb: 1024 ** 3 };

/**
 * Reads a size such as `100KB`, `1.5 MB` or `512` (bytes); units are powers
 * of 1024 and case-insensitive.
 *
 * @param text - the size as typed.
 * @returns whole bytes, from 1 to {@link MAX_SIZE_BYTES}.
 * @throws Error with a one-line message for anything else.
 */
export function parseSize(text: string): number {
  const quoted = JSON.stringify(text);
  const match = SIZE_PATTERN.exec(text);
  if (!match) throw new Error(`invalid size ${quoted}: expected a number with an optional unit, e.g. 100KB or 10MB`);
  const bytes = Math.round(Number(match[1]) * (UNIT_BYTES[(match[2] ?? 'b').toLowerCase()] ?? 1));
  if (bytes <= 0) throw new Error(`invalid size ${quoted}: must be more than 0 bytes, e.g. 100KB or 10MB`);
  if (bytes > MAX_SIZE_BYTES) throw new Error(`invalid size ${quoted}: must be at most 1GB`);
  return bytes;
}
