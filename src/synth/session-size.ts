/**
 * Sizes as typed on the command line (`100KB`, `1.5 MB`): what `npm run
 * synth` and `npm start` accept for the size of a session.
 */

/** The largest size {@link parseSize} accepts: 1 GB. */
export const MAX_SIZE_BYTES = 1024 ** 3;

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
