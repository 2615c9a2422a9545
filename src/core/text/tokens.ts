/**
 * Exact token counts for budgets, with the o200k_base and cl100k_base
 * encodings of gpt-tokenizer. Text is counted in pieces cut where the
 * tokenizer splits anyway (`token-pieces.ts`), so that a long unbroken run
 * cannot make one count take a minute.
 */
import * as o200k from 'gpt-tokenizer/encoding/o200k_base';
import * as cl100k from 'gpt-tokenizer/encoding/cl100k_base';
import { CL100K_TOKEN_SPLIT_REGEX, O200K_TOKEN_SPLIT_REGEX } from 'gpt-tokenizer/encodingParams/constants';
import { LRUCache } from 'lru-cache';
import { countUpTo, type Encoder } from './token-pieces.js';

/** The tokenizer encodings budgets are counted in. */
export type TokenEncoding = 'o200k_base' | 'cl100k_base';

// Special-token text such as `<|endoftext|>` is counted as the plain text it is; by default the tokenizer throws on it.
const asText = () => ({ disallowedSpecial: new Set<string>() });

const ENCODERS: Readonly<Record<TokenEncoding, Encoder>> = Object.freeze({
  o200k_base: Object.freeze({ count: (text: string) => o200k.countTokens(text, asText()), splitPattern: O200K_TOKEN_SPLIT_REGEX }),
  cl100k_base: Object.freeze({ count: (text: string) => cl100k.countTokens(text, asText()), splitPattern: CL100K_TOKEN_SPLIT_REGEX }),
});

/** Texts up to this long have their counts kept: the lines a budget weighs. */
const REMEMBERED_CHARS = 1_024;

/**
 * Counts of short texts lately counted, per encoding. The final pass weighs the same candidate lines
 * on every compaction of a session; counting them again was a quarter of that pass.
 */
const REMEMBERED: Readonly<Record<TokenEncoding, LRUCache<string, number>>> = Object.freeze({
  o200k_base: new LRUCache<string, number>({ max: 4_096 }),
  cl100k_base: new LRUCache<string, number>({ max: 4_096 }),
});

function knownCount(text: string, encoding: TokenEncoding): number | undefined {
  return text.length <= REMEMBERED_CHARS ? (REMEMBERED as Record<string, LRUCache<string, number> | undefined>)[encoding]?.get(text) : undefined;
}

function remember(text: string, encoding: TokenEncoding, count: number): void {
  if (text.length <= REMEMBERED_CHARS) (REMEMBERED as Record<string, LRUCache<string, number> | undefined>)[encoding]?.set(text, count);
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
 * The tokenizer encoding of a model.
 *
 * @param modelId - the model's id, with or without a provider prefix (`openai/gpt-4-turbo`); `undefined` when unknown.
 * @returns `cl100k_base` for GPT-3.5, GPT-4 and GPT-4 Turbo (not GPT-4o, 4.1 or 4.5), the `text-embedding-3`
 *   and `ada-002` embeddings and `babbage-002`/`davinci-002`; `o200k_base` for everything else, the encoding of current models.
 */
export function encodingForModel(modelId: string | undefined): TokenEncoding {
  const model = (modelId ?? '').trim().toLowerCase().split('/').pop() ?? '';
  const isCl100k =
    /^gpt-3\.?5(?![\d.])/.test(model) ||
    /^gpt-4(?:$|-)/.test(model) ||
    /^text-embedding-(?:3-|ada-002)/.test(model) ||
    /^(?:babbage|davinci)-002$/.test(model);
  return isCl100k ? 'cl100k_base' : 'o200k_base';
}

/**
 * Counts the tokens of `text` exactly as the model's tokenizer does (see `token-pieces.ts` for the runs it counts approximately).
 *
 * @param text - any text; special-token text like `<|endoftext|>` is counted as ordinary characters.
 * @param encoding - the tokenizer. @default 'o200k_base'
 */
export function countTokens(text: string, encoding: TokenEncoding = 'o200k_base'): number {
  const known = knownCount(text, encoding);
  if (known !== undefined) return known;
  const count = countUpTo(text, Number.POSITIVE_INFINITY, encoderFor(encoding));
  remember(text, encoding, count);
  return count;
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
  const known = knownCount(text, encoding);
  if (known !== undefined) return known <= budget;
  const count = countUpTo(text, budget, encoderFor(encoding));
  // Within the budget the count ran to the end, so it is the whole text's.
  if (count <= budget) remember(text, encoding, count);
  return count <= budget;
}
