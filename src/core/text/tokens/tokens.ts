/**
 * Exact token counts for budgets, with the o200k_base and cl100k_base
 * encodings of gpt-tokenizer. Text is counted in pieces cut where the
 * tokenizer splits anyway (`token-pieces.ts`), so that a long unbroken run
 * cannot make one count take a minute.
 */
import { createRequire } from 'node:module';
import { CL100K_TOKEN_SPLIT_REGEX, O200K_TOKEN_SPLIT_REGEX } from 'gpt-tokenizer/encodingParams/constants';
import { LRUCache } from 'lru-cache';
import { countUpTo, type Encoder } from './token-pieces.js';
import type { TokenEncoding } from './token-encodings.js';

export { encodingForModel, type TokenEncoding } from './token-encodings.js';

// Special-token text such as `<|endoftext|>` is counted as the plain text it is; by default the tokenizer throws on it.
const asText = () => ({ disallowedSpecial: new Set<string>() });

const load = createRequire(import.meta.url);

/**
 * o200k_base, loaded on its first count, once per thread: loading its ranks cost each worker about
 * 625 ms of CPU under Bun (250 ms under Node), and a worker's first tasks (the memory index, the
 * session's messages) count nothing, so they no longer wait for it.
 */
let o200kModule: typeof import('gpt-tokenizer/encoding/o200k_base') | undefined;
function o200k(): typeof import('gpt-tokenizer/encoding/o200k_base') {
  o200kModule ??= load('gpt-tokenizer/encoding/o200k_base') as typeof import('gpt-tokenizer/encoding/o200k_base');
  return o200kModule;
}

/**
 * cl100k_base, loaded on its first use: only older OpenAI models need it, and loading its ranks cost
 * each worker (and each process that counts) about 220 ms of CPU at start.
 */
let cl100kModule: typeof import('gpt-tokenizer/encoding/cl100k_base') | undefined;
function cl100k(): typeof import('gpt-tokenizer/encoding/cl100k_base') {
  cl100kModule ??= load('gpt-tokenizer/encoding/cl100k_base') as typeof import('gpt-tokenizer/encoding/cl100k_base');
  return cl100kModule;
}

const ENCODERS: Readonly<Record<TokenEncoding, Encoder>> = Object.freeze({
  o200k_base: Object.freeze({ count: (text: string) => o200k().countTokens(text, asText()), splitPattern: O200K_TOKEN_SPLIT_REGEX }),
  cl100k_base: Object.freeze({ count: (text: string) => cl100k().countTokens(text, asText()), splitPattern: CL100K_TOKEN_SPLIT_REGEX }),
});

/** Texts up to this long have their counts kept: the lines a budget weighs. */
const REMEMBERED_CHARS = 1_024;

/**
 * Counts of short texts lately counted, per encoding. The final pass weighs the same candidate lines
 * on every compaction of a session; counting them again was a quarter of that pass.
 */
const REMEMBERED = new Map<Encoder, LRUCache<string, number>>(Object.values(ENCODERS).map((encoder) => [encoder, new LRUCache<string, number>({ max: 4_096 })]));

/** {@link countUpTo}, answered from {@link REMEMBERED} when it can be. */
function countRemembered(text: string, limit: number, encoder: Encoder): number {
  const remembered = text.length <= REMEMBERED_CHARS ? REMEMBERED.get(encoder) : undefined;
  const known = remembered?.get(text);
  if (known !== undefined) return known;
  const count = countUpTo(text, limit, encoder);
  // Within the limit the count ran to the end, so it is the whole text's.
  if (count <= limit) remembered?.set(text, count);
  return count;
}

/**
 * The counter and split pattern of an encoding.
 *
 * @param encoding - the tokenizer's name.
 * @throws TypeError for a name that is not one of {@link TokenEncoding}.
 */
export function encoderFor(encoding: TokenEncoding): Encoder {
  const encoder = (ENCODERS as Record<string, Encoder | undefined>)[encoding];
  if (encoder === undefined) throw new TypeError(`encoding must be 'o200k_base' or 'cl100k_base', got ${String(encoding)}`);
  return encoder;
}

/**
 * Counts the tokens of `text` exactly as the model's tokenizer does (see `token-pieces.ts` for the runs it counts approximately).
 *
 * @param text - any text; special-token text like `<|endoftext|>` is counted as ordinary characters.
 * @param encoding - the tokenizer. @default 'o200k_base'
 */
export function countTokens(text: string, encoding: TokenEncoding = 'o200k_base'): number {
  return countRemembered(text, Number.POSITIVE_INFINITY, encoderFor(encoding));
}

/**
 * Whether `text` fits in `budget` tokens; stops counting as soon as it does not.
 *
 * @param text - the text to measure.
 * @param budget - the most tokens allowed; negative or `NaN` never fits.
 * @param encoding - the tokenizer. @default 'o200k_base'
 */
export function isWithinTokens(text: string, budget: number, encoding: TokenEncoding = 'o200k_base'): boolean {
  if (!(budget >= 0)) return false;
  return countRemembered(text, budget, encoderFor(encoding)) <= budget;
}
