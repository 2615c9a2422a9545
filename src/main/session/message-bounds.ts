/**
 * How much of a message crosses to a worker. Worker memory is bounded by what
 * a task is given — under Bun (OpenCode's runtime) `resourceLimits` are not
 * enforced — so no single message, however large a paste or a tool's output,
 * may make a task unbounded.
 */

/**
 * How much of a tool's output crosses to a worker: its head and its tail. Build and test output puts
 * its first errors a few dozen lines in and its summary at the end, so both ends get room.
 */
export const TOOL_OUTPUT_HEAD_CHARS = 4_000;
export const TOOL_OUTPUT_TAIL_CHARS = 2_000;

/** How much of one message's text crosses to a worker: its head and its tail. */
export const MESSAGE_TEXT_HEAD_CHARS = 768 * 1024;
export const MESSAGE_TEXT_TAIL_CHARS = 256 * 1024;

/**
 * How much of a message's reasoning crosses to a worker: its end, where the model settles what the message's
 * tool calls then do. Read only for a message that edits or writes files (see thought-decisions.ts).
 */
export const REASONING_TAIL_CHARS = 3_000;

/**
 * A message's reasoning as it crosses: the last {@link REASONING_TAIL_CHARS} of its parts joined with a blank
 * line, from a line start when one is near. Only the last parts are joined: a pasted megabyte of reasoning
 * costs the hook's thread no copy.
 */
export function boundReasoning(parts: readonly string[]): string {
  let first = parts.length;
  let chars = 0;
  while (first > 0 && chars < REASONING_TAIL_CHARS) chars += (parts[--first] as string).length + 2;
  const text = parts.slice(first).map((part, index) => (index === 0 && part.length > REASONING_TAIL_CHARS ? part.slice(-REASONING_TAIL_CHARS) : part)).join('\n\n');
  if (text.length <= REASONING_TAIL_CHARS) return text;
  const start = text.length - REASONING_TAIL_CHARS;
  const line = text.indexOf('\n', start);
  return text.slice(line >= 0 && line < start + 400 ? line + 1 : start);
}

/** Tool calls of one message that are read: the most recent ones. */
export const TOOL_CALLS_PER_MESSAGE = 256;

/** A message's text as it crosses: whole, or its head and tail cut at line ends. */
export function boundText(text: string): string {
  if (text.length <= MESSAGE_TEXT_HEAD_CHARS + MESSAGE_TEXT_TAIL_CHARS) return text;
  // Cut at line ends, so no heading or fence line is split.
  const headEnd = text.lastIndexOf('\n', MESSAGE_TEXT_HEAD_CHARS);
  const tailStart = text.indexOf('\n', text.length - MESSAGE_TEXT_TAIL_CHARS);
  const head = text.slice(0, headEnd > 0 ? headEnd : MESSAGE_TEXT_HEAD_CHARS);
  const tail = text.slice(tailStart >= 0 ? tailStart + 1 : text.length - MESSAGE_TEXT_TAIL_CHARS);
  return `${head}\n…\n${tail}`;
}

/** A tool's output as it crosses: whole, or its head and tail. */
export function boundOutput(output: string): string {
  if (output.length <= TOOL_OUTPUT_HEAD_CHARS + TOOL_OUTPUT_TAIL_CHARS) return output;
  return `${output.slice(0, TOOL_OUTPUT_HEAD_CHARS)}\n…\n${output.slice(-TOOL_OUTPUT_TAIL_CHARS)}`;
}

/** Length of a tool output once bounded, without building it; 0 for anything but a string. */
export function boundedLength(output: unknown): number {
  if (typeof output !== 'string') return 0;
  return output.length <= TOOL_OUTPUT_HEAD_CHARS + TOOL_OUTPUT_TAIL_CHARS ? output.length : TOOL_OUTPUT_HEAD_CHARS + 3 + TOOL_OUTPUT_TAIL_CHARS;
}
