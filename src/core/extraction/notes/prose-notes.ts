/**
 * What a message's prose says beyond decisions: problems as people state
 * them (read by `prose-problems`, kept here with their origin) and what is in
 * progress — the user's request, the assistant's stated next steps, the offer
 * or question it closes with, what it says it is doing while it works, and a
 * reply with nothing in it. Problems read from machine output are not here.
 */
import type { Observation } from '../observations.js';
import { cutAtBoundary } from '../../text/boundary-cut.js';
import type { CueMatchers } from '../../text/cues/cues.js';
import type { ProseItem } from '../prose/prose-items.js';
import { ORIGIN_WEIGHTS, reportedProblems, statedProblems, type StatedProblem } from '../problems/prose-problems.js';
import { SAID_PREFIX } from '../problems/problem-rank.js';
import { afterStates, beforeState } from '../prose/report-shapes.js';
import { isBareComplaint } from '../problems/bare-complaint.js';
import { CARRIED_PREFIX, INTENT_PREFIX, REQUEST_PREFIX, STEP_PREFIX } from './note-ids.js';

/** Cap on a note's text. */
export const MAX_NOTE_CHARS = 200;
/**
 * Characters of a user's request read past the request's own note: a request often lists several asks
 * one after another ("… fix that. Another problem is … fix all those"), and the later ones are as open as
 * the first. They are kept as a step of the request, which the final pass keeps while the request is the
 * latest, and which does not weigh in the words the request lends to decisions.
 */
export const MAX_REQUEST_REST_CHARS = 600;
/**
 * Characters of one step of a request's rest: a note's item is read back as one line of about 280 characters,
 * so a longer rest is kept as several steps, split at sentences, or the asks past the line would be cut off.
 */
export const MAX_REQUEST_PIECE_CHARS = 250;
/** Steps a request's rest is kept as at most. */
export const MAX_REQUEST_PIECES = 3;
/** Words below which a sentence of a request's rest ("fix that", "please look at these") joins the piece before it. */
const MIN_PIECE_WORDS = 5;
/** Notes of each type one message contributes at most. */
export const MAX_NOTES_PER_KIND = 4;
/** Problems one assistant message contributes at most: a diagnosis often lists five or six causes. */
export const MAX_PROBLEMS_PER_MESSAGE = 6;
/** Words below which a user message ("continue", "go on") asks for nothing new; a CJK message counts its characters. */
const MIN_REQUEST_WORDS = 3;
const MIN_REQUEST_CJK_CHARS = 4;
/**
 * Words of a nudge that only asks the model to go on, in the languages with cue sets: no request of its own.
 * With them, the words that only point back at what the model proposed ("implement the plan", "continúa con
 * el plan de fix", "lanjut"): what is asked is the plan, which the model's own notes already hold.
 */
const NUDGE_WORDS: ReadonlySet<string> = new Set(
  (
    'ok okay yes yeah yep yup sure go on ahead continue proceed please plz pls do it keep going next fine great thanks ' +
    'cool nice good alright perfect sounds let\'s lets start begin implement execute apply ' +
    'the this that them these your best all now then and with plan plans change changes fix fixes implementation step steps suggestion suggestions ' +
    'sí si dale sigue seguí continua continúa continuar vale bueno listo gracias adelante hola perfecto ' +
    'con el la lo los las de del cambios comenza comenzá empieza empezá implementa aplica ejecuta implementación implementacion ' +
    'ja weiter mach bitte danke oui vas-y continue continuez merci sim vai continue continua obrigado pode ' +
    'ya oke lanjut lanjutkan silakan tolong'
  ).split(' '),
);
const CJK = /[\u3040-\u30ff\u3400-\u9fff]/gu;

/** Whether a user's message asks for something: enough words (or CJK characters), not only a nudge to go on. */
function isRequest(text: string): boolean {
  const words = text.slice(0, 2_000).toLowerCase().split(/[^\p{L}\p{N}'-]+/u).filter((word) => word.length > 0).slice(0, 50);
  const cjk = (text.slice(0, 200).match(CJK) ?? []).length;
  if (words.length < MIN_REQUEST_WORDS && cjk < MIN_REQUEST_CJK_CHARS) return false;
  return cjk >= MIN_REQUEST_CJK_CHARS || words.some((word) => !NUDGE_WORDS.has(word));
}
/** A user message longer than this, or with this many headings, is a pasted template or document, not a request. */
export const MAX_REQUEST_CHARS = 2_000;
const MAX_REQUEST_HEADINGS = 3;

/** A closing line that reports what was done or checked ("Ran the build and it succeeds"), not what comes next. */
const REPORTED = /^(?:ran|tested|verified|checked|confirmed|built|executed)\b|\b(?:succeeds|succeeded|passed|passes|is green|ran clean|completed successfully)\b/i;

/** A mark or a parenthesis that says an item is done or was checked ("✅ …", "… (verified)"). */
const DONE = /^[\u2705\u2714\u2611]|\((?:verified|done|tested|confirmed|fixed|hecho|verificado|terminé|erledigt|fait|feito)\)/iu;

/**
 * Whether an item listed under a next-steps or in-progress heading reports work already done: it opens with
 * a change in its past form ("Created `src/app/page.tsx`", "Añadido …"), not an instruction ("Move the …"),
 * or is marked done or checked. Work in progress lists what it did so far beside what is left.
 */
function doneAlready(text: string, cues: CueMatchers): boolean {
  const head = text.replace(/^[*_\s]+/, '').slice(0, 60);
  if (DONE.test(head) || DONE.test(text.slice(-40))) return true;
  // The first change cue found decides: a change verb later in the text outranks a weak one at its start.
  const opening = cues.change.test(head) ? cues.change.opens(head) : cues.weakChange.opens(head);
  return opening && !cues.instruction.opens(head);
}

/** Id of the note an empty assistant reply leaves; the final pass reports them once there are several. */
export const EMPTY_REPLY_ID = 'problem:empty-reply';

/**
 * The note of an assistant message with no text and no tool call: the model answered nothing. One is
 * noise (an interrupted turn); several in a conversation mean the model stalled.
 *
 * @param order - the message's position.
 */
export function emptyReplyNote(order: number): Observation {
  return { id: EMPTY_REPLY_ID, type: 'problem', text: 'the model replied with nothing (no text, no tool call)', order, frequency: 1 };
}

function cap(text: string, max = MAX_NOTE_CHARS): string {
  return cutAtBoundary(text, max);
}

/**
 * What a request says past its note, from where the note's text ends when it ends a sentence, else from the
 * first sentence that starts past it (or the next word when no sentence does soon), at most
 * {@link MAX_REQUEST_REST_CHARS}; `null` when the note holds it all.
 *
 * @param asked - the request's note text, as cut.
 */
function requestRest(request: string, asked: string): string | null {
  // The note is cut at a sentence or clause boundary, often well before its cap: the rest starts where it ends.
  const held = asked.slice('asked: '.length).replace(/…$/u, '').trimEnd();
  const shown = request.startsWith(held) ? held.length : MAX_NOTE_CHARS - 'asked: '.length - 1;
  if (request.length <= shown + 1) return null;
  const window = request.slice(shown, shown + 120);
  const sentence = /[.!?。！？]$/u.test(held) ? { index: 0, 0: '' } : /[.!?。！？]\s+/u.exec(window);
  const space = window.indexOf(' ');
  const start = shown + (sentence ? sentence.index + sentence[0].length : space === -1 ? 0 : space + 1);
  const rest = request.slice(start, start + MAX_REQUEST_REST_CHARS).trim();
  return rest.split(/\s+/, MIN_REQUEST_WORDS).length >= MIN_REQUEST_WORDS ? rest : null;
}

/**
 * A request's rest as the steps it is kept as: its sentences packed in order into pieces of at most
 * {@link MAX_REQUEST_PIECE_CHARS} (a sentence longer than that is a piece of its own, cut when read back),
 * at most {@link MAX_REQUEST_PIECES}; a piece too short to ask anything joins the one before it.
 */
function restPieces(rest: string): string[] {
  const pieces: string[] = [];
  for (const sentence of rest.split(/(?<=[.!?。！？])\s+/u)) {
    const last = pieces.at(-1);
    const short = sentence.split(/\s+/, MIN_PIECE_WORDS).length < MIN_PIECE_WORDS;
    if (last !== undefined && (short || last.length + 1 + sentence.length <= MAX_REQUEST_PIECE_CHARS || pieces.length >= MAX_REQUEST_PIECES)) pieces[pieces.length - 1] = `${last} ${sentence}`;
    else pieces.push(sentence);
  }
  return pieces;
}

/** A short stable key for merging repeats: the first words, lowercase, without punctuation. */
export function noteKey(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim()
    .slice(0, 80);
}

function note(type: 'problem' | 'next', id: string, text: string, order: number, max = MAX_NOTE_CHARS): Observation {
  return { id, type, text: cap(text, max), order, frequency: 1 };
}

/** The `max` most valuable stated problems (by origin, then position), as notes in message order. */
function problemNotes(stated: readonly StatedProblem[], max: number, order: number): Observation[] {
  return stated
    // A complaint that names nothing ("getting errors again", "still broken!") says only that the last attempt failed.
    .filter((problem) => !isBareComplaint(problem.text))
    .sort((a, b) => ORIGIN_WEIGHTS[b.origin] - ORIGIN_WEIGHTS[a.origin] || a.index - b.index)
    .slice(0, max)
    .sort((a, b) => a.index - b.index)
    .map((problem) => note('problem', `${SAID_PREFIX}${problem.origin}:${noteKey(problem.text)}`, problem.text, order));
}

/**
 * The old states of a report's before/after pairs ("Before: saving did nothing until a cell changed / Now: …"):
 * what the change fixed, kept as a problem since resolved (a `warning`, like a failure a later run settled),
 * named by the section it describes.
 */
function fixedStates(items: readonly ProseItem[], order: number): Observation[] {
  const fixed: Observation[] = [];
  const after = afterStates(items);
  for (const item of items) {
    if (!after.has(item.index + 1) || !beforeState(item) || fixed.length >= MAX_NOTES_PER_KIND) continue;
    const topic = item.section.split(' / ').pop() ?? '';
    fixed.push({ id: `resolved:${SAID_PREFIX}before:${noteKey(item.text)}`, type: 'warning', text: cap(`resolved: ${topic ? `${topic}: ` : ''}${item.text}`), order, frequency: 1 });
  }
  return fixed;
}

type NoteLabel = 'problem' | 'next' | 'plan' | null;

function classify(label: string, cues: CueMatchers, cache: Map<string, NoteLabel>): NoteLabel {
  const known = cache.get(label);
  if (known !== undefined) return known;
  const kind: NoteLabel = cues.nextHeading.test(label) ? 'next' : cues.problemHeading.test(label) ? 'problem' : cues.planHeading.test(label) ? 'plan' : null;
  cache.set(label, kind);
  return kind;
}

/** What the item's lead-in or heading makes it: a problem, a next step, a planned step, or nothing. */
function labelKind(item: ProseItem, cues: CueMatchers, cache: Map<string, NoteLabel>): NoteLabel {
  const list = item.listLead === '' ? null : classify(item.listLead, cues, cache);
  if (list === 'next' || list === 'problem') return list;
  const lead = item.lead === '' ? null : classify(item.lead, cues, cache);
  if (lead === 'next' || lead === 'problem') return lead;
  const section = item.section === '' ? null : classify(item.section, cues, cache);
  if (section === 'next' || section === 'problem') return section;
  return lead ?? section;
}

/** Words below which a sentence says too little to stand for the work in progress. */
const MIN_INTENT_WORDS = 3;

/**
 * What a message that calls tools says it is doing: its last sentence, with the one before when the last
 * only announces the call ("Checking the service:"); `null` when it ends with a list or a table (a report).
 */
function intentOf(items: readonly ProseItem[]): string | null {
  const last = items.at(-1);
  if (!last || last.kind !== 'sentence' || last.label) return null;
  const previous = items.at(-2);
  const text = /[:：]$/.test(last.text) && previous?.kind === 'sentence' && previous.section === last.section && !previous.label ? `${previous.text} ${last.text}` : last.text;
  return text.split(/\s+/, MIN_INTENT_WORDS).length >= MIN_INTENT_WORDS ? text : null;
}

/**
 * Whether a user message is a pasted template, prompt or document rather than a request:
 * long, or structured with several headings.
 *
 * @param text - the sanitized message.
 */
export function isPastedDocument(text: string): boolean {
  if (text.length > MAX_REQUEST_CHARS) return true;
  let headings = 0;
  for (const line of text.split('\n', 200)) if (/^ {0,3}#{1,6} /.test(line)) headings++;
  return headings >= MAX_REQUEST_HEADINGS;
}

/**
 * Notes of a user message: the request itself (a `next` candidate) and the problems it describes.
 *
 * @param text - the sanitized message.
 * @param items - its prose items.
 * @param cues - the cue matchers of its language.
 * @param order - its position in the conversation.
 */
export function userNotes(text: string, items: readonly ProseItem[], cues: CueMatchers, order: number): Observation[] {
  if (isPastedDocument(text)) return [];
  const notes: Observation[] = [];
  const request = items.map((item) => item.text).join(' ');
  if (isRequest(request)) {
    const asked = note('next', `${REQUEST_PREFIX}${order}`, `asked: ${request}`, order);
    notes.push(asked);
    const rest = requestRest(request, asked.text);
    for (const piece of rest === null ? [] : restPieces(rest)) {
      notes.push(note('next', `${STEP_PREFIX}${order}:${noteKey(piece)}`, `asked, then: ${piece}`, order, MAX_REQUEST_REST_CHARS + 14));
    }
  }
  notes.push(...problemNotes(reportedProblems(items, cues), 2, order));
  return notes;
}

/**
 * Notes of an assistant message: the problems it states (see `statedProblems`; the most valuable
 * {@link MAX_PROBLEMS_PER_MESSAGE}), items under next-step headings (next steps, remaining, TODO) or
 * a plan's, and a closing offer or question that says what comes next — or, for a message that calls
 * tools, what it says it is doing. A prior compaction summary's next steps are marked as carried.
 *
 * @param items - the message's prose items.
 * @param cues - the cue matchers of its language.
 * @param order - its position in the conversation.
 * @param summary - whether the message is a compaction summary the host wrote.
 * @param working - whether the message also calls tools: its last sentence then says what it is doing
 *   ("Now I make the service notify the window. Checking the service:"), kept as an intent note the final
 *   pass uses when the conversation stops right there.
 */
export function assistantNotes(items: readonly ProseItem[], cues: CueMatchers, order: number, summary: boolean, working = false): Observation[] {
  const notes: Observation[] = [...problemNotes(statedProblems(items, cues), MAX_PROBLEMS_PER_MESSAGE, order), ...fixedStates(items, order)];
  let steps = 0;
  const stepPrefix = summary ? CARRIED_PREFIX : STEP_PREFIX;
  const cache = new Map<string, NoteLabel>();
  for (const item of items) {
    const kind = labelKind(item, cues, cache);
    if (kind === 'next' && steps < MAX_NOTES_PER_KIND && item.text.length >= 8 && !doneAlready(item.text, cues)) {
      notes.push(note('next', `${stepPrefix}${order}:${noteKey(item.text)}`, `next: ${item.text}`, order));
      steps++;
    } else if (kind === 'plan' && !summary && item.kind !== 'sentence' && steps < MAX_NOTES_PER_KIND) {
      // A plan's steps are what comes next until a later turn carries them out.
      notes.push(note('next', `${stepPrefix}${order}:${noteKey(item.text)}`, `planned: ${item.text}`, order));
      steps++;
    }
  }
  // A message that calls tools narrates them ("Now I'll wrap it in try/except:"): its closing is work being
  // done, not an offer; what it says last is its intent instead.
  if (!summary && !working) {
    for (const item of items) {
      if (!item.closing || steps >= MAX_NOTES_PER_KIND) continue;
      const kind = labelKind(item, cues, cache);
      if (kind === 'next' || kind === 'problem') continue;
      if (/[?？]\s*$/.test(item.text) || (cues.next.test(item.text) && !REPORTED.test(item.text))) {
        notes.push(note('next', `${stepPrefix}${order}:${noteKey(item.text)}`, `next: ${item.text}`, order));
        steps++;
      }
    }
  }
  const intent = working && !summary ? intentOf(items) : null;
  if (intent !== null) notes.push(note('next', `${INTENT_PREFIX}${order}`, `doing: ${intent}`, order));
  return notes;
}
