/**
 * Matchers for the cue words of `tables/`, by language: one walk of a
 * trie per text answers every kind (`cue-scan.ts`), in time linear in the
 * text whatever it holds. English cues always apply: code sessions mix
 * languages, and tool names, headings and identifiers stay English.
 *
 * Both runtimes walk the trie. A literal alternation per kind runs faster in
 * V8 than in JavaScriptCore (OpenCode's Bun), but even in V8 it costs more
 * than the walk, which passes over the positions inside words.
 */
import type { CueKind } from './cue-kinds.js';
import { CUE_LANGUAGES, TABLES } from './cue-tables.js';
import { ENGLISH } from './tables/english.js';
import { CueTrie, type CueShape } from './cue-scan.js';

export type { CueKind } from './cue-kinds.js';
export { CUE_LANGUAGES } from './cue-tables.js';

const KINDS: readonly CueKind[] = [
  'change', 'weakChange', 'summaryHeading', 'decisionHeading', 'problemHeading', 'nextHeading', 'planHeading', 'problem',
  'next', 'hedge', 'minor', 'instruction', 'purpose', 'goalHeading', 'verified',
];

function escape(literal: string): string {
  return literal.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

/** Letters with no spaces between words (CJK): such cues match anywhere. */
const SPACELESS = /[\u3040-\u30ff\u3400-\u9fff]/u;
// A word joined by `.`, `-` or `/` to another ("Next.js", "next-auth", "src/fix") is a name, not the cue.
const NOT_WORD_BEFORE = '(?<![\\p{L}\\p{N}_]|[\\p{L}\\p{N}][.\\-/])';
const NOT_WORD_AFTER = '(?![\\p{L}\\p{N}_]|[.\\-/][\\p{L}\\p{N}])';

/**
 * A cue matcher. `test` reads the text once for every kind of its language (see `cue-scan.ts`); the
 * exact expression, with the same word-edge rules, serves `exec` and the rare text whose lowercase
 * form has another length.
 */
export interface CueMatcher {
  /** Whether some cue occurs in the text as a whole word (CJK cues anywhere). */
  test(text: string): boolean;
  /** The first whole-word cue in the text, as `RegExp.prototype.exec` returns it. */
  exec(text: string): RegExpExecArray | null;
  /** Whether the text opens with a cue: `exec(text)?.index === 0`, without looking past the opening. */
  opens(text: string): boolean;
}

class ScannedMatcher implements CueMatcher {
  /** The exact expression tried at the text's start only. */
  readonly #opening: RegExp;

  constructor(
    private readonly trie: CueTrie,
    private readonly bit: number,
    private readonly exact: RegExp,
  ) {
    this.#opening = new RegExp(exact.source, `${exact.flags}y`);
  }

  test(text: string): boolean {
    const kinds = this.trie.scan(text);
    return kinds === null ? this.exact.test(text) : (kinds & this.bit) !== 0;
  }

  exec(text: string): RegExpExecArray | null {
    return this.test(text) ? this.exact.exec(text) : null;
  }

  opens(text: string): boolean {
    const kinds = this.trie.opening(text);
    if (kinds !== null) return (kinds & this.bit) !== 0;
    // The leftmost match starts at 0 exactly when some match does: a sticky expression tries 0 alone.
    this.#opening.lastIndex = 0;
    return this.#opening.test(text);
  }
}

function shapeOf(cue: string): CueShape {
  if (SPACELESS.test(cue) || !/[\p{L}\p{N}]/u.test(cue)) return 'anywhere';
  return cue.endsWith('*') ? 'prefix' : 'whole';
}

/**
 * The exact expression of a cue list, the reference the scan agrees with: literal alternatives, no
 * nesting, so no backtracking beyond the longest cue.
 *
 * @param cues - as for {@link compile}.
 */
export function exactExpression(cues: readonly string[]): RegExp {
  const whole: string[] = [];
  const prefix: string[] = [];
  const anywhere: string[] = [];
  // Longest first, so "instead of" wins over "instead" in the match text.
  for (const cue of [...new Set(cues)].sort((a, b) => b.length - a.length)) {
    const shape = shapeOf(cue);
    if (shape === 'anywhere') anywhere.push(escape(cue));
    else if (shape === 'prefix') prefix.push(escape(cue.slice(0, -1)));
    else whole.push(escape(cue));
  }
  const parts: string[] = [];
  if (whole.length > 0) parts.push(`${NOT_WORD_BEFORE}(?:${whole.join('|')})${NOT_WORD_AFTER}`);
  if (prefix.length > 0) parts.push(`${NOT_WORD_BEFORE}(?:${prefix.join('|')})`);
  if (anywhere.length > 0) parts.push(`(?:${anywhere.join('|')})`);
  return parts.length > 0 ? new RegExp(parts.join('|'), 'iu') : /(?!)/;
}

function trieEntries(cues: readonly string[], bit: number): Array<{ literal: string; bit: number; shape: CueShape }> {
  return [...new Set(cues)].map((cue) => {
    const shape = shapeOf(cue);
    return { literal: shape === 'prefix' ? cue.slice(0, -1) : cue, bit, shape };
  });
}

/**
 * One matcher of a cue list.
 *
 * @param cues - literal phrases; a trailing `*` makes one a prefix, CJK ones match anywhere.
 */
export function compile(cues: readonly string[]): CueMatcher {
  return new ScannedMatcher(new CueTrie(trieEntries(cues, 1)), 1, exactExpression(cues));
}

/** Matchers for one language: its cues and the English ones. */
export type CueMatchers = Readonly<Record<CueKind, CueMatcher>>;

/** Matchers of every kind that share one trie, so a text is read once for all of them. */
function matchersOf(cuesOf: (kind: CueKind) => readonly string[]): CueMatchers {
  const trie = new CueTrie(KINDS.flatMap((kind, index) => trieEntries(cuesOf(kind), 1 << index)));
  const entries = KINDS.map((kind, index): [CueKind, CueMatcher] => [kind, new ScannedMatcher(trie, 1 << index, exactExpression(cuesOf(kind)))]);
  return Object.freeze(Object.fromEntries(entries) as Record<CueKind, CueMatcher>);
}

function matchersFor(language: string): CueMatchers {
  const own = language === 'eng' ? undefined : TABLES[language];
  return matchersOf((kind) => [...ENGLISH[kind], ...(own?.[kind] ?? [])]);
}

/** Matchers by language, built when a language is first met: most sessions need one or two. */
const MATCHERS = new Map<string, CueMatchers>();

function matchersOfLanguage(language: string): CueMatchers {
  let matchers = MATCHERS.get(language);
  if (!matchers) MATCHERS.set(language, (matchers = matchersFor(language)));
  return matchers;
}

/** Every language's cues at once, for a message whose language a few words cannot tell apart from its neighbours. */
let allMatchers: CueMatchers | null = null;

function everyLanguage(): CueMatchers {
  allMatchers ??= matchersOf((kind) => Object.values(TABLES).flatMap((table) => [...table[kind]]));
  return allMatchers;
}

/** Characters up to which a message counts as short: too few to tell Spanish from Portuguese or Italian. */
export const SHORT_MESSAGE_CHARS = 600;

/**
 * The cue matchers for reading decisions: a short message that is not English (a step narrated before a
 * tool call) is read with every language's cues, since a few words do not tell neighbouring languages
 * apart and a change verb of one of them is no English word; any other message with its own language's.
 * The wide matcher costs more per character, so only short texts get it.
 *
 * @param language - ISO 639-3 code, as `detectLanguage` returns it.
 * @param chars - the message's length.
 */
export function decisionCuesFor(language: string, chars: number): CueMatchers {
  return language === 'eng' || chars > SHORT_MESSAGE_CHARS ? cuesFor(language) : everyLanguage();
}

/**
 * The cue matchers for a language: its own cues and the English ones; English alone for a
 * language without a cue set or `und`.
 *
 * @param language - ISO 639-3 code, as `detectLanguage` returns it.
 */
export function cuesFor(language: string): CueMatchers {
  return matchersOfLanguage(CUE_LANGUAGES.includes(language) ? language : 'eng');
}
