/**
 * The shape of an OpenCode session export (`opencode export <id>`).
 *
 * Types only, and deliberately loose: the export comes from the host, which
 * adds fields between versions, so everything not read here stays open.
 * Code that reads an export still checks each field it uses.
 */

/** When a part started and, once done, ended (epoch milliseconds). */
export interface PartTime {
  start: number;
  end?: number;
}

/** Text written by the user or the model; `synthetic` marks the host's own words. */
export interface TextPart {
  type: 'text';
  text: string;
  id?: string;
  messageID?: string;
  sessionID?: string;
  synthetic?: boolean;
  time?: PartTime;
  metadata?: Record<string, unknown>;
}

/** Where a tool call stands and, once finished, what it returned or why it failed. */
export interface ToolState {
  status: 'completed' | 'error' | 'running' | 'pending';
  input: Record<string, unknown>;
  output?: string;
  error?: string;
  title?: string;
  metadata?: Record<string, unknown>;
  time?: PartTime;
}

/** One tool call: `read`, `edit`, `bash`, … with its state. */
export interface ToolPart {
  type: 'tool';
  tool: string;
  callID?: string;
  id?: string;
  messageID?: string;
  sessionID?: string;
  state: ToolState;
}

/** Any other part (`step-start`, `step-finish`, `compaction`, `reasoning`, …). */
export interface OtherPart {
  type: string;
  [key: string]: unknown;
}

/** One part of a message. */
export type SessionPart = TextPart | ToolPart | OtherPart;

/** One message: its metadata and its parts, in order. */
export interface SessionMessage {
  info: {
    id: string;
    role: 'user' | 'assistant';
    sessionID: string;
    /** Epoch milliseconds; `completed` is set on finished assistant messages. */
    time: { created: number; completed?: number };
    [key: string]: unknown;
  };
  parts: SessionPart[];
}

/** A whole export: the session's metadata and its messages, oldest first. */
export interface SessionExport {
  info: Record<string, unknown> & { id: string };
  messages: SessionMessage[];
}
