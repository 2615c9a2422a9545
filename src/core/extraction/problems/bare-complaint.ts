/**
 * A complaint that names nothing ("getting errors again", "still broken!", "またエラーです"): the person says the last
 * attempt did not work, and the messages around it say what; as a problem of its own it tells the next
 * session nothing. Read in the cue tables' languages by taking away the words every such complaint is
 * made of and seeing whether anything is left.
 */

/** The words a bare complaint is made of, in the spaced scripts of the cue tables. */
const COMPLAINT_WORDS = new Set([
  // English
  'a', 'an', 'the', 'some', 'more', 'same', 'new', 'got', 'get', 'getting', 'i', 'it', 'its', "it's", 'is', 'are', 'was',
  'there', 'this', 'that', 'now', 'still', 'again', 'yet', 'no', 'nope', 'not', 'error', 'errors', 'broken', 'broke',
  'fails', 'failed', 'failing', 'working', 'work', 'works', "doesn't", 'does', "didn't", 'issue', 'issues', 'problem',
  'problems', 'wrong', 'one', 'and', 'with', 'me', 'see', 'have', 'has',
  // Spanish, Portuguese, French, German
  'sigue', 'sigo', 'otra', 'vez', 'otro', 'errores', 'falla', 'fallo', 'funciona', 'todavía', 'aún', 'igual', 'sin', 'funcionar',
  'tengo', 'hay', 'ainda', 'erro', 'erros', 'continua', 'encore', 'toujours', 'erreur', 'erreurs', 'marche', 'pas',
  'fehler', 'immer', 'noch', 'geht', 'nicht', 'wieder',
  // Russian, Polish
  'опять', 'снова', 'всё', 'все', 'ещё', 'еще', 'ошибка', 'ошибки', 'ошибку', 'не', 'работает', 'есть', 'та', 'тот', 'то', 'же', 'самая', 'самый', 'самое', 'и',
  'znowu', 'nadal', 'wciąż', 'błąd', 'błędy', 'nie', 'działa', 'jest', 'ten', 'sam', 'sama', 'samo', 'to', 'i',
]);

/** What a bare complaint is made of in the unspaced scripts: an error or a problem appeared, still, again. */
const CJK_COMPLAINT = /エラー|が|出ました|出ます|出た|発生しました|まだ|また|です|报错|報錯|错误|錯誤|出现|出現|了|问题|問題|有|还是|還是|又|依然/gu;

/** Characters that are not part of a word: punctuation, symbols, spaces. */
const NOT_WORD = /[^\p{L}\p{N}'’]+/u;

/**
 * Whether a problem stated in prose names nothing beyond the fact that something went wrong.
 *
 * @param text - the problem's text.
 */
export function isBareComplaint(text: string): boolean {
  const plain = text.replace(CJK_COMPLAINT, ' ').toLowerCase().replace(/’/g, "'");
  const words = plain.split(NOT_WORD).filter((word) => word !== '');
  return words.every((word) => COMPLAINT_WORDS.has(word));
}
