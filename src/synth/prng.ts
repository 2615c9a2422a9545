/**
 * A seeded pseudo-random number generator: the same seed gives the same
 * sequence on every platform, so synthetic data and randomised tests replay.
 */

/**
 * mulberry32: a tiny, fast generator, plenty for varying text. Not for
 * anything that must be unpredictable.
 *
 * @param seed - start of the sequence; only its low 32 bits count.
 * @returns a function giving the next number of the sequence, in [0, 1).
 */
export function createPrng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}
