/**
 * The agent's own todo list: OpenCode's `todowrite` (and the like) records
 * every item with a status, so the latest list says exactly what is in
 * progress and what is still pending when the conversation stops.
 *
 * The list is read from the call's input when it crossed, else from the
 * output, which echoes it as JSON. The output may be cut in its middle, so
 * items are read one flat object at a time, never by parsing the whole.
 */
import type { Observation } from '../observations.js';
import { capChars } from '../../text/char-cap.js';
import { TODO_PREFIX } from './note-ids.js';

/** A tool that writes the agent's todo list or plan (`todowrite`, `TodoWrite`, `todo_write`, `update_plan`). */
export const TODO_TOOL = /todo|update_plan/i;
/** Items read from one list. */
const MAX_ITEMS = 50;
/** Longest item kept. */
const MAX_ITEM_CHARS = 200;
/** Characters of a list read. */
const MAX_LIST_CHARS = 20_000;

/** Status of a todo item, as the tools write it. */
export type TodoStatus = 'pending' | 'in_progress' | 'completed' | 'cancelled';

/** One item of a todo list. */
export interface TodoItem {
  content: string;
  status: TodoStatus;
}

const OBJECT = /\{[^{}]{0,2000}\}/g;
const CONTENT = /"(?:content|step|text|title)"\s*:\s*"((?:[^"\\\n]|\\.){1,600})"/;
const STATUS = /"status"\s*:\s*"([\w -]{1,20})"/;

function statusOf(raw: string): TodoStatus | null {
  const status = raw.toLowerCase().replace(/[\s-]+/g, '_');
  if (status === 'pending' || status === 'todo' || status === 'not_started') return 'pending';
  if (status === 'in_progress' || status === 'active' || status === 'doing') return 'in_progress';
  if (status === 'completed' || status === 'done') return 'completed';
  if (status === 'cancelled' || status === 'canceled') return 'cancelled';
  return null;
}

function unescape(text: string): string {
  try {
    return JSON.parse(`"${text}"`) as string;
  } catch {
    return text;
  }
}

/**
 * The items of a todo list written as JSON (an array of flat objects with a text and a status).
 *
 * @param json - the list as JSON text, possibly cut: complete objects are read, the rest ignored.
 */
export function todoItems(json: string): TodoItem[] {
  const items: TodoItem[] = [];
  for (const [object] of json.slice(0, MAX_LIST_CHARS).matchAll(OBJECT)) {
    const content = CONTENT.exec(object);
    const status = STATUS.exec(object);
    const known = status ? statusOf(status[1] ?? '') : null;
    if (!content || !known) continue;
    const text = capChars(unescape(content[1] ?? '').replace(/\s+/g, ' ').trim(), MAX_ITEM_CHARS);
    if (text.length > 0) items.push({ content: text, status: known });
    if (items.length >= MAX_ITEMS) break;
  }
  return items;
}

/** The list a call carries: its input's when that crossed, else the output's echo. */
export function todoListText(input: Record<string, unknown>, output: string): string {
  for (const key of ['todos', 'plan']) {
    const value = input[key];
    if (Array.isArray(value)) {
      try {
        return JSON.stringify(value.slice(0, MAX_ITEMS)).slice(0, MAX_LIST_CHARS);
      } catch {
        // Not plain data: fall back to the output's echo.
      }
    }
  }
  return output;
}

/** Id suffix of the marker a list with no open item leaves: it closes the lists before it. */
export const TODO_CLOSED = 'closed';

/**
 * Notes of one todo-list call: every open item (in progress, then pending) as a `next` note with id
 * {@link TODO_PREFIX}…; a list with every item done leaves one marker (id suffix {@link TODO_CLOSED},
 * empty text) so the final pass knows the earlier lists are settled. Nothing for other tools.
 *
 * @param call - the tool's name, its input as it crossed, its bounded output, and whether it failed.
 * @param order - the message position.
 */
export function todoNotes(call: { tool: string; input: Record<string, unknown>; output: string; failed: boolean }, order: number): Observation[] {
  if (call.failed || !TODO_TOOL.test(call.tool)) return [];
  const items = todoItems(todoListText(call.input, call.output));
  if (items.length === 0) return [];
  const open = [...items.filter((item) => item.status === 'in_progress'), ...items.filter((item) => item.status === 'pending')];
  if (open.length === 0) return [{ id: `${TODO_PREFIX}${order}:${TODO_CLOSED}`, type: 'next', text: '', order, frequency: 1 }];
  return open.map((item, index): Observation => ({
    id: `${TODO_PREFIX}${order}:${index}`,
    type: 'next',
    text: `${item.status === 'in_progress' ? 'in progress' : 'todo'}: ${item.content}`,
    order,
    frequency: 1,
  }));
}
