/**
 * Decisions from the prose of an assistant message, read as an engineer reads
 * a report: a change verb with an object ("replaced X with Y", "instead of",
 * "X → Y"), weighed up when it sits under a summary-shaped heading or lead-in
 * (Summary, Changes, Fixes applied, Key decisions) or in a prior compaction
 * summary, and down when it is a question, an offer or a hedge. What heading
 * an item sits under is read in decision-headings.ts; where the message comes
 * from, and whether an item proposes rather than reports, in decision-source.ts.
 */
import type { Decision } from './decisions.js';
import { cutAtBoundary } from '../../text/boundary-cut.js';
import type { CueMatchers } from '../../text/cues/cues.js';
import type { ProseItem } from '../prose/prose-items.js';
import { headingKind, labelKind, type LabelCache } from '../prose/decision-headings.js';
import { isProposal, type DecisionSource } from './decision-source.js';
import { decisionNoise } from './decision-noise.js';
import { afterStates, arrowToDone, beforeState, changeTable, ownChange, replacementListsOf, tablesOf, ticked, verifies, withDetails } from '../prose/report-shapes.js';

/** Questions from which a message waits on the user's answers rather than settles anything. */
const MIN_OPEN_QUESTIONS = 2;
/** Cap on a decision's text: one line of the context. */
export const MAX_DECISION_TEXT_CHARS = 120;
/** Cap on its context: the lead-in and the whole item. */
export const MAX_DECISION_CONTEXT_CHARS = 320;
/** Score from which an item is a decision. */
export const DECISION_THRESHOLD = 3.5;
/** Score from which an item may fill a session that has few decisions above the threshold. */
export const FILL_THRESHOLD = 3;
/** What reporting an outcome rather than a change costs: below a choice with the same cues, a status line only fills. */
export const VERIFICATION_PENALTY = 2;
/** Score from which an item is kept as a candidate: later work that carries it out may raise it to the others. */
export const CANDIDATE_THRESHOLD = 2.5;

/**
 * Something a change applies to: inline code, a path or file name, an identifier written
 * as code (camelCase, snake_case, a call), a version number or a CSS custom property.
 */
const CODE_OBJECT =
  /`[^`\n]{1,120}`|[\w-]{1,80}\.[a-z]{1,6}\b|\b[a-z]{1,40}[A-Z][\w]{0,60}|\b[A-Z][a-z]{1,30}[A-Z]\w{0,60}|\b[a-z0-9]{1,40}_[\w]{1,60}|\w{1,60}\(\)|\b\d{1,4}\.\d{1,4}(?:\.\d{1,4})?\b|--[a-z][\w-]{1,60}|\/[\w-]{1,60}\/[\w./-]{0,120}/;

/** How long a decision's text may grow when its first {@link MAX_DECISION_TEXT_CHARS} characters hold only a lead-in. */
export const MAX_DECISION_REACH_CHARS = 200;

/**
 * A decision's text cut to about `max` characters at a sentence or clause boundary (see `cutAtBoundary`):
 * a reason or condition that opens it ("Since …, ") is never all that is kept of it.
 */
export function shorten(text: string, max: number): string {
  return cutAtBoundary(text, max, { reach: Math.max(max, MAX_DECISION_REACH_CHARS) });
}

/** Items that are never decisions: questions, and offers or conditions. */
function isQuestion(text: string): boolean {
  return /[?？](?:\s|$)/.test(text) || /^(?:¿|want me|shall i|should i|do you|would you)/i.test(text);
}

/** An item that opens with "also": an add-on beside the change that mattered. */
const ASIDE = /^(?:also|additionally|plus|además|también|außerdem|auch|aussi|de plus|também|另外|此外|また)(?![\p{L}])/iu;

/** The low end of a finding list: what the list itself says matters least. */
// Optional as a label ranks a finding low; inside a sentence ("made the field optional") it is the change itself.
const LOW_PRIORITY = /^(?:medium|low|minor|p[2-4]|nice[- ]to[- ]have|optional|opcional|optionnel|could)(?:\s+priority)?\s*(?:[:：—–-]|$)/i;

/**
 * A status line: work counted in generic units said to be done ("All 10 phases have been implemented",
 * "Critical issues were fixed"). It names no change; the items it counts do.
 */
const STATUS_LINE =
  /^(?:all|both|every|the|most)?\s*(?:\d{1,4}\s+)?(?:of the\s+)?(?:[\p{L}-]{1,20}\s+){0,2}(?:phases?|issues?|changes|tasks?|fixes|steps?|items?|bugs?|tests?|requirements?|todos?|findings?|waves?|everything)\b[^.;]{0,60}?\b(?:were|was|have been|has been|are|is)\s+(?:now\s+|all\s+)?(?:fixed|implemented|applied|done|complete|completed|resolved|addressed|passing|green|finished|in place)\b/iu;

/** A sentence that explains when something happens ("X → Y only if …") rather than what was changed. */
const CONDITION = /(?<![\p{L}])(?:only if|if|unless|whenever|when|depends on|si|wenn|falls|se|如果|場合)(?![\p{L}])/iu;
/** A sentence that gives an example: its arrow maps a sample input to its output ("e.g. PaO2=80 → 80 mmHg"). */
const EXAMPLE = /(?<![\p{L}])(?:e\.g\.|for example|for instance|por ejemplo|p\. ?ej\.|zum beispiel|z\. ?b\.|par exemple|por exemplo)|比如|例如|譬如|例えば|たとえば/iu;
const ARROWS = /→|->|=>/g;

/** A file path or name: what a bare file operation names. */
const FILE_NAME = String.raw`[\w./-]{1,120}\.[a-z]{1,6}`;
/**
 * An item that says only that files were created or updated ("Update header.php (hamburger button)", "Services/X.swift
 * created.", "ゲーム (game.py) の作成"): it names where the work went, not what was chosen there.
 */
const MAX_BARE_OPERATION_CHARS = 240;
const BARE_FILE_OPERATION = new RegExp(
  String.raw`^(?:[✅✔☑]\s*)?(?:` +
    String.raw`(?:create|created|update|updated|add|added|write|wrote|edit|edited|modify|modified|crear|actualizar|creado|actualizado)\s+(?:the\s+|new\s+)?${FILE_NAME}(?:(?:\s*[+,]\s*|\s+(?:and|y)\s+)${FILE_NAME}){0,4}` +
    String.raw`|${FILE_NAME}\s+(?:created|updated|added|written)` +
    String.raw`|[^\s()]{1,40}\s*\(${FILE_NAME}\)\s*の(?:作成|更新)` +
  String.raw`)(?:\s*\([^()]{0,60}\))?[.。]?` +
    '$',
  'iu',
);

/** Whether some arrow in the text has code (a name, a value, a path) as the word right before it and right after it. */
function arrowBetweenCode(text: string): boolean {
  for (const match of text.slice(0, 400).matchAll(ARROWS)) {
    const at = match.index ?? 0;
    const before = text.slice(Math.max(0, at - 40), at).trimEnd();
    const after = text.slice(at + match[0].length, at + match[0].length + 40);
    // The old state is the word right before the arrow: a plain word there ("routes locked → LockView",
    // "duplicate → ConflictException") names a case mapped to its outcome, not a value that changed.
    if (CODE_OBJECT.test(before.slice(before.lastIndexOf(' ') + 1)) && CODE_OBJECT.test(after)) return true;
  }
  return false;
}

/** Whether an item cannot be a decision whatever its words: see each test. */
function neverDecides(item: ProseItem, cues: CueMatchers, last: boolean, thinking: boolean): boolean {
  const { text } = item;
  // The old state of a before/after pair is what the change replaced.
  if (text.length < 12 || isQuestion(text) || item.label || beforeState(item)) return true;
  // An item ending with a colon announces what follows; it decides nothing by itself, unless a tool call follows it
  // (in reasoning, the message's edits always do).
  if (/[:：]$/.test(text) && item.announced === 0 && !last && !thinking) return true;
  // A plan, a step of reasoning or an item marked failed has a decision's words, not a decision; in reasoning
  // before the message's own edits, what the model says it will do is what they do.
  const noise = decisionNoise(text, cues);
  if (noise !== null && !(thinking && noise === 'intention')) return true;
  // A row that only points at the one above ("Same", "Likewise") says nothing of its own.
  return /[—:]\s*(?:same|ditto|likewise|idem|igual|dito|同上)\.?$/i.test(text);
}

/** Lines of one turn-closing message read as candidates to fill a thin session: its first ones. */
const MAX_TURN_REPORT_CANDIDATES = 4;

/** A part named, then what it is or does ("TransactionService: syncs the balance", "eda.park_totals — runs per park"). */
const NAMED_PART = /^[^\s:：—–][^:：—–]{0,59}\s?[:：—–]\s+\S/u;
/** Characters from which an item names a part and says what it does. */
const MIN_INVENTORY_CHARS = 24;

/**
 * Whether an item is a line of an inventory of what was built: a list item or row that names a part and says what it
 * is or does, with no change word in any language, under no heading of plans, problems or next steps.
 */
function inventoryLine(item: ProseItem, cues: CueMatchers, cache: LabelCache): boolean {
  if ((item.kind !== 'bullet' && item.kind !== 'row') || item.text.length < MIN_INVENTORY_CHARS || !NAMED_PART.test(item.text)) return false;
  if (headingKind(item, cues, cache) !== null) return false;
  return !cues.change.test(item.text) && !cues.weakChange.test(item.text) && !cues.verified.test(item.text) && !cues.hedge.test(item.text);
}

/**
 * Whether a line of the message that closes a turn (see `DecisionSource.closing`; never a summary's) reports the
 * turn's work without a decision's marks: a change it states too plainly to rank ("Rewrote the README as a
 * getting-started guide."), or a line of an inventory of what was built. Such a line fills a session whose prose
 * states few decisions, and only where the turn's own edits name it (see `fillFromTurnReports`).
 *
 * @param item - an item {@link neverDecides} let through.
 * @param score - its score as a decision, below {@link CANDIDATE_THRESHOLD}.
 */
function turnReportLine(item: ProseItem, score: number, cues: CueMatchers, cache: LabelCache): boolean {
  // A cleanup or a check's outcome is below a decision's marks for what it is, not for how plainly it is said.
  if (score > 0) return (cues.change.test(item.text) || cues.weakChange.test(item.text)) && !cues.minor.test(item.text) && !cues.verified.test(item.text);
  return inventoryLine(item, cues, cache);
}

/**
 * How strongly an item reads as a decision; below {@link DECISION_THRESHOLD} it is not one.
 *
 * @param item - one item of an assistant message.
 * @param cues - the cue matchers of the message's language.
 * @param source - whether the message is a prior compaction summary, a report of work done, or edits files.
 * @param last - whether it is the message's last item (a tool call may follow it).
 * @param cache - heading kinds already classified in this message.
 */
export function decisionScore(item: ProseItem, cues: CueMatchers, source: DecisionSource, last = false, cache?: LabelCache): number {
  return neverDecides(item, cues, last, source.thinking === true) ? 0 : marksScore(item, cues, source, cache);
}

/** {@link decisionScore} of an item that {@link neverDecides} let through: what its words and shape weigh. */
function marksScore(item: ProseItem, cues: CueMatchers, source: DecisionSource, cache?: LabelCache): number {
  const { text } = item;
  const kind = headingKind(item, cues, cache);
  // What comes next, what went wrong and what was asked for (an objective, the task) are not what was decided.
  if (kind === 'next' || kind === 'problem' || kind === 'goal') return 0;
  // An arrow in a sentence that states a condition maps cases to outcomes; it changes nothing.
  let strong = cues.change.test(text);
  // An arrow documents a change between two names or values ("16.2.4 → 15.2.4"); between words, or in an example, it maps cases to outcomes.
  if (strong && !cues.change.test(text.replace(ARROWS, ' ')) && (CONDITION.test(text) || EXAMPLE.test(text) || !arrowBetweenCode(text)) && !arrowToDone(text, cues)) strong = false;
  // A row of a table of changes and an item ticked as done report a change by their shape, verb or not.
  const own = item.kind === 'sentence' && ownChange(text, cues);
  const weakVerb = !strong && cues.weakChange.test(text);
  // A row of a table of changes reads as its header's verb when it has none of its own ("Menu — hamburger on mobile");
  // an item ticked as done reports a finished change. In a prior compaction summary a ticked list is its progress
  // list (phases, milestones), not changes.
  strong ||= own || (!weakVerb && changeTable(item, cues, cache)) || (!source.summary && ticked(item)) || source.after?.has(item.index) === true;
  const weak = !strong && (weakVerb || changeTable(item, cues, cache));
  if (!strong && !weak && kind !== 'decision') return 0;
  // The code-object scan is the costliest test here: it runs once, and only on items that passed the cues.
  const code = CODE_OBJECT.test(text);
  if (!code && STATUS_LINE.test(text)) return 0;
  if (text.length <= MAX_BARE_OPERATION_CHARS && BARE_FILE_OPERATION.test(text)) return 0;
  // Under a decisions heading, a bare name and gloss ("Strategy Engine: execution framework") outlines a part; it decides nothing.
  if (!strong && !weak && !source.summary && !code) return 0;
  let score = 0;
  if (kind === 'decision') score += 3;
  else if (kind === 'summary') score += 1.5;
  // A prior compaction summary is the densest account of the session.
  if (source.summary) score += 2;
  else if ((source.report || source.edits) && kind === null) score += 1;
  if (strong) score += 2;
  else if (weak) score += 1;
  if (code) score += 1;
  // What the prose says right before the message's edit is what the edit does; a report of one's own finished change is not narration.
  if (item.kind === 'sentence' && kind === null && !own) score -= 0.5;
  // A check's outcome (tests passing, a service answering) says the work held, not what was chosen.
  if (verifies(item, cues, cache)) score -= VERIFICATION_PENALTY;
  // A step announced for the tool call that follows ("Now I rewrite x.py to …:") narrates the action; the edit is the fact.
  if (/[:：]$/.test(text) && item.announced === 0) score -= 0.5;
  // A change with its reason ("…so the tick survives", "…para no crashear") is a choice, not only an action.
  if (cues.purpose.test(text)) score += 1;
  if (cues.hedge.test(text)) score -= 1.5;
  if (LOW_PRIORITY.test(item.lead) || LOW_PRIORITY.test(text.slice(0, 16))) score -= 1;
  // Cleanups (an unused import, a typo) and what a list itself marks low priority are changes, not decisions.
  if (cues.minor.test(text) || cues.minor.test(item.lead)) score -= 1.5;
  if (ASIDE.test(text)) score -= 1;
  return score;
}

/**
 * The decisions of one assistant message, best first.
 *
 * @param items - the message's prose items.
 * @param cues - the cue matchers of the message's language.
 * @param source - see {@link DecisionSource}.
 * @param max - how many to return at most.
 */
export function proseDecisions(items: readonly ProseItem[], cues: CueMatchers, given: DecisionSource, max: number): Decision[] {
  let questions = 0;
  for (const item of items) if (isQuestion(item.text)) questions++;
  const source: DecisionSource = { ...given, asks: given.asks ?? questions >= MIN_OPEN_QUESTIONS, after: given.after ?? afterStates(items) };
  const scored: Array<{ item: ProseItem; score: number }> = [];
  const cache: LabelCache = new Map();
  /** Lines of the message that closes a turn, below a decision's marks: they fill a thin session (see `fillFromTurnReports`). */
  const closing = new Set<ProseItem>();
  const closesTurn = source.closing === true && !source.summary;
  for (const item of items) {
    if (neverDecides(item, cues, item.index === items.length - 1, source.thinking === true)) continue;
    const score = marksScore(item, cues, source, cache);
    if (score >= CANDIDATE_THRESHOLD) scored.push({ item, score });
    else if (closesTurn && closing.size < MAX_TURN_REPORT_CANDIDATES && turnReportLine(item, score, cues, cache)) {
      closing.add(item);
      scored.push({ item, score: CANDIDATE_THRESHOLD });
    }
  }
  // A turn-closing line comes after every stated decision, those of its own score too: it never takes their place.
  scored.sort((a, b) => b.score - a.score || Number(closing.has(a.item)) - Number(closing.has(b.item)) || a.item.index - b.item.index);
  const seen = new Set<string>();
  const decisions: Decision[] = [];
  const tables = tablesOf(items, MAX_DECISION_CONTEXT_CHARS);
  // A list of like renames is one piece of work too, as a change table is.
  const replacements = replacementListsOf(items, MAX_DECISION_CONTEXT_CHARS);
  for (const { item, score } of scored) {
    if (decisions.length >= max) break;
    const key = item.text.toLowerCase();
    // A table of changes reports one piece of work: its best row stands for it, the other rows are its context.
    const table = item.kind === 'row' && changeTable(item, cues, cache) ? tables.get(item.index) : replacements.get(item.index);
    if (seen.has(key) || (table && seen.has(table.key))) continue;
    seen.add(key);
    if (table) seen.add(table.key);
    // The new state of a before/after pair is told by what it is the state of: the section it describes.
    const lead = source.after?.has(item.index) === true && item.section !== '' ? item.section.split(' / ').pop() ?? item.lead : item.lead || item.section;
    const proposed = isProposal(item, cues, source, cache);
    decisions.push({
      ...(proposed ? { proposed } : {}),
      ...(closing.has(item) ? { closing: true as const } : {}),
      family: source.summary ? 'carried' : 'change',
      category: headingKind(item, cues, cache) === 'decision' ? 'architecture' : 'implementation',
      text: shorten(item.text, MAX_DECISION_TEXT_CHARS),
      context: (table ? `${lead}: ${item.text}; ${table.rows}` : lead ? `${lead}: ${item.text}` : ownChange(item.text, cues) ? withDetails(item, items, MAX_DECISION_CONTEXT_CHARS) : item.text).slice(0, MAX_DECISION_CONTEXT_CHARS).replace(/[\uD800-\uDBFF]$/, ''),
      score,
    });
  }
  return decisions;
}
