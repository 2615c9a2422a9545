/**
 * Decisions the model settles in its reasoning right before the edits of the
 * same message: "I'll add a null check to `SpawnDamagePopup` and log a
 * warning", then the edit of the file that holds it. The prose of such a
 * message often says only "Now the controller:"; the choice and its reason are
 * in the reasoning. An intention there is read like a report, but only when
 * the message's own edits or writes change a name it gives (a file, or an
 * identifier written as code): reasoning that weighs options, or plans what
 * comes later, names nothing those edits touched.
 */
import type { Decision } from './decisions.js';
import { INTENTION } from './decision-noise.js';
import { editedNames, nameTokens } from './decision-evidence.js';
import { proseDecisions, MAX_DECISION_TEXT_CHARS, shorten } from './prose-decisions.js';
import { proseItems } from '../prose/prose-items.js';
import { detectLanguage } from '../../text/language.js';
import { decisionCuesFor } from '../../text/cues/cues.js';
import { sanitizeText } from '../../text/sanitize.js';
import type { FileTouch } from '../working-set/touches.js';
import type { Observation } from '../observations.js';

/** Decisions one message's reasoning gives at most: its edits carry out one or two choices. */
export const MAX_THOUGHT_DECISIONS = 2;

/**
 * A name written as code: inline code, a file name, a dotted or snake_case name, camelCase or PascalCase
 * with an inner capital, a call. A plain word ("return", "check") is in most edits and confirms nothing.
 */
const CODE_NAME = /`([^`\n]{2,80})`|\b[\w-]{1,60}\.[a-z]{1,6}\b|\b[a-z]{1,40}[A-Z]\w{0,60}|\b[A-Z][a-z]{1,30}[A-Z]\w{0,60}|\b[A-Za-z0-9]{1,40}_\w{1,60}|\b\w{2,60}(?=\()/g;

/** What opens a sentence before its intention: "So I'll …", "Now, let me …", "Okay — I need to …". */
const OPENER = /^(?:so|now|ok(?:ay)?|then|first|alright|right|good|great|actually|ahora|entonces|bien|vale|also)\b[\s,—–-]*/iu;

/**
 * The change verbs of the cue tables in their English progressive form, with their base form: reasoning
 * often narrates the step it is taking ("I'm updating `main.cpp` so every run …"), which reads as the
 * choice once stated as the step ("Update `main.cpp` so every run …").
 */
const PROGRESSIVE: Readonly<Record<string, string>> = {
  adding: 'add', changing: 'change', cleaning: 'clean', creating: 'create', deleting: 'delete', downgrading: 'downgrade',
  enforcing: 'enforce', fixing: 'fix', installing: 'install', making: 'make', moving: 'move', pinning: 'pin',
  removing: 'remove', renaming: 'rename', replacing: 'replace', rewriting: 'rewrite', setting: 'set',
  splitting: 'split', switching: 'switch', updating: 'update', using: 'use', wrapping: 'wrap', writing: 'write',
};

/** A sentence that opens with the speaker's progressive change ("I'm updating …", "We are switching …"). */
const PROGRESSIVE_OPENING = new RegExp(`(^|[.!?]\\s+|\\n)((?:[-*]\\s+)?)(?:i['’]m|i am|we['’]re|we are)\\s+(${Object.keys(PROGRESSIVE).join('|')})\\b`, 'giu');

/** The reasoning with each progressive change stated as the step (see {@link PROGRESSIVE}). */
function asSteps(text: string): string {
  return text.replace(PROGRESSIVE_OPENING, (_match, before: string, mark: string, verb: string) => {
    const base = PROGRESSIVE[verb.toLowerCase()] ?? verb;
    return `${before}${mark}${base.charAt(0).toUpperCase()}${base.slice(1)}`;
  });
}

/** The code names a text gives, as the evidence names what an edit changed (see `nameTokens`). */
function codeNames(text: string): string[] {
  return [...text.slice(0, 400).matchAll(CODE_NAME)].flatMap((match) => nameTokens((match[1] ?? match[0]).replace(/\(\)$/, '')));
}

/** A short clause before the intention ("For convert.py, I need to …"): kept, the intention after it dropped. */
const LEAD_CLAUSE = /^([^,;:!?]{1,60}),\s*/u;

/**
 * A decision's text without the intention that opens it: "I'll add a null check …" is kept as "Add a null check …",
 * "For convert.py, I need to add …" as "For convert.py, add …": the choice as carried out.
 */
function asCarriedOut(text: string): string {
  const rest = text.replace(OPENER, '');
  const lead = LEAD_CLAUSE.exec(rest);
  const direct = INTENTION.exec(rest);
  const after = direct === null && lead !== null ? INTENTION.exec(rest.slice(lead[0].length)) : null;
  const intention = direct ?? after;
  if (intention === null) return text;
  const choice = rest.slice((after && lead ? lead[0].length : 0) + intention[0].length).replace(/^[\s,:]+/, '').replace(/[:：]$/, '');
  if (choice.length < 12) return text;
  const carried = after && lead ? `${lead[1]}, ${choice}` : `${choice.charAt(0).toUpperCase()}${choice.slice(1)}`;
  return shorten(carried, MAX_DECISION_TEXT_CHARS);
}

/**
 * The decisions of one message's reasoning that its own edits carry out, best first.
 *
 * @param reasoning - the end of the message's reasoning, unsanitized (see `MessageView.reasoning`).
 * @param work - the message's own file touches and tool signals: its edits, writes and deletions.
 * @param order - the message's position in the conversation.
 */
export function thoughtDecisions(reasoning: string, work: { files: readonly FileTouch[]; signals: readonly Observation[] }, order: number): Decision[] {
  const edited = editedNames(work).names;
  if (edited.size === 0) return [];
  const text = asSteps(sanitizeText(reasoning));
  const items = proseItems(text);
  if (items.length === 0) return [];
  const cues = decisionCuesFor(detectLanguage(items.slice(0, 20).map((item) => item.text).join(' ')), text.length);
  const found = proseDecisions(items, cues, { summary: false, report: false, edits: true, closing: false, thinking: true }, MAX_THOUGHT_DECISIONS * 4);
  const kept: Decision[] = [];
  for (const decision of found) {
    if (kept.length >= MAX_THOUGHT_DECISIONS) break;
    if (!codeNames(decision.text).some((name) => edited.has(name))) continue;
    const { proposed: _proposed, closing: _closing, ...carried } = decision;
    kept.push({ ...carried, family: 'thought', text: asCarriedOut(decision.text), order });
  }
  return kept;
}
