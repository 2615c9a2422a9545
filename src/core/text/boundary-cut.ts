/**
 * One way an item too long for its line is cut: at the end of a sentence,
 * else at a clause boundary, a word boundary only as the last resort. A cut
 * that would keep only what leads up to the point (a condition, a reason, a
 * lead-in ending with a colon) keeps more, up to the item's reach, so that a
 * line never ends in `…` before the claim it was kept for.
 */
import { capChars } from './char-cap.js';

/** What marks a cut that kept less than a whole sentence. */
export const CUT_MARK = '…';

/** Options of {@link cutAtBoundary}. */
export interface BoundaryCutOptions {
  /**
   * The longest text kept when every cut within `max` would end before the point: a hard cap the caller's
   * line allows (a note's item cap, a context entry's token cap as characters). @default max
   */
  reach?: number;
}

/** A sentence's end: a stop and a space, or a full-width stop (CJK text has no space after it). */
const SENTENCE_END = /[.!?](?=\s|$)|[。！？]/gu;
/** A clause boundary: a semicolon, a dash between spaces, a comma, a colon, or their full-width forms. */
const CLAUSE_END = /[;,](?=\s)|\s[—–-](?=\s)|[:](?=\s)|[；，、：]/gu;
/** Abbreviations whose stop ends no sentence, read from the characters right before the stop. */
const ABBREVIATION = /(?:^|[\s(])(?:e\.g|i\.e|etc|vs|cf|approx|incl|p\.ej|z\. ?B|bzw|usw)$/iu;
/**
 * A clause that only leads up to the point, by its opening word in the languages with cue tables: a
 * condition, a time, a reason, a purpose, a concession ("Because the loss ignores class balance, …",
 * "Para evitar …,", "如果…，"). Kept alone, the line says why or when but not what.
 */
const LEAD_CLAUSE =
  /^(?:if|when|whenever|once|because|since|as|after|before|although|though|while|unless|until|to|in order to|so that|for|with|without|by|given|instead of|rather than|now that|si|cuando|porque|aunque|para|como|después de|antes de|mientras|wenn|weil|da|obwohl|um|nachdem|bevor|während|damit|ohne|quand|parce que|puisque|bien que|pour|après|avant de|lorsque|se|quando|embora|depois de|enquanto)(?![\p{L}])|^(?:如果|因为|由于|为了|虽然|当|既然|若|為了|因為|由於|雖然)/iu;
/** A connective that may open a lead-in clause ("However, since …, "; "Pero si …, "; "但是如果…，"). */
const CONNECTIVE = /^(?:however|but|and|so|also|now|then|still|yet|thus|pero|sin embargo|entonces|aber|jedoch|mais|cependant|alors|porém|mas|então|但是|不过|所以|然后)(?![\p{L}])[,，]?\s*/iu;

/**
 * Shares of `max` a sentence cut and a clause cut must keep at least: a line cut far short of its room loses
 * the end of its claim ("…, corrupting the queues", "— hardcoded dark values") to save characters it had.
 */
const MIN_SENTENCE_SHARE = 0.5;
const MIN_CLAUSE_SHARE = 0.7;
/** Characters past a lead-in before a boundary can close its claim ("…, so X, …" is not a claim closed at "so X"). */
const MIN_CLAIM_CHARS = 12;

/** Ends of the pieces a boundary pattern finds in `text`, each just past its mark, in order. */
function boundaryEnds(text: string, pattern: RegExp): number[] {
  const ends: number[] = [];
  pattern.lastIndex = 0;
  for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) {
    if (match[0] === '.' && ABBREVIATION.test(text.slice(Math.max(0, match.index - 8), match.index))) continue;
    ends.push(match.index + match[0].length);
  }
  return ends;
}

/** Characters a cut keeps past a colon that announces the point, at least. */
const MIN_AFTER_COLON_CHARS = 30;

/**
 * Where a cut of `text` within `max` may end at the earliest so as to keep its claim: past the clause that
 * follows a lead-in clause ("Because …, the claim,"; "如果…，…，"), and some words past the last colon within
 * `max` ("works like this: the point"); 0 when neither holds.
 */
function claimEnd(text: string, max: number, sentences: readonly number[], clauses: readonly number[]): number {
  let end = 0;
  const connective = CONNECTIVE.exec(text)?.[0].length ?? 0;
  if (LEAD_CLAUSE.test(text.slice(connective))) {
    const lead = clauses.find((at) => at > connective + 1) ?? text.length;
    end = text.length;
    for (const at of [...sentences, ...clauses]) if (at >= lead + MIN_CLAIM_CHARS && at < end) end = at;
  }
  const head = text.slice(0, max - 1);
  const colon = Math.max(head.lastIndexOf(': '), head.lastIndexOf('：'));
  if (colon !== -1) end = Math.max(end, colon + 1 + MIN_AFTER_COLON_CHARS);
  return end;
}

/** The latest end in `ends` within `[from, to]`, or -1. */
function latestEnd(ends: readonly number[], from: number, to: number): number {
  for (let index = ends.length - 1; index >= 0; index--) {
    const end = ends[index] ?? 0;
    if (end > to) continue;
    return end >= from ? end : -1;
  }
  return -1;
}

/** A clause or word cut: the text up to `end` without the mark or space it ended on, then {@link CUT_MARK}. */
function marked(text: string, end: number): string {
  return `${capChars(text, end).replace(/[\s,;:，；、：—–-]+$/u, '')}${CUT_MARK}`;
}

/**
 * `text` cut to at most `max` characters at the best boundary: the last sentence end that keeps at least
 * half of `max`, kept whole without a mark; else the last clause boundary that keeps seven tenths of it,
 * then the last word boundary, each marked with {@link CUT_MARK}. When the text opens with a lead-in (a reason, a condition,
 * a colon announcing the point) and `max` would end before the clause after it closes, the cut is made the
 * same way within `reach` instead, keeping that clause. Surrogate pairs are never split.
 *
 * @param text - one item, on one line.
 * @param max - the length the item should keep to, in UTF-16 units, the mark included.
 * @param options - see {@link BoundaryCutOptions}.
 * @returns `text` itself when it fits in `max` (in `reach` when the point lies past `max`).
 */
export function cutAtBoundary(text: string, max: number, options: BoundaryCutOptions = {}): string {
  if (text.length <= max) return text;
  // No cut ends past the reach: the boundaries beyond it are never read, however long the text.
  const scanned = capChars(text, Math.max(max, options.reach ?? max) + 1);
  const sentences = boundaryEnds(scanned, SENTENCE_END);
  const clauses = boundaryEnds(scanned, CLAUSE_END);
  // A cut keeps the claim after a lead-in, within reach if need be.
  const claim = claimEnd(text, max, sentences, clauses);
  const limit = claim > max - 1 ? Math.max(max, options.reach ?? max) : max;
  if (text.length <= limit) return text;
  const floor = (share: number): number => Math.min(Math.max(Math.floor(limit * share), claim), limit - 1);
  const sentence = latestEnd(sentences, floor(MIN_SENTENCE_SHARE), limit);
  if (sentence !== -1) return text.slice(0, sentence);
  const clause = latestEnd(clauses, floor(MIN_CLAUSE_SHARE), limit - 1);
  if (clause !== -1) return marked(text, clause);
  const space = capChars(text, limit - 1).lastIndexOf(' ');
  return marked(text, space > limit / 2 ? space : limit - 1);
}
