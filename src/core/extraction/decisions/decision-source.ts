/**
 * Where a message's decision items come from, and what that makes of them:
 * whether the message reports work done, and whether an item proposes rather
 * than reports (a plan step, a review finding with a priority, an instruction
 * in a message that changes nothing). A proposal counts as a decision once a
 * later edit confirms it.
 */
import { literalHint } from '../../text/cues/literal-hint.js';
import type { CueMatchers } from '../../text/cues/cues.js';
import type { LabelCache } from '../prose/decision-headings.js';
import type { ProseItem } from '../prose/prose-items.js';

/** Where the items come from. */
export interface DecisionSource {
  /** The message is a compaction summary the host wrote. */
  summary: boolean;
  /** The message's opening says it reports work done ("Done. Here's a summary…"). */
  report: boolean;
  /** The message puts several questions to the user: what it outlines waits on the answers. */
  asks?: boolean;
  /** The message edits or writes files: what its prose says it changes, it changes. */
  edits: boolean;
  /**
   * The message calls no tool: it ends its turn, and after work it is the account of that work. Set by the
   * per-message pass; a caller that leaves it out reads no line as closing a turn.
   */
  closing?: boolean;
  /** Positions of the items that state the new state of a before/after pair (see `afterStates`). */
  after?: ReadonlySet<number>;
  /**
   * The items are the message's reasoning before its own edits (see thought-decisions.ts): what the model says it
   * will do there is what those edits then do, so an intention is read like any other item.
   */
  thinking?: boolean;
}

/**
 * A review finding's or recommendation's priority as its label ("High: add a pool", "P2 — rename"):
 * the list ranks what could be done, it reports nothing done.
 */
const PRIORITY_LABEL = /^(?:critical|high|medium|low|major|minor|p[0-4]|nice[- ]to[- ]have|optional|must|should|could)(?:\s+priority)?\s*(?:[:：—–-]|$)/i;

function hasPriorityLabel(item: ProseItem): boolean {
  return PRIORITY_LABEL.test(item.lead) || PRIORITY_LABEL.test(item.text.slice(0, 24));
}

/** A short label before an instruction ("Step 2: add …", "Medium: fix …"). */
const LEADING_LABEL = /^[\p{L}\p{N} /-]{1,30}[:：]\s*/u;

/** Whether the item begins with an instruction's verb ("Add a handler", "Editar package.json"). */
function isInstruction(text: string, cues: CueMatchers): boolean {
  const head = text.replace(LEADING_LABEL, '').slice(0, 40);
  return cues.instruction.opens(head);
}

/**
 * A lead-in that says what one is about to check or do, or what will happen ("Want to:", "Let me check what it
 * holds:", "Now the combo will play:", "让我检查一下…:", "Voy a:"): the items under it are options, steps still to
 * take or an expected outcome.
 */
const INTENT = /(?<![\p{L}])(?:want to|would like to|let me|let['’]s|\w+['’]ll|will|going to|i need to|we need to|voy a|vamos a|necesito|tengo que|буду|будем|нужно|давайте|будет|będę|będziemy|trzeba|będzie)(?![\p{L}])|让我|我需要|我要|我们需要|我們需要|してみ/iu;

/** Whether a lead-in states an intent rather than reports; a lead-in that announces a summary ("Let me sum up the changes") reports. */
function intentLead(lead: string, cues: CueMatchers): boolean {
  const head = lead.slice(-160);
  // An offer stays one whatever it offers ("Possible changes:", "Recommended fixes:").
  return OFFERED.test(head) || (INTENT.test(head) && !cues.summaryHeading.test(head));
}

/** A lead-in that offers options or advice ("Possible changes:", "Enfoque recomendado:", "建议:"): what follows is not yet done. */
const OFFERED = /(?<![\p{L}])(?:recommended|recommendations?|possible|options?|alternatives?|suggested|suggestions?|recomendad[oa]s?|posibles?|opciones|alternativas|sugerencias?|possíve(?:l|is)|opções|empfohlen|möglich\w*|optionen|recommandée?s?)(?![\p{L}])|建议|推荐|可选|おすすめ|推奨/iu;

/** An arrow, and the words right after it. */
const ARROW_THEN = /(?:→|->|=>)\s*/g;

/**
 * Whether an arrow in the item leads to an instruction ("lines 72-77: the old array → remove", "X → replace
 * completely"): a plan's map of places to actions, not a change between two values.
 */
function arrowToInstruction(text: string, cues: CueMatchers): boolean {
  for (const match of text.slice(0, 400).matchAll(ARROW_THEN)) {
    const after = text.slice((match.index ?? 0) + match[0].length, (match.index ?? 0) + match[0].length + 40);
    if (cues.instruction.opens(after)) return true;
  }
  return false;
}

/**
 * Whether an item proposes rather than reports: a plan step, a review finding with a priority, a place
 * mapped by an arrow to an action, or an instruction in a message that neither changes files nor reports work done. A proposal counts once a
 * later edit confirms it.
 *
 * @param item - one item of an assistant message.
 * @param cues - the cue matchers of the message's language.
 * @param source - see {@link DecisionSource}.
 * @param cache - heading kinds already classified in this message.
 */
export function isProposal(item: ProseItem, cues: CueMatchers, source: DecisionSource, cache?: LabelCache): boolean {
  if (source.summary) return false;
  if (hasPriorityLabel(item) || arrowToInstruction(item.text, cues)) return true;
  const plan = (item.lead !== '' && (cues.planHeading.test(item.lead) || intentLead(item.lead, cues))) || (item.section !== '' && cues.planHeading.test(item.section));
  if (plan || (source.asks === true && !source.edits && !source.report)) return true;
  // "Use X instead of Y because …" weighs two options and gives the reason: a choice stated, not a step to take.
  if (choiceWithReason(item.text, cues)) return false;
  return !source.edits && !source.report && isInstruction(item.text, cues);
}

/** The option an item sets aside, in the languages with cue sets. */
const SET_ASIDE = /(?<![\p{L}])(?:instead of|rather than|in favou?r of|en lugar de|en vez de|au lieu de|(?:an)?statt|em vez de|ao invés de)(?![\p{L}])|而不是|而非|の代わりに|ではなく/iu;

/** Literals one of which is in every match of {@link SET_ASIDE}. */
const SET_ASIDE_HINT = literalHint(['instead of', 'rather than', 'in favo', 'en lugar de', 'en vez de', 'au lieu de', 'statt', 'em vez de', 'ao invés de', '而不是', '而非', 'の代わりに', 'ではなく']);

/** Whether an item names the option it sets aside and why: "use X instead of Y because Z". */
function choiceWithReason(text: string, cues: CueMatchers): boolean {
  const head = text.slice(0, 400);
  return SET_ASIDE_HINT.mayMatch(head) && SET_ASIDE.test(head) && cues.purpose.test(head);
}

/**
 * Whether the opening of a message says it reports work done: its first line holds a summary cue
 * ("Done. Here's a summary of what changed", "Listo.", "All 10 items implemented").
 *
 * @param items - the message's prose items.
 * @param cues - the cue matchers of the message's language.
 */
export function isReport(items: readonly ProseItem[], cues: CueMatchers): boolean {
  const first = items[0];
  return first !== undefined && first.index === 0 && cues.summaryHeading.test(first.text.slice(0, 120));
}
