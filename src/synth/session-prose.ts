/**
 * The generator's prose, for stores that take plain user messages: the
 * benchmarks and end-to-end tests that fill a real server through its
 * message route rather than by importing an export.
 */
import { generateSession } from './session-generator.js';

/**
 * The text parts of a generated session, in order.
 *
 * @param seed - the generator's seed.
 * @param targetBytes - the size of the generated export the texts come from.
 */
export function generatedProse(seed: number, targetBytes: number): string[] {
  return generateSession({ seed, targetBytes })
    .messages.flatMap((message) => message.parts)
    .map((part) => (part.type === 'text' ? String((part as { text?: unknown }).text ?? '') : ''))
    .filter((text) => text.length > 0);
}

/**
 * Texts joined into messages of more than `pieceChars` characters each (a blank line between texts), until
 * the messages hold more than `maxChars` in all or the texts run out; a last short piece is left out.
 *
 * @param texts - the texts, in order.
 * @param pieceChars - the size a message passes before the next one starts.
 * @param maxChars - the characters of all messages, once passed, that end the list.
 */
export function proseInPieces(texts: readonly string[], pieceChars: number, maxChars: number): string[] {
  const pieces: string[] = [];
  let piece = '';
  let total = 0;
  for (const text of texts) {
    piece += `${text}\n\n`;
    if (piece.length <= pieceChars) continue;
    pieces.push(piece);
    total += piece.length;
    piece = '';
    if (total > maxChars) break;
  }
  return pieces;
}
