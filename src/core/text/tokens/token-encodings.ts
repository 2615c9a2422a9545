/**
 * Which tokenizer encoding a model reads, apart from the tokenizers
 * themselves: the hook thread names encodings without loading their ranks.
 */

/** The tokenizer encodings budgets are counted in. */
export type TokenEncoding = 'o200k_base' | 'cl100k_base';

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
