/**
 * Decision sentences: five pattern families (a choice stated, a tool chosen
 * for a use, a reason, an approach, a rejection), each decision categorized
 * for the memory note.
 *
 * The seed's patterns, made safe: `\b` word boundaries (with the `i` flag,
 * `(?:we|I)` otherwise matches the "i" that ends "api"), bounded captures,
 * and sentences split by a linear scan, so no input costs more than linear
 * time.
 */
import { capChars } from '../../text/char-cap.js';
import { stripFencedCode } from '../../text/fences.js';
import { splitAfterStops } from '../../text/sentences.js';

/**
 * The pattern family that found a decision (`todo`: an item the agent's todo list marks completed; `thought`: what
 * the reasoning settled before the same message's edits).
 */
export type DecisionFamily = 'rejection' | 'explicit' | 'labelled' | 'architectural' | 'rationale' | 'approach' | 'change' | 'carried' | 'deleted' | 'todo' | 'thought';

/** What kind of decision it is; the note writes it before the decision. */
export type DecisionCategory = 'architecture' | 'rejection' | 'implementation' | 'rationale';

/** One decision found in a sentence. */
export interface Decision {
  family: DecisionFamily;
  category: DecisionCategory;
  /** The decision itself, without its trailing full stop. */
  text: string;
  /** The sentence it came from, at most {@link MAX_CONTEXT_CHARS} characters (a prose item's lead-in and text for `change`). */
  context: string;
  /** How strongly it reads as a decision, when its source ranks them; the final pass keeps the strongest. */
  score?: number;
  /** Position of its message in the conversation, when known. */
  order?: number;
  /**
   * Set on a commit: how its size (files, lines, new files) weighs it against the session's other commits,
   * applied when the commits alone would fill the list (see `rankDecisions`).
   */
  commitSize?: number;
  /**
   * Proposed, not reported done: a plan step, a review finding, an imperative in a message that
   * changes nothing. It counts only once a later edit confirms it (see `rankDecisions`).
   */
  proposed?: boolean;
  /**
   * A line of the message that closes a turn, below a decision's marks: a plain report of the turn's change, or a
   * line of an inventory of what was built ("TransactionService: syncs the balance"). It only fills a session whose
   * prose states few decisions, once its turn's edits name it (see `fillFromTurnReports`).
   */
  closing?: true;
  /**
   * The line of work a recorded change belongs to (a commit's `type(scope)` or the files it staged):
   * successive ones between two user requests are attempts at one change (see `collapseAttempts`).
   */
  line?: string;
  /** How many successive attempts this one stands for, when it stands for more than itself. */
  attempts?: number;
  /** Set on a command that undid the latest commit (`git revert HEAD`, `git reset --hard HEAD~1`): that commit no longer stands (see `cancelledCommits`). */
  undoesCommit?: true;
}

/** Cap on a decision's context sentence. */
export const MAX_CONTEXT_CHARS = 200;

interface Family {
  family: DecisionFamily;
  category: DecisionCategory;
  pattern: RegExp;
  /** Which capture is the decision's text; 0 for the whole match. */
  capture: number;
  /** Families that this one, when it matches, makes redundant. */
  supersedes?: DecisionFamily;
}

// Rejection first: "we decided against X" also fits the explicit family.
const FAMILIES: readonly Family[] = [
  {
    family: 'rejection',
    category: 'rejection',
    pattern: /\b(?:we|I)\s+(?:won['’]t|will not|shouldn['’]t|should not|decided against)\s+(.{10,200})/i,
    capture: 1,
    supersedes: 'explicit',
  },
  {
    family: 'explicit',
    category: 'implementation',
    // The whole clause, to the end of its sentence: what was chosen, what it replaces and why.
    pattern: /\b(?:we|I)\s+(?:(?:have\s+|had\s+)?(?:decided|chose|selected|picked)\s+(?:to\s+)?|went with\s+|opted\s+(?:to|for)\s+|settled on\s+)(.{3,200})/i,
    capture: 1,
  },
  {
    family: 'labelled',
    category: 'architecture',
    // "Approach: …" opening a line states the way chosen; inside a sentence ("a better approach would be") it muses.
    pattern: /^[ \t]*(?:[-*•][ \t]+|\d{1,2}[.)][ \t]+)?(?:\*\*|__)?(?:(?:our|the|my|chosen|final)[ \t]+)?(?:approach|strategy|solution)(?:\*\*|__)?[ \t]*[:：][ \t]*(?:\*\*|__)?[ \t]*(\S.{2,200})/im,
    capture: 1,
    supersedes: 'approach',
  },
  {
    family: 'architectural',
    category: 'architecture',
    // The whole match: "using SQLite for local storage" says more than "SQLite".
    pattern: /\b(?:using|chose|selected)\s+\w+\s+(?:for|as|instead of)\s+.{5,100}/i,
    capture: 0,
  },
  {
    family: 'rationale',
    category: 'rationale',
    pattern: /\b(?:because|since|the reason is)\s+(.{10,150})/i,
    capture: 1,
  },
  {
    family: 'approach',
    category: 'architecture',
    pattern: /\b(?:approach|strategy|solution)(?::\s*|\s+)(.{10,150})/i,
    capture: 1,
  },
];

/**
 * Sentences of a text: split after `.`, `!` or `?` followed by whitespace.
 *
 * @param text - prose.
 */
export function splitSentences(text: string): string[] {
  return splitAfterStops(text, false);
}

/** A high surrogate without its pair at the end of a capture. */
const SPLIT_TAIL = /[\uD800-\uDBFF]$/;

function tidy(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** Options of {@link extractDecisions}. */
export interface DecisionOptions {
  /**
   * How many distinct decisions to return at most.
   * @default 50
   */
  max: number;
  /**
   * The families read; the others are skipped (a caller that drops them anyway saves their scan).
   * @default every family
   */
  families?: ReadonlySet<DecisionFamily>;
}

/**
 * Decisions of a text in order, deduped by lowercase text; fenced code is
 * skipped.
 *
 * @param text - sanitized markdown.
 * @param options - see {@link DecisionOptions}.
 */
export function extractDecisions(text: string, options: Partial<DecisionOptions> = {}): Decision[] {
  const max = options.max ?? 50;
  const decisions: Decision[] = [];
  const families = options.families ? FAMILIES.filter((family) => options.families?.has(family.family)) : FAMILIES;
  if (max <= 0 || families.length === 0) return decisions;
  const seen = new Set<string>();
  const prose = text.includes('```') || text.includes('~~~') ? stripFencedCode(text) : text;
  for (const sentence of splitSentences(prose)) {
    const skipped = new Set<DecisionFamily>();
    for (const family of families) {
      if (skipped.has(family.family)) continue;
      const match = family.pattern.exec(sentence);
      if (!match) continue;
      if (family.supersedes) skipped.add(family.supersedes);
      // The length bounds count code units, so a capture may end in half of a character.
      const found = tidy(match[family.capture] ?? match[0]).replace(SPLIT_TAIL, '').replace(/[.!?]+$/, '');
      const key = found.toLowerCase();
      if (found.length === 0 || seen.has(key)) continue;
      seen.add(key);
      decisions.push({
        family: family.family,
        category: family.category,
        text: found,
        context: capChars(tidy(sentence), MAX_CONTEXT_CHARS),
      });
      if (decisions.length >= max) return decisions;
    }
  }
  return decisions;
}
