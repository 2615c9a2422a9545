/**
 * The shapes in which a report states finished work without a finite change
 * verb, and those in which it states an outcome instead: a row of a table of
 * changes, an item ticked as done, an arrow to a change word, a first-person
 * report of one's own change; a check that passed. Read by
 * prose-decisions.ts, which weighs them with the cue words.
 */
import type { CueMatchers } from '../../text/cues/cues.js';
import { labelKind, type LabelCache } from './decision-headings.js';
import type { ProseItem } from './prose-items.js';

/** An arrow between two things. */
const ARROWS = /→|->|=>/g;

/** A mark a report puts on each finished item. */
const DONE_MARKS = /[\u2705\u2714\u2713\u2611]/gu;
/** A mark of something not done, failing or waiting: a row holding one is a matrix or a status, not a finished item. */
const OTHER_MARKS = /[\u274C\u274E\u2717\u2718\u26A0\u23F3]/u;

/**
 * Whether a list item or row is ticked as finished: one done mark ("✅ Menu button on mobile") and no
 * other. Several marks in a row are a matrix (a role per column), not one finished change.
 *
 * @param item - one list item or row of an assistant message.
 */
export function ticked(item: ProseItem): boolean {
  // A ticked row is read through its table: a tick in a table of results or of roles is an outcome or a permission.
  if (item.kind !== 'bullet' || OTHER_MARKS.test(item.text)) return false;
  return (item.text.match(DONE_MARKS)?.length ?? 0) === 1;
}

/** A cell that holds only a share ("90%", "0 %"): how far a part has come, in any language. */
const PROGRESS_CELL = /(?:^|\s—\s)\d{1,3}(?:[.,]\d{1,2})?\s?%(?:\s—\s|$)/;

/**
 * Whether a row reports progress: one of its cells is a share ("OCR — not started — 0%"). A table of how far
 * each part has come is a status, whatever its columns are called ("Completion", "完成度" reads like "Complete").
 */
function progressRow(item: ProseItem): boolean {
  return item.kind === 'row' && PROGRESS_CELL.test(item.text.slice(0, 400));
}

/**
 * Whether a row's table is a table of changes: one of its header's cells names changes or fixes
 * ("Change", "What changed", "Cambio"). A column of results or statuses reports outcomes, not changes.
 *
 * @param item - one item of an assistant message.
 * @param cues - the cue matchers of the message's language.
 * @param cache - heading kinds already classified in this message.
 */
export function changeTable(item: ProseItem, cues: CueMatchers, cache?: LabelCache): boolean {
  if (item.kind !== 'row' || item.lead === '' || progressRow(item)) return false;
  return item.lead.split(' | ').some((cell) => labelKind(cell, cues, cache) === 'summary' && !cues.verified.test(cell));
}

/** A count of checks that all passed ("85/85"): a verification's shape in any language. */
const ALL_PASSED = /(?<!\d)(\d{1,5})\/\1(?!\d)/;

/**
 * Whether an item reports an outcome rather than a change: a check that passed, a service that
 * answers, a smoke test's counts, a row of progress, a status under a lead-in that says so ("Smoke test passed:").
 *
 * @param item - one item of an assistant message.
 * @param cues - the cue matchers of the message's language.
 * @param cache - heading kinds already classified in this message.
 */
export function verifies(item: ProseItem, cues: CueMatchers, cache?: LabelCache): boolean {
  if (cues.verified.test(item.text) || ALL_PASSED.test(item.text) || progressRow(item)) return true;
  if (item.lead === '') return false;
  // A row's lead is its table's header: a Status column beside a Change column makes no row a status, a table of results does.
  return item.kind === 'row' ? !changeTable(item, cues, cache) && cues.verified.test(item.lead) : cues.verified.test(item.lead);
}

/** What a report of one's own finished work opens with, after an optional short exclamation ("Done! I've …"). */
const OWN_PERFECT = /^(?:[\p{L}]{2,12}[!.]\s+)?(?:i['’]ve|i have|we['’]ve|we have|he|hemos|j['’]ai|nous avons|ich habe|wir haben|eu|nós)\s/iu;
/** Words from which a report names what it changed, not only that it changed something ("I've updated both files"). */
const MIN_PERFECT_WORDS = 6;

/**
 * Whether the item reports, in the first person, a change it made: "I've updated the setup notes to
 * cover nano", "He corregido la validación". The work itself says so; no edit need follow.
 *
 * @param text - an item's text.
 * @param cues - the cue matchers of the message's language.
 */
export function ownChange(text: string, cues: CueMatchers): boolean {
  if (!OWN_PERFECT.test(text) || text.split(' ', MIN_PERFECT_WORDS).length < MIN_PERFECT_WORDS) return false;
  return cues.change.test(text) || cues.weakChange.test(text);
}

/**
 * Whether an arrow leads straight to a change word ("Login button on mobile → fixed", "Dark mode → añadido"):
 * a report's way of marking an item done.
 *
 * @param text - an item's text.
 * @param cues - the cue matchers of the message's language.
 */
export function arrowToDone(text: string, cues: CueMatchers): boolean {
  for (const match of text.slice(0, 400).matchAll(ARROWS)) {
    const after = text.slice((match.index ?? 0) + match[0].length, (match.index ?? 0) + match[0].length + 30).trimStart();
    if (cues.weakChange.opens(after) || cues.change.opens(after)) return true;
  }
  return false;
}

/**
 * A first-person report with the items that follow it: "I've created the guide" is told by the list of
 * what the guide holds, which comes next.
 *
 * @param item - the report's item.
 * @param items - the message's items.
 * @param max - characters from which no further item is added.
 */
export function withDetails(item: ProseItem, items: readonly ProseItem[], max: number): string {
  let context = item.text;
  for (let index = item.index + 1; index < items.length && context.length < max; index++) context += ` ${items[index]?.text ?? ''}`;
  return context;
}

/**
 * Each row's table: a key for the run of rows under one header, and the rows' texts in order (capped).
 *
 * @param items - the message's items.
 * @param max - characters from which a table's rows are no longer added.
 */
export function tablesOf(items: readonly ProseItem[], max: number): Map<number, { key: string; rows: string }> {
  const tables = new Map<number, { key: string; rows: string }>();
  let current: { key: string; rows: string } | null = null;
  for (const [position, item] of items.entries()) {
    const previous = items[position - 1];
    if (item.kind !== 'row') {
      current = null;
      continue;
    }
    if (!current || previous?.kind !== 'row' || previous.lead !== item.lead) current = { key: `\u0000table ${item.index}`, rows: '' };
    if (current.rows.length < max) current.rows += (current.rows ? '; ' : '') + item.text;
    tables.set(item.index, current);
  }
  return tables;
}

/** A label that names the state before a change ("Before", "Antes", "之前"), in the languages with cue sets. */
const BEFORE_LABEL = /^(?:before|previously|old|antes|anteriormente|vorher|früher|bisher|avant|auparavant|之前|以前|改前|修改前|変更前|修正前)$/iu;
/** A label that names the state after it ("After", "Now", "Ahora", "现在"). */
const AFTER_LABEL = /^(?:after|now|new|ahora|después|despues|nachher|jetzt|neu|après|apres|maintenant|agora|depois|之后|现在|改后|修改后|変更後|修正後|現在)$/iu;

/** Whether an item is labelled as the state before a change ("**Antes**: la matriz solo leía …"): the old state, not what was decided. */
export function beforeState(item: ProseItem): boolean {
  return item.lead !== '' && BEFORE_LABEL.test(item.lead);
}

/**
 * The items that state the new state of a before/after pair ("Before: … / Now: …"): a report's way of describing
 * a change, whose verb is in neither half. Their positions in the message.
 *
 * @param items - the message's prose items.
 */
export function afterStates(items: readonly ProseItem[]): Set<number> {
  const after = new Set<number>();
  for (let position = 1; position < items.length; position++) {
    const [previous, item] = [items[position - 1], items[position]];
    if (previous && item && beforeState(previous) && AFTER_LABEL.test(item.lead)) after.add(item.index);
  }
  return after;
}

/** A replacement written as an arrow ("parseDate → parseIsoDate", "v2 -> v3"): the shape of a row in a list of renames. */
const REPLACEMENT_ARROW = /\S\s*(?:→|->|=>|⇒)\s*\S/u;
/** Rows from which a run of arrow bullets is a list of replacements, not one change with its arrow. */
export const MIN_REPLACEMENT_ROWS = 3;

/**
 * Lists of like replacements: runs of at least {@link MIN_REPLACEMENT_ROWS} successive bullets under one
 * lead-in, each an `old → new` pair, keyed like {@link tablesOf}'s tables. One row per rename is one
 * piece of work (a migration, a rename across files), like a change table's rows.
 *
 * @param items - one message's prose items.
 * @param max - cap on the joined rows' characters.
 */
export function replacementListsOf(items: readonly ProseItem[], max: number): Map<number, { key: string; rows: string }> {
  const lists = new Map<number, { key: string; rows: string }>();
  let run: ProseItem[] = [];
  const close = (): void => {
    if (run.length >= MIN_REPLACEMENT_ROWS) {
      const list = { key: `\u0000list ${run[0]?.index ?? 0}`, rows: '' };
      for (const row of run) if (list.rows.length < max) list.rows += (list.rows ? '; ' : '') + row.text;
      for (const row of run) lists.set(row.index, list);
    }
    run = [];
  };
  for (const item of items) {
    const arrow = item.kind === 'bullet' && REPLACEMENT_ARROW.test(item.text.slice(0, 200));
    if (!arrow || (run.length > 0 && run[0]?.listLead !== item.listLead)) close();
    if (arrow) run.push(item);
  }
  close();
  return lists;
}
