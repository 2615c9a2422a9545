/**
 * What is read of a session export (`opencode export <id>`: `{ info, messages }`) or of a bare message
 * list, wherever one is read from a file: the eval, the CLI's report and profile.
 */
import { isRecord, readMessage, type MessageView } from './message-view.js';

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

/**
 * The views of an export's or a list's messages, in order, without the entries that are not messages;
 * empty for any other shape.
 */
export function messageViewsOf(input: unknown): MessageView[] {
  const views: MessageView[] = [];
  for (const message of messagesOf(input) ?? []) {
    const view = readMessage(message);
    if (view) views.push(view);
  }
  return views;
}

/** What an export says of its session. */
export interface ExportHead {
  /** The session's id; `null` when it has none. */
  id: string | null;
  /** The session's own directory, the root its paths are relative to; `null` when it names none. */
  directory: string | null;
  /** Its whole metadata (`info`), or `null` for a bare list. */
  metadata: Record<string, unknown> | null;
}

/** @param input - a session export, a bare message list, or anything else. */
export function exportHead(input: unknown): ExportHead {
  const metadata = isRecord(input) && isRecord(input['info']) ? input['info'] : null;
  const id = metadata?.['id'];
  const directory = metadata?.['directory'];
  return {
    id: typeof id === 'string' && id !== '' ? id : null,
    directory: typeof directory === 'string' && directory.trim() !== '' ? directory : null,
    metadata,
  };
}
