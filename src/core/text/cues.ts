/**
 * Matchers for the cue words of `cue-tables.ts`, by language. The matchers
 * are alternations of literals, so a scan costs time linear in the text
 * whatever it holds. English cues always apply: code sessions mix languages,
 * and tool names, headings and identifiers stay English.
 */
import { CUE_LANGUAGES, ENGLISH, TABLES, type CueKind } from './cue-tables.js';

export { CUE_LANGUAGES, type CueKind } from './cue-tables.js';

const KINDS: readonly CueKind[] = [
  'change', 'weakChange', 'summaryHeading', 'decisionHeading', 'problemHeading', 'nextHeading', 'planHeading', 'problem',
  'next', 'hedge', 'minor', 'instruction', 'purpose', 'goalHeading',
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
 * A cue matcher: the exact expression behind a cheap filter. The exact one opens with a look-behind,
 * which V8 must try at every position of the text; the filter is the same alternation of literals
 * without the word-edge assertions, which V8 scans for their first letters. Any exact match is also a
 * filter match, so texts the filter rejects (most of them) never meet the exact expression.
 */
export interface CueMatcher {
  /** Whether some cue occurs in the text as a whole word (CJK cues anywhere). */
  test(text: string): boolean;
  /** The first whole-word cue in the text, as `RegExp.prototype.exec` returns it. */
  exec(text: string): RegExpExecArray | null;
}

/** Letters that case-fold to another only under the `u` flag. */
const UNICODE_ONLY_FOLDS = '[\\u017f\\u212a\\u212b\\u1e9e\\u0130\\u0131\\u03c2\\u1fbe\\u00b5]';

class FilteredMatcher implements CueMatcher {
  constructor(
    private readonly filter: RegExp,
    private readonly exact: RegExp,
  ) {}

  test(text: string): boolean {
    return this.filter.test(text) && this.exact.test(text);
  }

  exec(text: string): RegExpExecArray | null {
    return this.filter.test(text) ? this.exact.exec(text) : null;
  }
}

/**
 * One matcher of literal alternatives: no nesting, so no backtracking beyond the longest cue.
 *
 * @param cues - literal phrases; a trailing `*` makes one a prefix, CJK ones match anywhere.
 */
export function compile(cues: readonly string[]): CueMatcher {
  const whole: string[] = [];
  const prefix: string[] = [];
  const anywhere: string[] = [];
  // Longest first, so "instead of" wins over "instead" in the match text.
  for (const cue of [...new Set(cues)].sort((a, b) => b.length - a.length)) {
    if (SPACELESS.test(cue) || !/[\p{L}\p{N}]/u.test(cue)) anywhere.push(escape(cue));
    else if (cue.endsWith('*')) prefix.push(escape(cue.slice(0, -1)));
    else whole.push(escape(cue));
  }
  const parts: string[] = [];
  if (whole.length > 0) parts.push(`${NOT_WORD_BEFORE}(?:${whole.join('|')})${NOT_WORD_AFTER}`);
  if (prefix.length > 0) parts.push(`${NOT_WORD_BEFORE}(?:${prefix.join('|')})`);
  if (anywhere.length > 0) parts.push(`(?:${anywhere.join('|')})`);
  if (parts.length === 0) return new FilteredMatcher(/(?!)/, /(?!)/);
  // Without the `u` flag V8 scans about twice as fast. Its case-insensitive matching differs from the
  // exact one's only for a few letters (long s, Kelvin and Ångström signs, capital sharp s, dotted and
  // dotless i): a text holding one of them always goes on to the exact expression.
  const literals = [...whole, ...prefix, ...anywhere, UNICODE_ONLY_FOLDS];
  return new FilteredMatcher(new RegExp(literals.join('|'), 'i'), new RegExp(parts.join('|'), 'iu'));
}

/** Matchers for one language: its cues and the English ones. */
export type CueMatchers = Readonly<Record<CueKind, CueMatcher>>;

function matchersFor(language: string): CueMatchers {
  const own = language === 'eng' ? undefined : TABLES[language];
  const entries = KINDS.map((kind) => [kind, compile([...ENGLISH[kind], ...(own?.[kind] ?? [])])] as const);
  return Object.freeze(Object.fromEntries(entries) as Record<CueKind, CueMatcher>);
}

const MATCHERS: ReadonlyMap<string, CueMatchers> = new Map(CUE_LANGUAGES.map((language) => [language, matchersFor(language)]));

/** Every language's cues at once, for a message whose language a few words cannot tell apart from its neighbours. */
const ALL_MATCHERS: CueMatchers = Object.freeze(
  Object.fromEntries(KINDS.map((kind) => [kind, compile(Object.values(TABLES).flatMap((table) => [...table[kind]]))])) as Record<CueKind, CueMatcher>,
);

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
  return language === 'eng' || chars > SHORT_MESSAGE_CHARS ? cuesFor(language) : ALL_MATCHERS;
}

/**
 * The cue matchers for a language: its own cues and the English ones; English alone for a
 * language without a cue set or `und`.
 *
 * @param language - ISO 639-3 code, as `detectLanguage` returns it.
 */
export function cuesFor(language: string): CueMatchers {
  return MATCHERS.get(language) ?? (MATCHERS.get('eng') as CueMatchers);
}
