/**
 * The sessions of one service, stored as the host keeps them: `{ info, parts }`
 * messages (the 1.x stored shape, which the 2.x message pages serve), each
 * session owned by one location. Prompts are queued and answered on `wait`
 * by the session's scripted responder, which produces an assistant message.
 */
import type { V2ContentPart, V2ModelMessage } from '../../src/main/host/v2/opencode-v2.js';

/** A stored part. */
export type StoredPart =
  | { type: 'text'; text: string; synthetic?: boolean }
  | { type: 'tool'; callID: string; tool: string; state: { status: 'completed'; input: Record<string, unknown>; output: string; title: string; metadata: Record<string, unknown>; time: { start: number; end: number } } }
  | { type: 'compaction'; auto: boolean };

/** A stored message. `summary: true` marks a compaction's summary, as on 1.x. */
export interface StoredMessage {
  info: { id: string; role: 'user' | 'assistant'; sessionID: string; time: { created: number }; summary?: boolean; mode?: string };
  parts: StoredPart[];
}

/** Answers a prompt: given the prompt's text and the session, the assistant's text. */
export type Responder = (prompt: string, session: StoredSession) => string;

/** One session. */
export interface StoredSession {
  id: string;
  /** The directory of the location that owns it. */
  location: string;
  parentID?: string;
  messages: StoredMessage[];
  /** Prompts queued by `ctx.session.prompt`, answered on `wait`. */
  queued: string[];
  /** Every prompt the session received, queued or sent by a driver, oldest first. */
  prompts: string[];
}

/** The store of one service. */
export interface SessionStore {
  /** Starts a session (an id of its own when none is given). */
  create(location: string, options?: { id?: string; parentID?: string }): StoredSession;
  get(id: string): StoredSession | undefined;
  /** Appends a message of `role` made of `parts`; returns it. */
  append(sessionID: string, role: 'user' | 'assistant', parts: StoredPart[], extra?: { summary?: boolean; mode?: string }): StoredMessage;
  /** Queues answers for a session's next prompts, used in order; once used up, the session answers with empty text. */
  script(sessionID: string, ...answers: string[]): void;
  /** Replaces a session's responder. */
  respond(sessionID: string, responder: Responder): void;
  /** Runs the responder for one prompt: stores the prompt and the answer; returns the answer. */
  answer(sessionID: string, prompt: string): string;
  /** A fresh tool call id. */
  callID(): string;
}

/** Throws for an unknown session, as the host answers 404. */
function found(sessions: Map<string, StoredSession>, id: string): StoredSession {
  const session = sessions.get(id);
  if (!session) throw new Error(`session ${id} not found`);
  return session;
}

/** A new, empty store. */
export function createSessionStore(): SessionStore {
  const sessions = new Map<string, StoredSession>();
  const responders = new Map<string, Responder>();
  const scripts = new Map<string, string[]>();
  let messages = 0;
  let created = 0;
  let calls = 0;
  // Ids sort by creation, as the host's do; the clock is the counter so pages never tie.
  const pad = (n: number): string => String(n).padStart(6, '0');
  const store: SessionStore = {
    create(location, options = {}) {
      created += 1;
      const id = options.id ?? `ses_${pad(created)}`;
      if (sessions.has(id)) throw new Error(`session ${id} exists`);
      const session: StoredSession = { id, location, messages: [], queued: [], prompts: [], ...(options.parentID ? { parentID: options.parentID } : {}) };
      sessions.set(id, session);
      return session;
    },
    get: (id) => sessions.get(id),
    append(sessionID, role, parts, extra = {}) {
      const session = found(sessions, sessionID);
      messages += 1;
      const message: StoredMessage = { info: { id: `msg_${pad(messages)}`, role, sessionID, time: { created: messages }, ...extra }, parts };
      session.messages.push(message);
      return message;
    },
    script(sessionID, ...answers) {
      found(sessions, sessionID);
      scripts.set(sessionID, [...(scripts.get(sessionID) ?? []), ...answers]);
    },
    respond(sessionID, responder) {
      found(sessions, sessionID);
      responders.set(sessionID, responder);
    },
    answer(sessionID, prompt) {
      const session = found(sessions, sessionID);
      session.prompts.push(prompt);
      store.append(sessionID, 'user', [{ type: 'text', text: prompt }]);
      const responder = responders.get(sessionID);
      const text = responder ? responder(prompt, session) : (scripts.get(sessionID)?.shift() ?? '');
      store.append(sessionID, 'assistant', [{ type: 'text', text }]);
      return text;
    },
    callID: () => `call_${pad(++calls)}`,
  };
  return store;
}

/** The text a compaction request stands for in the model's history. */
export const COMPACTION_REQUEST_TEXT = 'What did we do so far?';

/**
 * The model-bound history of a session (`e.messages`): `content`-keyed messages, from its latest
 * compaction on (the request and the summary included, as later turns see them), tool results as
 * `tool` messages after the assistant message that called them, in the AI SDK's shapes.
 *
 * @param session - the stored session.
 */
export function modelMessages(session: StoredSession): V2ModelMessage[] {
  const all = session.messages;
  const summary = all.findLastIndex((message) => message.info.summary === true);
  const request = summary > 0 && all[summary - 1]?.parts.some((part) => part.type === 'compaction') ? summary - 1 : summary;
  const history: V2ModelMessage[] = [];
  for (const message of all.slice(Math.max(0, request))) {
    const content: V2ContentPart[] = [];
    const results: V2ContentPart[] = [];
    for (const part of message.parts) {
      if (part.type === 'text') content.push({ type: 'text', text: part.text });
      else if (part.type === 'compaction') content.push({ type: 'text', text: COMPACTION_REQUEST_TEXT });
      else {
        content.push({ type: 'tool-call', toolCallId: part.callID, toolName: part.tool, input: part.state.input });
        // The AI SDK's tool output shape: `{ type: 'text', value }`.
        results.push({ type: 'tool-result', toolCallId: part.callID, toolName: part.tool, output: { type: 'text', value: part.state.output } });
      }
    }
    // A user's text alone goes as a plain string, as the AI SDK's messages carry it.
    const only = content.length === 1 ? content[0] : undefined;
    const plain = message.info.role === 'user' && only?.type === 'text' && typeof only['text'] === 'string' ? only['text'] : null;
    history.push({ role: message.info.role, content: plain ?? content, id: message.info.id });
    if (results.length > 0) history.push({ role: 'tool', content: results });
  }
  return history;
}
