/**
 * Caps on a string's length in UTF-16 units that never cut a surrogate pair
 * in half: a lone half is not valid UTF-16, and a note or a prompt must
 * encode to UTF-8 as it reads.
 */

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/**
 * The first `maxChars` characters of `text`, one fewer when the last would be
 * the first half of a surrogate pair.
 *
 * @param text - any string.
 * @param maxChars - the longest result, in UTF-16 units.
 */
export function capChars(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  return text.slice(0, isHighSurrogate(text.charCodeAt(maxChars - 1)) ? maxChars - 1 : maxChars);
}

/**
 * The last `maxChars` characters of `text`, one fewer when the first would be
 * the second half of a surrogate pair.
 *
 * @param text - any string.
 * @param maxChars - the longest result, in UTF-16 units.
 */
export function capCharsFromEnd(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  const from = text.length - maxChars;
  return text.slice(isLowSurrogate(text.charCodeAt(from)) ? from + 1 : from);
}
