/**
 * What the work a session went on to do says about a stated decision: the
 * names its edits, writes and deletions touched, the files it created, and
 * whether a decision's names were edited later or an edit followed it.
 */
import { rememberedByText } from '../../text/remembered.js';
import type { FileTouch } from '../working-set/touches.js';
import type { Decision } from './decisions.js';
import type { Observation } from '../observations.js';

/** What the session went on to do, against which stated decisions and proposals are checked. */
export interface DecisionEvidence {
  /** File touches, as the working set receives them. */
  files: readonly FileTouch[];
  /** Tool signals; the edits among them (`edit:<path>`, `path: removed → added`) name what changed. */
  signals: readonly Observation[];
}

/** Names read from the work done at most: the most recent touches and edits suffice. */
const MAX_EVIDENCE_NAMES = 4_000;
/** Characters of an edit signal read for the names it changed. */
const MAX_EDIT_NAME_CHARS = 240;
/** Messages after a stated step within which an edit carries it out (narration, then the tool call). */
const FOLLOW_UP_MESSAGES = 2;
/** Bonus for a decision a later edit of what it names confirms, and for one an edit follows right away. */
export const CONFIRMED_BONUS = 0.5;
/** Bonus for a decision that introduces a file the session created, and for one that changes several files. */
const NEW_MODULE_BONUS = 1;
const SEVERAL_FILES_BONUS = 0.5;
/** Bonus for deleting a file the session itself wrote or changed before: the approach was dropped. */
export const REVERSAL_BONUS = 1.5;

const NAME_SPLIT = /[^\p{L}\p{N}_$.-]+/u;

/**
 * File names, their stems and identifiers in a text, lowercased: what an edit and a sentence can share.
 */
export function nameTokens(head: string): string[] {
  const names: string[] = [];
  for (const raw of head.split(NAME_SPLIT)) {
    const name = raw.replace(/^[.-]+|[.-]+$/g, '').toLowerCase();
    // A bare number says nothing; a three-part version ("15.2.4") names one release.
    if (name.length < 4 || (/^\d[\d.]*$/.test(name) && !/^\d+\.\d+\.\d+/.test(name))) continue;
    names.push(name);
    const dot = name.lastIndexOf('.');
    if (dot >= 4) names.push(name.slice(0, dot));
  }
  return names;
}

/**
 * {@link nameTokens}, remembered for recent texts: a compaction reads the same edits, touches and decisions again
 * as the session grows, and splitting them with a Unicode expression was a third of ranking the decisions under Bun.
 */
const namesOf = rememberedByText(nameTokens, 8_192);

function namesIn(text: string, into: (name: string) => void): void {
  for (const name of namesOf(text.slice(0, MAX_EDIT_NAME_CHARS))) into(name);
}

/** Latest order at which each name was edited, written or deleted, and the orders of messages that changed files. */
export interface EditedNames {
  /** Latest order at which each name was edited, written or deleted. */
  names: Map<string, number>;
  /** Earliest order at which each file name was written or edited. */
  firstWritten: Map<string, number>;
  /** Orders of the messages that changed files. */
  orders: Set<number>;
  /** File names whose first touch in the session wrote them: files it created. */
  created: Set<string>;
  /** Names of the files the session edited, wrote or deleted. */
  files: Set<string>;
}

export function editedNames(evidence: DecisionEvidence): EditedNames {
  const names = new Map<string, number>();
  const firstWritten = new Map<string, number>();
  const orders = new Set<number>();
  const add = (order: number) => (name: string): void => {
    if (names.size >= MAX_EVIDENCE_NAMES && !names.has(name)) return;
    if ((names.get(name) ?? -1) < order) names.set(name, order);
  };
  for (let index = evidence.files.length - 1; index >= 0; index--) {
    const touch = evidence.files[index] as FileTouch;
    if (touch.action !== 'edit' && touch.action !== 'write' && touch.action !== 'delete') continue;
    orders.add(touch.order);
    const base = (touch.path.split('/').pop() ?? touch.path).toLowerCase();
    namesIn(base, add(touch.order));
    if (touch.action !== 'delete' && (firstWritten.size < MAX_EVIDENCE_NAMES || firstWritten.has(base)) && (firstWritten.get(base) ?? Infinity) > touch.order) firstWritten.set(base, touch.order);
  }
  for (let index = evidence.signals.length - 1; index >= 0; index--) {
    const signal = evidence.signals[index] as Observation;
    if (!signal.id.startsWith('edit:')) continue;
    orders.add(signal.order);
    namesIn(signal.text, add(signal.order));
  }
  const created = new Set<string>();
  const files = new Set<string>();
  const seen = new Set<string>();
  for (const touch of evidence.files) {
    if (touch.action === 'cwd' || seen.size >= MAX_EVIDENCE_NAMES) continue;
    const base = (touch.path.split('/').pop() ?? touch.path).toLowerCase();
    if (touch.action === 'edit' || touch.action === 'write' || touch.action === 'delete') files.add(base);
    if (seen.has(base)) continue;
    seen.add(base);
    if (touch.action === 'write' && !NOT_A_MODULE.test(base)) created.add(base);
  }
  return { names, firstWritten, orders, created, files };
}

/**
 * How much of the work a decision names: a file the session created (a new module) and several
 * files it changed say more than one file's local change.
 */
export function reach(decision: Decision, edited: EditedNames): number {
  let created = false;
  const changed = new Set<string>();
  namesIn(decision.text, (name) => {
    if (edited.created.has(name)) created = true;
    if (edited.files.has(name)) changed.add(name);
  });
  return (created ? NEW_MODULE_BONUS : 0) + (changed.size >= 2 ? SEVERAL_FILES_BONUS : 0);
}

/** Whether a deletion removes a file the session itself created before: an approach it tried, then dropped. */
export function reverses(decision: Decision, edited: EditedNames): boolean {
  const order = decision.order ?? -1;
  for (const raw of decision.text.slice(0, MAX_EDIT_NAME_CHARS).split(/[\s,]+/)) {
    const base = (raw.split('/').pop() ?? raw).toLowerCase();
    if (edited.created.has(base) && (edited.firstWritten.get(base) ?? Infinity) < order) return true;
  }
  return false;
}

/** Files that are not modules: images, fonts, lockfiles, logs and notes. Creating one introduces no component. */
const NOT_A_MODULE = /\.(?:svg|png|jpe?g|gif|ico|webp|bmp|woff2?|ttf|otf|lock|log|txt|md|csv)$/;

/**
 * How later work bears on a decision: `confirmed` when a later message edited something it names,
 * `followed` when an edit came within {@link FOLLOW_UP_MESSAGES} messages after it, else `none`.
 */
export function laterWork(decision: Decision, edited: EditedNames): 'confirmed' | 'followed' | 'none' {
  const order = decision.order;
  if (order === undefined) return 'none';
  let confirmed = false;
  namesIn(decision.text, (name) => {
    const last = edited.names.get(name);
    if (last === undefined) return;
    if (last > order) confirmed = true;
  });
  if (confirmed) return 'confirmed';
  for (let step = 1; step <= FOLLOW_UP_MESSAGES; step++) if (edited.orders.has(order + step)) return 'followed';
  return 'none';
}

/**
 * Whether a decision reports the edits of its own turn: it names a file whose latest edit came after the
 * request it answers and before its message ("Updated main.cpp so each run appends a line" in the message
 * after the edit of main.cpp). Such a report stands like one a later edit confirms; a sentence in the very
 * message of the edit narrates the step.
 *
 * @param since - the order of the user's request before the decision, -1 when there is none.
 */
export function reportsTurn(decision: Decision, edited: EditedNames, since: number): boolean {
  const order = decision.order;
  if (order === undefined) return false;
  let reported = false;
  namesIn(decision.text, (name) => {
    const last = edited.names.get(name);
    if (last !== undefined && last > since && last < order) reported = true;
  });
  return reported;
}
