/**
 * Turns an OpenCode message list into analysis units on the hook thread.
 *
 * Only cheap work happens here: reading fields, joining text parts and
 * bounding tool output. Anything malformed is skipped, never thrown on: the
 * list comes from the host and from tools we do not control.
 */
import type { AnalysisUnit, ToolCallView } from '../../workers/protocol.js';
import { pathArguments } from '../../core/extraction/working-set/working-set.js';

/**
 * How much of a tool's output crosses to a worker: its head and its tail. Build and test output puts
 * its first errors a few dozen lines in and its summary at the end, so both ends get room.
 */
export const TOOL_OUTPUT_HEAD_CHARS = 4_000;
export const TOOL_OUTPUT_TAIL_CHARS = 2_000;

/**
 * How much of one message's text crosses to a worker: its head and its tail.
 * Worker memory is bounded by what a task is given — under Bun (OpenCode's
 * runtime) `resourceLimits` are not enforced — so no single message, however
 * large a paste, may make a task unbounded.
 */
export const MESSAGE_TEXT_HEAD_CHARS = 768 * 1024;
export const MESSAGE_TEXT_TAIL_CHARS = 256 * 1024;

/** Tool calls of one message that are read: the most recent ones. */
export const TOOL_CALLS_PER_MESSAGE = 256;

/** Whether a value is a plain object (not null, not an array): the only shape a host entry is read from. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function boundText(text: string): string {
  if (text.length <= MESSAGE_TEXT_HEAD_CHARS + MESSAGE_TEXT_TAIL_CHARS) return text;
  // Cut at line ends, so no heading or fence line is split.
  const headEnd = text.lastIndexOf('\n', MESSAGE_TEXT_HEAD_CHARS);
  const tailStart = text.indexOf('\n', text.length - MESSAGE_TEXT_TAIL_CHARS);
  const head = text.slice(0, headEnd > 0 ? headEnd : MESSAGE_TEXT_HEAD_CHARS);
  const tail = text.slice(tailStart >= 0 ? tailStart + 1 : text.length - MESSAGE_TEXT_TAIL_CHARS);
  return `${head}\n…\n${tail}`;
}

function boundOutput(output: string): string {
  if (output.length <= TOOL_OUTPUT_HEAD_CHARS + TOOL_OUTPUT_TAIL_CHARS) return output;
  return `${output.slice(0, TOOL_OUTPUT_HEAD_CHARS)}\n…\n${output.slice(-TOOL_OUTPUT_TAIL_CHARS)}`;
}

function toolView(part: Record<string, unknown>): ToolCallView | null {
  const state = part['state'];
  if (typeof part['tool'] !== 'string' || !isRecord(state)) return null;
  // Only the arguments that name files cross to a worker: a 20 MB `content` or a
  // 100,000-deep structure would make the copy itself fail or dominate the task.
  const input = pathArguments(state['input']);
  const failed = state['status'] === 'error';
  const raw = failed ? state['error'] : state['output'];
  return { tool: part['tool'], input, output: typeof raw === 'string' ? boundOutput(raw) : '', failed };
}

/** Length of a tool output once bounded, without building it. */
export function boundedLength(output: unknown): number {
  if (typeof output !== 'string') return 0;
  return output.length <= TOOL_OUTPUT_HEAD_CHARS + TOOL_OUTPUT_TAIL_CHARS ? output.length : TOOL_OUTPUT_HEAD_CHARS + 3 + TOOL_OUTPUT_TAIL_CHARS;
}

/**
 * A running hash of the strings a message's unit is made of: two 32-bit multiply-rotate lanes, one pass
 * over each string, nothing built or copied (a 10 MB session's 3.3 million characters of text and bounded
 * output: about 15 ms). It tells versions of one message apart, not messages from an adversary: the id is
 * part of the key beside it.
 */
interface ContentHash {
  a: number;
  b: number;
}

function feed(hash: ContentHash, text: string, start = 0, end = text.length): void {
  let { a, b } = hash;
  let index = start;
  // Two UTF-16 units a step: half the multiplications.
  for (; index + 1 < end; index += 2) {
    const pair = (text.charCodeAt(index) << 16) | text.charCodeAt(index + 1);
    a = Math.imul(a ^ pair, 0x9e3779b1);
    a = (a << 13) | (a >>> 19);
    b = Math.imul(b ^ pair, 0x85ebca77);
    b = (b << 17) | (b >>> 15);
  }
  if (index < end) {
    const last = text.charCodeAt(index);
    a = Math.imul(a ^ last, 0x9e3779b1);
    b = Math.imul(b ^ last, 0x85ebca77);
  }
  // The length closes each string: ('ab', 'c') and ('a', 'bc') differ.
  hash.a = Math.imul(a ^ (end - start), 0x27d4eb2f);
  hash.b = Math.imul(b ^ (end - start), 0x165667b1);
}

/** A tool's output as it crosses (head and tail, see {@link boundOutput}), fed without building the cut. */
function feedBounded(hash: ContentHash, output: unknown): void {
  if (typeof output !== 'string') return feed(hash, '');
  if (output.length <= TOOL_OUTPUT_HEAD_CHARS + TOOL_OUTPUT_TAIL_CHARS) return feed(hash, output);
  feed(hash, output, 0, TOOL_OUTPUT_HEAD_CHARS);
  feed(hash, output, output.length - TOOL_OUTPUT_TAIL_CHARS);
}

function digest(hash: ContentHash): string {
  let { a, b } = hash;
  a = Math.imul(a ^ (a >>> 16), 0x85ebca6b);
  b = Math.imul(b ^ (b >>> 13), 0xc2b2ae35);
  return `${((a ^ (a >>> 15)) >>> 0).toString(36)}.${((b ^ (b >>> 16)) >>> 0).toString(36)}`;
}

/**
 * Messages in the kept form ({@link readableMessage}), and the keys of those whose key was asked for:
 * nothing changes such a copy once made, so its key is computed once. A host's message is hashed on
 * every call: an entry the host changes in place keeps its object.
 */
const keptCopies = new WeakSet<object>();
const keptKeys = new WeakMap<object, string | null>();

/**
 * The unit of one message, or `null` when the entry is not a message.
 *
 * Its key is the message id and a hash of what its unit is made of — role, summary flag, the text parts
 * read, whether it reasoned, each tool call's name, status and output as it crosses — so a message edited
 * under the same id, to any length, has a new key, and its cached analysis is not used. The kept form of
 * a message has the same key as the message.
 *
 * @param message - one `{ info, parts }` entry as the host returns it.
 * @param order - its position in the list.
 * @param known - told the unit's key before its text is built; when it answers
 *   `true` (the analysis is cached), text and tools are left empty, so a cached
 *   message costs no copying.
 */
export function messageToUnit(message: unknown, order: number, known?: (key: string) => boolean): AnalysisUnit | null {
  if (!isRecord(message)) return null;
  const info = isRecord(message['info']) ? message['info'] : {};
  const parts = Array.isArray(message['parts']) ? message['parts'] : [];
  const id = typeof info['id'] === 'string' ? info['id'] : null;
  const role = typeof info['role'] === 'string' ? info['role'] : 'unknown';
  const summary = info['summary'] === true;
  const remembered = keptKeys.get(message);
  const hash: ContentHash | null = id !== null && remembered === undefined ? { a: 0x6a09e667, b: 0x3c6ef372 } : null;
  if (hash) feed(hash, `${role}${summary ? ':summary' : ''}`);
  const texts: string[] = [];
  const toolParts: Record<string, unknown>[] = [];
  let reasoned = false;
  for (const part of parts) {
    if (!isRecord(part)) continue;
    // Synthetic and ignored parts are the host's or a plugin's own words, not the conversation.
    if (part['type'] === 'text' && typeof part['text'] === 'string' && !part['synthetic'] && !part['ignored']) {
      texts.push(part['text']);
      if (hash) feed(hash, part['text']);
    } else if (part['type'] === 'reasoning' && typeof part['text'] === 'string' && part['text'].trim() !== '') {
      if (hash && !reasoned) feed(hash, ':reasoned');
      reasoned = true;
    } else if (part['type'] === 'tool' && typeof part['tool'] === 'string' && isRecord(part['state'])) {
      toolParts.push(part);
      if (!hash) continue;
      const state = part['state'];
      const status = typeof state['status'] === 'string' ? state['status'] : '';
      // Not its input: a call's input is set before it runs, and its status and output carry every later change.
      feed(hash, part['tool']);
      feed(hash, status);
      feedBounded(hash, status === 'error' ? state['error'] : state['output']);
    }
  }
  // An assistant message with nothing at all in it — no text, no reasoning, no tool call — answered nothing.
  const silent = role === 'assistant' && texts.length === 0 && toolParts.length === 0 && !reasoned;
  const key = remembered !== undefined ? remembered : hash ? `${id}:${digest(hash)}${silent ? ':silent' : ''}` : null;
  if (remembered === undefined && keptCopies.has(message)) keptKeys.set(message, key);
  if (key !== null && known?.(key)) return { key, order, role, text: '', tools: [], summary, ...(silent ? { silent } : {}) };
  const tools = toolParts
    .slice(-TOOL_CALLS_PER_MESSAGE)
    .map(toolView)
    .filter((view): view is ToolCallView => view !== null);
  return { key, order, role, text: boundText(texts.join('\n\n')), tools, summary, ...(silent ? { silent } : {}) };
}

/**
 * A message reduced to what extraction reads of it: the same unit (`messageToUnit`), weight and summary
 * flag, without its tools' input bodies, the middles of their output, or parts extraction skips, and
 * sharing no string with the host's message. A session's window is kept in this form between
 * compactions (window-memory.ts).
 *
 * @param message - one `{ info, parts }` entry as the host returns it.
 * @returns the reduced entry, or `null` when it is not a message.
 */
export function readableMessage(message: unknown): unknown {
  // Not a message: nothing of it is read, and nothing of it is kept.
  if (!isRecord(message)) return null;
  const info = isRecord(message['info']) ? message['info'] : {};
  const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
  const parts: Record<string, unknown>[] = [];
  for (const part of Array.isArray(message['parts']) ? message['parts'] : []) {
    if (!isRecord(part)) continue;
    if (part['type'] === 'text') {
      parts.push({ type: 'text', text: text(part['text']), synthetic: Boolean(part['synthetic']), ignored: Boolean(part['ignored']) });
    } else if (part['type'] === 'reasoning' && typeof part['text'] === 'string') {
      // Only whether the model reasoned is read.
      parts.push({ type: 'reasoning', text: part['text'].trim() === '' ? '' : '…' });
    } else if (part['type'] === 'tool' && isRecord(part['state'])) {
      const state = part['state'];
      const bounded = (value: unknown): string | undefined => (typeof value === 'string' ? boundOutput(value) : undefined);
      parts.push({
        type: 'tool',
        tool: text(part['tool']),
        state: { status: text(state['status']), input: pathArguments(state['input']), output: bounded(state['output']), error: bounded(state['error']) },
      });
    }
  }
  // Only strings, booleans and plain objects, copied: a cut of a longer string (the head of a 5 MB output)
  // shares the whole string's characters in both V8 and JavaScriptCore, so a kept cut would keep it alive.
  const copy = structuredClone({ info: { id: text(info['id']), role: text(info['role']), summary: info['summary'] === true }, parts });
  keptCopies.add(copy);
  return copy;
}

/**
 * Whether a value looks like a message list (`client.session.messages` data)
 * or a session export (`{ info, messages }`), and its messages.
 *
 * @param input - parsed JSON or host data.
 * @returns the message array, or `null` for any other shape.
 */
export function messagesOf(input: unknown): unknown[] | null {
  if (Array.isArray(input)) return input;
  if (isRecord(input) && Array.isArray(input['messages'])) return input['messages'];
  return null;
}
