/**
 * What kind of heading or lead-in an item sits under, by its cue words: a
 * decisions heading, a summary of changes, problems, next steps or the goal.
 * The decision reading weighs an item by it; labels are classified once per
 * message through a cache, since one message repeats the same few.
 */
import type { CueMatchers } from '../../text/cues/cues.js';
import type { ProseItem } from './prose-items.js';

/** What a heading or lead-in announces; `null` for none of the kinds read. */
export type HeadingKind = 'decision' | 'summary' | 'problem' | 'next' | 'goal' | null;

/** Kinds of headings already classified, by label: one message repeats the same few labels over many items. */
export type LabelCache = Map<string, HeadingKind>;

/**
 * The kind of one label.
 *
 * @param label - a heading, a lead-in or a table header.
 * @param cues - the cue matchers of the message's language.
 * @param cache - kinds already classified in this message.
 */
export function labelKind(label: string, cues: CueMatchers, cache?: LabelCache): HeadingKind {
  const known = cache?.get(label);
  if (known !== undefined) return known;
  let kind: HeadingKind = null;
  if (cues.decisionHeading.test(label)) kind = 'decision';
  else if (cues.nextHeading.test(label)) kind = 'next';
  else if (cues.problemHeading.test(label)) kind = 'problem';
  else if (cues.summaryHeading.test(label)) kind = 'summary';
  else if (cues.goalHeading.test(label)) kind = 'goal';
  cache?.set(label, kind);
  return kind;
}

/**
 * The kind of heading an item sits under: its lead-in first, then its section, then a short label
 * opening its sentence when that label names a decision.
 *
 * @param item - one item of an assistant message.
 * @param cues - the cue matchers of the message's language.
 * @param cache - kinds already classified in this message.
 */
export function headingKind(item: ProseItem, cues: CueMatchers, cache?: LabelCache): HeadingKind {
  if (item.lead !== '') {
    const kind = labelKind(item.lead, cues, cache);
    if (kind !== null) return kind;
  }
  const kind = item.section === '' ? null : labelKind(item.section, cues, cache);
  if (kind !== null) return kind;
  // A plain "Approach: …", "Mejor estrategia: …" opening the sentence labels it like a bold lead-in.
  const label = INLINE_LABEL.exec(item.text)?.[1];
  return label !== undefined && labelKind(label.toLowerCase(), cues, cache) === 'decision' ? 'decision' : null;
}

/** A short label opening a sentence, up to its colon. */
const INLINE_LABEL = /^([\p{L}][\p{L} ]{1,28})[:：]\s/u;
