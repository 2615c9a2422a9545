/**
 * What the compaction context asks the model to close its summary with: short
 * fixed lists, one per kind the item-kind table asks for (`closingList`), read
 * back from the summary as the model's own items (core/memory/summary-lists.ts).
 * Pushed beside the host's prompt, never instead of it: the template's sections
 * stay, the lists come after them.
 */
import { CLOSING_LIST_ORDER, ITEM_KINDS } from '../memory/item-kinds.js';

/** The request, worded from the table. */
export const CLOSING_LISTS_REQUEST = [
  '## Close the summary with these lists',
  "End with these `## ` lists, in order, one short `- ` line per item, `- none` if empty; only this conversation's own, no plans as decisions:",
  ...CLOSING_LIST_ORDER.flatMap((kind) => {
    const list = ITEM_KINDS[kind].closingList;
    return list ? [list.hint ? `## ${list.heading} (${list.hint})` : `## ${list.heading}`] : [];
  }),
].join('\n');

/**
 * Tokens of {@link CLOSING_LISTS_REQUEST} in o200k_base, counted by its test: the preservation context's
 * budget gives them up, so the whole pushed text stays within the configured budget.
 */
export const CLOSING_LISTS_TOKENS = 82;
