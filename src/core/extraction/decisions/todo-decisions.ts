/**
 * Work done, as the agent's own todo list records it: an item marked
 * completed is a step carried out. Todo items are written as plan steps
 * ("Update X: batch size 20 → 3"), so they are read like a report's list
 * items — only those that name a change count — and they only fill a session
 * whose prose states few decisions: the list is the agent's bookkeeping,
 * less precise than what it reports in words (see `rankDecisions`).
 */
import type { Decision } from './decisions.js';
import { proseItems } from '../prose/prose-items.js';
import { FILL_THRESHOLD, proseDecisions } from './prose-decisions.js';
import { detectLanguage } from '../../text/language.js';
import { decisionCuesFor } from '../../text/cues/cues.js';
import { TODO_TOOL, todoItems, todoListText } from '../notes/todos.js';

/**
 * Decisions from the completed items of one todo-list call, scored no higher than {@link FILL_THRESHOLD}.
 *
 * @param call - the tool's name, its input as it crossed, its bounded output, and whether it failed.
 * @param max - how many to return at most.
 */
export function todoDecisions(call: { tool: string; input: Record<string, unknown>; output: string; failed: boolean }, max: number): Decision[] {
  if (call.failed || !TODO_TOOL.test(call.tool)) return [];
  const done = todoItems(todoListText(call.input, call.output)).filter((item) => item.status === 'completed');
  if (done.length === 0) return [];
  // One list item per line, no tick: a tick would count any step done ("Verify the build") as a change.
  const text = done.map((item) => `- ${item.content}`).join('\n');
  const cues = decisionCuesFor(detectLanguage(done.map((item) => item.content).join(' ')), text.length);
  return proseDecisions(proseItems(text), cues, { summary: false, report: true, edits: false }, max)
    .map((decision) => ({ ...decision, family: 'todo' as const, score: Math.min(decision.score ?? FILL_THRESHOLD, FILL_THRESHOLD) }));
}
