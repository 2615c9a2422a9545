/**
 * What synthetic sessions are made of: the generator state, the random
 * helpers every template draws with, ids in OpenCode's shape, and the
 * vocabulary pools the templates pick from.
 */

/** How one session is written, drawn once from its seed. */
export interface SessionStyle {
  /** Whether the session writes `[[WikiLinks]]`; most real sessions never do. */
  links: boolean;
  /** The language the user writes in, and the model often answers in. */
  language: SessionLanguage;
}

/** Languages a synthetic session can be held in. */
export type SessionLanguage = 'en' | 'es' | 'de' | 'fr' | 'pt' | 'zh' | 'ja';

/** Everything a session is generated from; the only mutable state, one per call. */
export interface Generator {
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
  style: SessionStyle;
  /** A compaction has just started: the next message is its summary. */
  summaryNext: boolean;
}

/** Makes one piece of content, drawing every choice from `gen.random`. */
export type Template = (gen: Generator) => string;

/** One of `items`, uniformly. */
export function pick<T>(gen: Generator, items: readonly T[]): T {
  return items[Math.floor(gen.random() * items.length)] as T;
}

/** A whole number from `min` to `max`, both included. */
export function between(gen: Generator, min: number, max: number): number {
  return min + Math.floor(gen.random() * (max - min + 1));
}

/** `true` with the given probability, from 0 to 1. */
export function chance(gen: Generator, probability: number): boolean {
  return gen.random() < probability;
}

/** `min` to `max` results of `make`, in the order they were made. */
export function repeat(gen: Generator, min: number, max: number, make: Template): string[] {
  return Array.from({ length: between(gen, min, max) }, () => make(gen));
}

const ID_ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const COUNTER_DIGITS = 12;

/** `length` random letters and digits, for ids and call ids. */
export function randomSuffix(gen: Generator, length: number): string {
  let suffix = '';
  for (let index = 0; index < length; index += 1) suffix += ID_ALPHABET[Math.floor(gen.random() * ID_ALPHABET.length)];
  return suffix;
}

/**
 * The next message or part id; it advances the generator's counter.
 *
 * A zero-padded counter comes first, so ids sort in creation order as OpenCode's do.
 */
export function nextId(gen: Generator, prefix: 'msg' | 'prt'): string {
  const counter = prefix === 'msg' ? gen.nextMessage++ : gen.nextPart++;
  return `${prefix}_${String(counter).padStart(COUNTER_DIGITS, '0')}${randomSuffix(gen, 14)}`;
}

/**
 * The counter inside an id made by {@link nextId}, so more ids can follow it.
 *
 * @returns the counter, or -1 for anything that is not such an id.
 */
export function counterOf(id: unknown, prefix: 'msg' | 'prt'): number {
  if (typeof id !== 'string' || !id.startsWith(`${prefix}_`)) return -1;
  const digits = id.slice(4, 4 + COUNTER_DIGITS);
  return /^\d+$/.test(digits) && digits.length === COUNTER_DIGITS ? Number(digits) : -1;
}

// ---- Content pools -------------------------------------------------------

/** Topics of the session; shown as WikiLinks, some of them non-ASCII. */
export const CONCEPTS = [
  'cache layer', 'worker pool', 'session export', 'token budget', 'knowledge graph', 'hook thread', 'compaction',
  'memory store', 'event loop', 'backpressure', 'rate limiter', 'schema migration', 'retry policy', 'structured clone',
  'working set', 'preservation context', 'boundary sections', 'SQLite', 'TypeScript', 'message bus', 'vector index',
  'データ構造', 'Café', '缓存策略', 'Übersicht', 'naïve Bayes', 'résumé parser', 'Zürich office', 'キャッシュ',
] as const;
/** The {@link CONCEPTS} that are plain ASCII, for text that must stay ASCII. */
export const ASCII_CONCEPTS = CONCEPTS.filter((concept) => /^[\x20-\x7e]+$/.test(concept));
/** What a decision picks or rejects. */
export const CHOICES = [
  'a worker pool', 'an LRU cache', 'SQLite', 'structured clone', 'a ring buffer', 'JSON Lines', 'remark-parse',
  'gpt-tokenizer', 'a bounded queue', 'Redis', 'a SharedArrayBuffer', 'plain regular expressions', 'msgpack',
] as const;
/** Choices named in a single word. */
export const ONE_WORD_CHOICES = ['SQLite', 'Redis', 'piscina', 'remark', 'tinybench', 'zod', 'msgpack', 'esbuild', 'vitest', 'tsx'] as const;
/** Why a decision went the way it did. */
export const REASONS = [
  'it keeps the hook thread responsive', 'it is already a dependency', 'the data fits in memory',
  'it avoids a native build step', 'the host kills slow hooks', 'tests can run it inline',
  'it survives a worker crash', 'the output must stay deterministic', 'profiling showed most of the time in parsing',
  'the rest of the codebase does the same', 'large sessions would otherwise stall the UI',
] as const;
/** What a choice is used for. */
export const PURPOSES = [
  'local storage', 'token counting', 'parsing markdown', 'the cache layer', 'session snapshots',
  'batching tool output', 'the benchmark fixtures', 'section boundaries', 'option validation',
] as const;
/** Ways of doing the work, stated as decisions. */
export const APPROACHES = [
  'parse each message once and cache it by id', 'split the transcript into 32 KB batches',
  'keep only the head and the tail of tool output', 'count tokens on the final text only',
  'treat fenced code as opaque', 'retry once, then fall back to the inline runner',
  'validate options at the boundary and use defaults for the rest',
] as const;
/** Whole sentences in other scripts, some with WikiLinks and emoji. */
export const FOREIGN = [
  'この変更で[[データ構造]]がかなり単純になりました。', '缓存命中率提高了 40%，但[[缓存策略]]仍需调整。',
  'Le [[Café]] sert une crème brûlée parfaite — déjà vu, à vrai dire.', 'Die [[Übersicht]] ist jetzt vollständig ✅',
  'Tests are green again 🎉 and the flaky one is gone.', 'Straße, façade, naïve, coöperate — all survive the round trip.',
  '見出しの後に続く段落も正しく扱われます 🚀', 'Привет: кириллица тоже проходит без потерь.',
] as const;
/** Section headings of assistant answers. */
export const HEADINGS = [
  'Plan', 'Findings', 'Root cause', 'Next steps', 'Decisions', 'What changed', 'Open questions', 'Summary',
  'Benchmarks', 'Test results', 'Cache layer', 'データ構造の設計', 'Résumé des changements', 'Risks ⚠️',
] as const;
/** Function names in code, stack traces and search results. */
export const SYMBOLS = [
  'selectBoundarySections', 'countConcepts', 'extractDecisions', 'messageToUnit', 'resolveOptions', 'runTask',
  'truncateToTokens', 'normalizeToolPath', 'createWorkerPool', 'sanitizeText', 'loadSession', 'mergeCounts',
] as const;
/** Type names in code. */
export const TYPES = ['Message', 'AnalysisUnit', 'Section', 'Decision', 'ToolCallView', 'CacheEntry'] as const;
const DIRS = ['src/main', 'src/workers', 'src/workers/stages', 'src/cli', 'src/shared', 'test/main', 'test/workers', 'bench'] as const;
const NAMES = [
  'worker-pool', 'sections', 'cache', 'session-units', 'decisions', 'tokens', 'options', 'protocol', 'markdown',
  'concepts', 'budget', 'task-runner',
] as const;
/** What a test should do, as in `it('should …')`. */
export const TEST_NAMES = [
  'keep the last heading', 'ignore headings inside fences', 'return an empty list for no messages',
  'fall back to the inline runner', 'count each link once per message', 'reject a negative budget',
] as const;

/** `name` as a WikiLink, or plain in a session that writes no links. */
export function link(gen: Generator, name: string): string {
  return gen.style.links ? `[[${name}]]` : name;
}

/** A WikiLink to one of the {@link CONCEPTS} (its plain name in a session without links). */
export function concept(gen: Generator): string {
  return link(gen, pick(gen, CONCEPTS));
}

/** `text` without its link brackets in a session that writes no links. */
export function styled(gen: Generator, text: string): string {
  return gen.style.links ? text : text.replaceAll('[[', '').replaceAll(']]', '');
}

/** A source or test file, relative to the project root. */
export function relativePath(gen: Generator): string {
  const dir = pick(gen, DIRS);
  return `${dir}/${pick(gen, NAMES)}${dir.startsWith('test') ? '.test' : ''}.ts`;
}

/** A source or test file under the generator's project root. */
export function absolutePath(gen: Generator): string {
  return `${gen.projectRoot}/${relativePath(gen)}`;
}
