/**
 * 2.x messages in the shape the plugin reads (`{ info, parts }`, see
 * session/message-view.ts). The HTTP message list answers in that shape
 * already; the compaction hook's history is model-bound (`role` and
 * `content`), so its text and tool calls are turned into parts here. Only
 * fields are moved: nothing is parsed or copied that the view does not read,
 * and anything malformed is left out rather than thrown on.
 */
import type { V2ModelMessage } from './opencode-v2.js';
import { isRecord } from '../../session/message-view.js';

type Part = Record<string, unknown>;

/** Whether a tool result is a failure: the AI SDK's `error-text` and `error-json` outputs. */
function failed(output: unknown): boolean {
  return isRecord(output) && (output['type'] === 'error-text' || output['type'] === 'error-json');
}

/** A tool result's output as text: AI SDK outputs are `{ type, value }`, older ones plain values. */
function outputText(output: unknown): string {
  if (typeof output === 'string') return output;
  if (isRecord(output) && typeof output['value'] === 'string') return output['value'];
  try {
    return JSON.stringify(output) ?? '';
  } catch {
    return '';
  }
}

/** A tool call's state after its result: 1.x keeps a failure as `status: 'error'` with its text as `error`. */
function toolState(output: unknown): Part {
  const text = outputText(output);
  return failed(output) ? { status: 'error', error: text } : { status: 'completed', output: text };
}

/**
 * One stored message for each message of `list` that has something to read, oldest first. Tool
 * results (in `tool` messages) join the call they answer, as 1.x keeps them in one part.
 *
 * @param list - the compaction hook's `e.messages`, or an HTTP page.
 * @param sessionID - names messages that carry no id.
 */
export function storedMessages(list: readonly unknown[], sessionID: string): unknown[] {
  const stored: unknown[] = [];
  const calls = new Map<string, Part>();
  for (const [index, entry] of list.entries()) {
    if (!isRecord(entry)) continue;
    if (isRecord(entry['info']) && Array.isArray(entry['parts'])) {
      stored.push(entry);
      continue;
    }
    const message = entry as Partial<V2ModelMessage>;
    const role = message.role;
    if (role !== 'user' && role !== 'assistant' && role !== 'tool') continue;
    const parts: Part[] = [];
    const content = message.content;
    if (typeof content !== 'string' && !Array.isArray(content)) continue;
    if (typeof content === 'string') parts.push({ type: 'text', text: content });
    else if (Array.isArray(content)) {
      for (const part of content as unknown[]) {
        if (!isRecord(part)) continue;
        const type = part['type'];
        if ((type === 'text' || type === 'reasoning') && typeof part['text'] === 'string') parts.push({ type, text: part['text'] });
        else if (type === 'tool-call' && typeof part['toolName'] === 'string') {
          const call: Part = { type: 'tool', tool: part['toolName'], callID: part['toolCallId'], state: { status: 'completed', input: part['input'] } };
          if (typeof part['toolCallId'] === 'string') calls.set(part['toolCallId'], call);
          parts.push(call);
        } else if (type === 'tool-result') {
          const id = part['toolCallId'];
          const call = typeof id === 'string' ? calls.get(id) : undefined;
          const result = toolState(part['output']);
          if (call && isRecord(call['state'])) Object.assign(call['state'], result);
          else if (typeof part['toolName'] === 'string') parts.push({ type: 'tool', tool: part['toolName'], state: result });
        }
      }
    }
    // A tool message whose results all joined their calls adds nothing; an empty reply is still a reply.
    if (parts.length === 0 && role === 'tool') continue;
    const id = typeof message.id === 'string' ? message.id : `${sessionID}:${index}`;
    stored.push({ info: { id, sessionID, role: role === 'tool' ? 'assistant' : role }, parts });
  }
  return stored;
}
