/**
 * The conversation-wide pass over prose findings: decisions ranked, near
 * repeats merged and capped; notes reduced to what is still live (the latest
 * requests and the steps stated after them, problems once each).
 */
import type { Decision } from '../decisions/decisions.js';
import { DECISION_THRESHOLD, FILL_THRESHOLD } from '../decisions/prose-decisions.js';
import type { Observation } from '../observations.js';
import { EMPTY_REPLY_ID, noteKey } from '../notes/prose-notes.js';
import { TODO_CLOSED } from '../notes/todos.js';
import { CARRIED_PREFIX, INTENT_PREFIX, REQUEST_PREFIX, STEP_PREFIX, TODO_PREFIX } from '../notes/note-ids.js';
import { collapseAttempts } from '../decisions/decision-attempts.js';
import { withEditedFiles } from '../decisions/work-decisions.js';
import { restatementPenalty, withoutUndoneCommits } from '../decisions/decision-provenance.js';
import { supersededStatements } from '../decisions/decision-restatements.js';
import { rememberedByText } from '../../text/remembered.js';
import { decisionWords as words, NEAR_REPEAT, overlap } from '../decisions/decision-words.js';
import { fillFromTurnReports } from '../decisions/turn-reports.js';
import { CONFIRMED_BONUS, editedNames, laterWork, reach, reportsTurn, REVERSAL_BONUS, reverses, type DecisionEvidence } from '../decisions/decision-evidence.js';

export type { DecisionEvidence } from '../decisions/decision-evidence.js';

/** Most decisions one message may place in the final list: a session decides at several points. */
export const MAX_DECISIONS_PER_MESSAGE = 2;
/** Most from a prior compaction summary: it condenses many messages. */
export const MAX_DECISIONS_PER_SUMMARY = 5;
/** Most decisions kept in all: a session has a handful of real ones, and each extra one is noise. */
export const MAX_SESSION_DECISIONS = 8;
/** Below this many decisions above the threshold, weaker ones fill the list up to it. */
export const MIN_SESSION_DECISIONS = 4;
/** Decisions considered for near-repeat merging at most (the best-scored ones). */
const MAX_CANDIDATES = 200;
/** User requests kept as in-progress work: the last ones. */
export const MAX_REQUESTS = 2;
/** Next steps kept in all. */
export const MAX_STEPS = 4;
/** Problems described in prose passed on to be ranked with the tools' ones: the latest. */
export const MAX_PROSE_PROBLEMS = 40;
/**
 * What the assistant last said it was doing, when the conversation stops right there: its latest intent
 * note, if no request, stated step or todo list came at or after it.
 */
function liveIntent(notes: readonly Observation[], after: number): Observation[] {
  let latest: Observation | undefined;
  for (const item of notes) if (item.id.startsWith(INTENT_PREFIX) && (!latest || item.order >= latest.order)) latest = item;
  return latest && latest.order > after ? [latest] : [];
}

/** Empty assistant replies from which the model is reported as stalled: one is an interrupted turn. */
export const MIN_EMPTY_REPLIES = 3;
/** Open items of the latest todo list kept: what is in progress, then the first pending ones. */
export const MAX_TODOS = 4;

/**
 * The open items of the latest todo list, at most {@link MAX_TODOS}: a list the agent keeps is
 * the plainest statement of what is in progress. When the user asked for something after it, only
 * its item in progress is still live.
 */
function liveTodos(notes: readonly Observation[], lastRequest: number): Observation[] {
  let latest = -1;
  for (const item of notes) if (item.id.startsWith(TODO_PREFIX) && item.order > latest) latest = item.order;
  if (latest === -1) return [];
  const open = notes.filter((item) => item.order === latest && item.id.startsWith(TODO_PREFIX) && !item.id.endsWith(`:${TODO_CLOSED}`));
  return (latest < lastRequest ? open.filter((item) => item.text.startsWith('in progress')) : open).slice(0, MAX_TODOS);
}

/** Requests whose words are remembered: the window's requests, with room to spare (decisions' words are remembered in decision-words.ts). */
const REMEMBERED_REQUESTS = 4_096;

/** Words of a request that say nothing about its subject, in the languages with cue sets. */
const REQUEST_STOP_WORDS: ReadonlySet<string> = new Set(
  (
    'the and for that this with can could should would isnt isn dont don what there look into add everything update ' +
    'things changed change lets let make sure want need please also just now how does when then from have has are was ' +
    'but not you your our all any some code file files fix implement plan done asked still more like well good okay ' +
    'que para con los las del una por como esto esta está pero más hay hacer quiero tengo ahora todo ' +
    'und die der das ist nicht mit ich wir bitte auch les des est pas une pour avec dans não uma com por isso ' +
    'это что как для все всё нужно надо сделать пожалуйста также если есть чтобы при или тоже ' +
    'jest się nie że jak dla wszystko trzeba zrób proszę także jeśli żeby przy lub też'
  ).split(' '),
);

const requestWords = rememberedByText((text: string): readonly string[] => {
  const found = new Set<string>();
  for (const word of text.toLowerCase().slice(0, 600).split(/[^\p{L}\p{N}]+/u)) {
    if (word.length >= 3 && !REQUEST_STOP_WORDS.has(word) && !/^\d+$/.test(word)) found.add(word);
  }
  return [...found].slice(0, 40);
}, REMEMBERED_REQUESTS);

/**
 * The user's latest request before the message at `order`, if any: a binary search, since a long session
 * asks this for many candidates.
 *
 * @param requests - sorted by order.
 */
function requestBefore<R extends { order: number }>(order: number, requests: readonly R[]): R | undefined {
  let low = 0;
  let high = requests.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if ((requests[middle]?.order ?? Infinity) < order) low = middle + 1;
    else high = middle;
  }
  return low > 0 ? requests[low - 1] : undefined;
}

/** The order of the user's latest request before a decision, -1 when there is none. */
function requestOrderBefore(decision: Decision, requests: ReadonlyArray<{ order: number }>): number {
  return requestBefore(decision.order ?? -1, requests)?.order ?? -1;
}

/** How much a decision answers the user's latest request before it: shared subject words. */
function requestSupport(decision: Decision, requests: ReadonlyArray<{ order: number; words: readonly string[] }>): number {
  if (decision.order === undefined) return 0;
  const request = requestBefore(decision.order, requests);
  if (!request) return 0;
  const text = `${decision.text} ${decision.context}`.toLowerCase();
  let shared = 0;
  for (const word of request.words) if (text.includes(word)) shared++;
  return shared >= 2 ? 1.5 : shared === 1 ? 1 : 0;
}

/**
 * Decisions ranked by score (a decision without one ranks at the threshold of prose decisions),
 * exact and near repeats merged (the better one wins), at most {@link MAX_DECISIONS_PER_MESSAGE}
 * from one message and `max` (at most {@link MAX_SESSION_DECISIONS}) in all, returned in
 * conversation order.
 *
 * A decision that answers the user's latest request before it (shares its subject words) ranks higher:
 * what the user asked about is what the session decided. One that restates a commit the transcript
 * records (a report line right after it, a later summary's item) ranks lower (see `restatementPenalty`).
 *
 * @param decisions - every message's decisions, oldest first.
 * @param max - the caller's cap.
 * @param notes - the messages' notes, oldest first; the user's requests among them are read.
 * @param evidence - what the session edited: a proposal no later edit carries out is dropped, and a
 *   decision that a later edit of what it names confirms, or that an edit follows right away, ranks higher.
 */
export function rankDecisions(
  decisions: readonly Decision[],
  max: number,
  notes: readonly Observation[] = [],
  evidence: DecisionEvidence = { files: [], signals: [] },
): Decision[] {
  const limit = Math.min(max, MAX_SESSION_DECISIONS);
  if (limit <= 0) return [];
  const requests = notes
    .filter((item) => item.id.startsWith(REQUEST_PREFIX))
    .map((item) => ({ order: item.order, words: requestWords(item.text.replace(/^asked: /, '')) }))
    .sort((a, b) => a.order - b.order);
  const edited = editedNames(evidence);
  const indexed: Array<{ decision: Decision; index: number; score: number }> = [];
  // Lines that close a turn below a decision's marks only fill what the stated decisions leave (see `fillFromTurnReports`).
  const stated = decisions.filter((decision) => !decision.closing);
  const collapsed = collapseAttempts(withoutUndoneCommits(stated), requests.map((request) => request.order));
  // A session that commits after every step has more commits than the list holds, each at a commit's worth:
  // then their size orders them, so the feature commit is not lost to its follow-up one-line fixes.
  const commits = collapsed.reduce((count, decision) => count + (decision.commitSize === undefined ? 0 : 1), 0);
  const sized = commits > limit;
  const restates = restatementPenalty(collapsed);
  for (const [index, decision] of collapsed.entries()) {
    const found = laterWork(decision, edited);
    // A proposal no later edit of what it names carried out was not decided: a plan step, a finding, advice never acted on.
    if (decision.proposed && found !== 'confirmed') continue;
    const weak = (decision.score ?? 3.5) < FILL_THRESHOLD;
    // A weak report of what its turn just edited ("Updated main.cpp so …" right after that edit) is borne out
    // by those edits as by a later one.
    const later = weak && found !== 'confirmed' && !decision.proposed && reportsTurn(decision, edited, requestOrderBefore(decision, requests)) ? 'confirmed' : found;
    // A weak candidate (narration of a step) counts only once later work on what it names bears it out.
    if (weak && later !== 'confirmed') continue;
    // A proposal carried out survives below the report of the same work; what the session says it does, then does, ranks higher.
    const evidenceScore = decision.family === 'deleted' ? (reverses(decision, edited) ? REVERSAL_BONUS : 0)
      : decision.proposed ? -CONFIRMED_BONUS
      : later === 'none' ? 0 : CONFIRMED_BONUS;
    const score = (decision.score ?? 3.5) + requestSupport(decision, requests) + evidenceScore + (decision.family === 'deleted' ? 0 : reach(decision, edited)) + (sized ? decision.commitSize ?? 0 : 0) - restates(decision);
    indexed.push({ decision, index, score });
  }
  indexed.sort((a, b) => b.score - a.score || b.index - a.index);
  const candidates = indexed.slice(0, MAX_CANDIDATES).map((candidate) => ({ ...candidate, words: words(candidate.decision.text) }));
  const kept: Array<{ decision: Decision; index: number; words: ReadonlySet<string> }> = [];
  const perMessage = new Map<number, number>();
  /** Changes passed over only because their message had placed its share. */
  const capped: typeof candidates = [];
  // A completed todo item only fills a session whose prose states few decisions: when the prose reports
  // the work, it says the same better, and todo items would displace its decisions.
  // A plan step or finding that a later report of the same change names again is a fragment of it.
  const superseded = new Set([...supersededStatements(candidates.map((candidate) => candidate.decision))].map((index) => candidates[index]?.decision));
  // What the reasoning settled before an edit fills last, after the lines that close a turn: those report the work
  // done, the reasoning states it as a step about to be taken.
  const ordered = [
    ...candidates.filter((candidate) => candidate.decision.family !== 'todo' && candidate.decision.family !== 'thought'),
    ...candidates.filter((candidate) => candidate.decision.family === 'todo'),
  ];
  const thoughts = candidates.filter((candidate) => candidate.decision.family === 'thought');
  for (const candidate of ordered) {
    if (superseded.has(candidate.decision)) continue;
    if (kept.length >= limit || (candidate.decision.family === 'todo' && kept.length >= Math.min(limit, MIN_SESSION_DECISIONS))) break;
    // Weaker candidates only fill a session whose prose holds few clear decisions (a terse, narrated one);
    // the list is two runs, each best first, so a weak one skips to the todo items rather than ends the loop.
    if (candidate.score < FILL_THRESHOLD || (candidate.score < DECISION_THRESHOLD && kept.length >= Math.min(limit, MIN_SESSION_DECISIONS))) continue;
    const own = candidate.words;
    if (kept.some((other) => overlap(own, other.words) >= NEAR_REPEAT)) continue;
    // A deletion the prose also states is said better there, with its reason.
    if (candidate.decision.family === 'deleted' && candidates.some((other) => other.decision.family !== 'deleted' && other.score >= FILL_THRESHOLD && overlap(own, other.words) >= NEAR_REPEAT)) continue;
    const message = candidate.decision.order ?? -1 - candidate.index;
    const count = perMessage.get(message) ?? 0;
    if (count >= (candidate.decision.family === 'carried' ? MAX_DECISIONS_PER_SUMMARY : MAX_DECISIONS_PER_MESSAGE)) {
      if (candidate.decision.family === 'change') capped.push(candidate);
      continue;
    }
    perMessage.set(message, count + 1);
    kept.push({ decision: candidate.decision, index: candidate.index, words: own });
  }
  // A session with room left keeps the further changes of a message that reported several (a thin session's
  // one report lists the work of the whole request); a summary's items already have their own, larger cap.
  for (const candidate of capped) {
    if (kept.length >= limit) break;
    if (kept.some((other) => overlap(candidate.words, other.words) >= NEAR_REPEAT)) continue;
    kept.push({ decision: candidate.decision, index: candidate.index, words: candidate.words });
  }
  fillFromTurnReports(kept, decisions.filter((decision) => decision.closing), Math.min(limit, MIN_SESSION_DECISIONS), collapsed, (decision) => {
    if (laterWork(decision, edited) === 'confirmed') return true;
    return reportsTurn(decision, edited, requestOrderBefore(decision, requests));
  });
  for (const candidate of thoughts) {
    if (kept.length >= Math.min(limit, MIN_SESSION_DECISIONS)) break;
    if (candidate.score < FILL_THRESHOLD || kept.some((other) => overlap(candidate.words, other.words) >= NEAR_REPEAT)) continue;
    if (kept.some((other) => other.decision.order === candidate.decision.order)) continue;
    kept.push({ decision: candidate.decision, index: candidate.index, words: candidate.words });
  }
  return kept.sort((a, b) => a.index - b.index).map((entry) => withEditedFiles(entry.decision, editedFor(entry.decision, requests, evidence.files)));
}

/** Edits read back from a decision's message for the files it went into. */
const MAX_EDITS_READ = 8;

/**
 * The files edited or written for a decision, latest first: from its message back to the user's request it
 * answers (the edits of the turn its report sums up), at most {@link MAX_EDITS_READ}.
 */
function editedFor(decision: Decision, requests: ReadonlyArray<{ order: number }>, files: DecisionEvidence['files']): string[] {
  const order = decision.order;
  if (order === undefined || decision.family !== 'change') return [];
  const since = requestOrderBefore(decision, requests);
  const paths: string[] = [];
  for (let at = files.length - 1; at >= 0 && paths.length < MAX_EDITS_READ; at--) {
    const touch = files[at];
    if (!touch || touch.order > order) continue;
    if (touch.order <= since) break;
    if (touch.action === 'edit' || touch.action === 'write') paths.push(touch.path);
  }
  return paths;
}

/**
 * Prose notes reduced to what is live: the last {@link MAX_REQUESTS} user requests, the next steps
 * stated after the latest of them (and those of the latest message that stated any), steps carried from the latest
 * compaction summary, and problems merged by their first words; other notes pass through.
 *
 * @param notes - every message's notes, oldest first.
 */
export function liveNotes(notes: readonly Observation[]): Observation[] {
  const requests = notes.filter((item) => item.id.startsWith(REQUEST_PREFIX)).slice(-MAX_REQUESTS);
  // Steps stated before the latest request were answered by it, or overtaken.
  const since = requests.at(-1)?.order ?? -1;
  const steps = notes.filter((item) => item.id.startsWith(STEP_PREFIX));
  const lastStepOrder = steps.at(-1)?.order ?? -1;
  const liveSteps = steps.filter((item) => item.order >= since || item.order === lastStepOrder);
  const carried = notes.filter((item) => item.id.startsWith(CARRIED_PREFIX));
  const lastCarried = carried.at(-1)?.order ?? -1;
  const todos = liveTodos(notes, since);
  const next = [...requests, ...liveSteps.slice(-MAX_STEPS), ...carried.filter((item) => item.order === lastCarried)]
    .slice(-(MAX_STEPS + MAX_REQUESTS))
    .concat(todos, liveIntent(notes, Math.max(since, lastStepOrder, todos.at(-1)?.order ?? -1)))
    .sort((a, b) => a.order - b.order);
  const problems = new Map<string, Observation>();
  const empty = notes.filter((item) => item.id === EMPTY_REPLY_ID);
  if (empty.length >= MIN_EMPTY_REPLIES) {
    const last = empty.at(-1)?.order ?? 0;
    problems.set(EMPTY_REPLY_ID, { id: EMPTY_REPLY_ID, type: 'problem', text: `the model stalled: ${empty.length} empty replies (no text, no tool call), the last at message ${last + 1}`, order: last, frequency: empty.length });
  }
  for (const item of notes) {
    if (item.type !== 'problem' || item.id === EMPTY_REPLY_ID) continue;
    const key = noteKey(item.text).slice(0, 48);
    const known = problems.get(key);
    problems.set(key, known ? { ...known, order: Math.max(known.order, item.order), frequency: known.frequency + 1 } : item);
  }
  const other = notes.filter((item) => item.type !== 'problem' && !item.id.startsWith('next:'));
  return [...next, ...[...problems.values()].slice(-MAX_PROSE_PROBLEMS), ...other];
}
