/**
 * The OpenCode 2.x host the continuity run gives the plugin's `setup`: the
 * least of a 2.x plugin context that the scenario needs. Hooks are collected
 * as 2.x collects them and called as 2.x calls them: the `context` hook for
 * a work call with an empty `system`, the `compaction` hook with the
 * session's history as model-bound messages, and `session.compaction.ended`
 * with the summary's text on the event stream once the compaction hook has
 * run. Its `app.server` lists the stored sessions over HTTP
 * (continuity-server.ts), from which the plugin reads a compacted session
 * as 1.x reads it.
 */
import type {
  V2CompactionEvent,
  V2ContentPart,
  V2ContextEvent,
  V2Disposable,
  V2Event,
  V2HookExtra,
  V2Model,
  V2ModelMessage,
  V2PluginContext,
  V2ToolAfterEvent,
  V2ToolDefinition,
  V2ToolEvent,
} from '../main/host/v2/opencode-v2.js';

/** The version the context's `app` tells: the 2.x release the vendored types were checked against. */
export const CONTINUITY_V2_VERSION = '2.0.24';

type Callback<E> = (event: E, extra?: V2HookExtra) => void | Promise<void>;

interface Callbacks {
  context: Callback<V2ContextEvent>;
  compaction: Callback<V2CompactionEvent>;
  'execute.before': Callback<V2ToolEvent>;
  'execute.after': Callback<V2ToolAfterEvent>;
}

type Registry = { [K in keyof Callbacks]: Set<Callbacks[K]> };
type ToolTransform = (tools: { add(definition: V2ToolDefinition): void }) => void;

/** A 2.x context for one plugin instance, and the calls 2.x would make on what the plugin registered. */
export interface ContinuityContextV2 {
  ctx: V2PluginContext;
  /**
   * Runs every compaction callback on one event, as 2.x does before it asks the model for the summary.
   *
   * @param sessionID - the session being compacted.
   * @param messages - its history, `{ info, parts }`, oldest first; handed over as model-bound messages.
   * @returns the text of each entry the callbacks pushed into `system`.
   */
  compaction(sessionID: string, messages: readonly unknown[]): Promise<string[]>;
  /** Publishes `session.compaction.ended` with the summary's text to every subscriber. */
  compactionEnded(sessionID: string, text: string): void;
  /**
   * Runs every context callback for a work call (`kind: 'primary'`) with an empty `system`.
   *
   * @returns the text of each entry the callbacks pushed into `system`.
   */
  context(sessionID: string, model: V2Model): Promise<string[]>;
  /** Callbacks registered and not disposed, by hook; tool transforms under `transform`. */
  registered(): Record<keyof Callbacks | 'transform', number>;
  /** Ends every event stream, as 2.x does on unload. */
  close(): void;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The text a compaction request stands for in the model's history (as the 2.x contract host of the tests has it). */
export const COMPACTION_REQUEST_TEXT = 'What did we do so far?';

/** Where the model's history of a session starts: at its latest compaction (the request, else the summary), else at its start. */
function historyStart(messages: readonly unknown[]): number {
  const isSummary = (message: unknown): boolean => isRecord(message) && isRecord(message['info']) && message['info']['role'] === 'assistant' && message['info']['summary'] === true;
  const summary = messages.findLastIndex(isSummary);
  if (summary < 0) return 0;
  const before = messages[summary - 1];
  const request = isRecord(before) && Array.isArray(before['parts']) && (before['parts'] as unknown[]).some((part) => isRecord(part) && part['type'] === 'compaction');
  return request ? summary - 1 : summary;
}

/**
 * A session's `{ info, parts }` messages as the model-bound history 2.x's compaction hook hands over, in
 * the AI SDK's shapes: from the latest compaction on (its request as text, its summary as a reply: what
 * later turns send the model), text and reasoning parts as they are (ignored text left out, as it is never
 * sent; a user's text alone as a plain string), each finished tool part as a `tool-call` in its message and
 * a `tool-result` in a `tool` message after it (`{ type: 'text' | 'error-text', value }`), other parts
 * (step marks) left out, and a message with nothing to send too.
 *
 * @param messages - oldest first.
 */
export function modelMessages(messages: readonly unknown[]): V2ModelMessage[] {
  const history: V2ModelMessage[] = [];
  for (const message of messages.slice(historyStart(messages))) {
    if (!isRecord(message) || !isRecord(message['info']) || !Array.isArray(message['parts'])) continue;
    const { role, id } = message['info'];
    if (role !== 'user' && role !== 'assistant') continue;
    const content: V2ContentPart[] = [];
    const results: V2ContentPart[] = [];
    for (const part of message['parts'] as unknown[]) {
      if (!isRecord(part)) continue;
      const { type, text, state } = part;
      if (type === 'text' && typeof text === 'string' && part['ignored'] !== true) content.push({ type: 'text', text });
      else if (type === 'compaction') content.push({ type: 'text', text: COMPACTION_REQUEST_TEXT });
      else if (type === 'reasoning' && typeof text === 'string') content.push({ type: 'reasoning', text });
      else if (type === 'tool' && typeof part['tool'] === 'string' && isRecord(state)) {
        const toolCallId = typeof part['callID'] === 'string' ? part['callID'] : `call_${history.length}_${content.length}`;
        const toolName = part['tool'];
        content.push({ type: 'tool-call', toolCallId, toolName, input: state['input'] });
        if (state['status'] === 'completed') results.push({ type: 'tool-result', toolCallId, toolName, output: { type: 'text', value: typeof state['output'] === 'string' ? state['output'] : '' } });
        else if (state['status'] === 'error') results.push({ type: 'tool-result', toolCallId, toolName, output: { type: 'error-text', value: typeof state['error'] === 'string' ? state['error'] : '' } });
      }
    }
    if (content.length === 0) continue;
    const only = content.length === 1 ? content[0] : undefined;
    const plain = role === 'user' && only?.type === 'text' && typeof only['text'] === 'string' ? only['text'] : null;
    history.push({ role, content: plain ?? content, ...(typeof id === 'string' ? { id } : {}) });
    if (results.length > 0) history.push({ role: 'tool', content: results });
  }
  return history;
}

interface Stream {
  queued: V2Event[];
  waiting: ((result: IteratorResult<V2Event>) => void)[];
  closed: boolean;
}

/** Ends a stream: its waiting reads resolve as done, and nothing more is published to it. */
function endStream(stream: Stream, streams: Set<Stream>): IteratorResult<V2Event> {
  stream.closed = true;
  streams.delete(stream);
  for (const resolve of stream.waiting.splice(0)) resolve({ done: true, value: undefined });
  return { done: true, value: undefined };
}

/** An event stream 2.x's `subscribe()` returns: what is published after it was made, until it is closed. */
function eventStream(streams: Set<Stream>): AsyncIterable<V2Event> {
  const stream: Stream = { queued: [], waiting: [], closed: false };
  streams.add(stream);
  return {
    [Symbol.asyncIterator]: () => ({
      next: () => {
        const event = stream.queued.shift();
        if (event) return Promise.resolve({ done: false, value: event });
        if (stream.closed) return Promise.resolve({ done: true, value: undefined });
        return new Promise((resolve) => stream.waiting.push(resolve));
      },
      return: () => Promise.resolve(endStream(stream, streams)),
    }),
  };
}

function publish(streams: ReadonlySet<Stream>, event: V2Event): void {
  for (const stream of streams) {
    const waiting = stream.waiting.shift();
    if (waiting) waiting({ done: false, value: event });
    else stream.queued.push(event);
  }
}

/**
 * @param options - the plugin's options, as `ctx.options`.
 * @param directory - the project folder, as `ctx.location.directory`.
 * @param server - the service's message list, as `ctx.app.server`; without it the plugin reads only the
 *   compaction hook's history.
 */
export function createContinuityContextV2(options: Record<string, unknown>, directory: string, server?: { url: string; password: string }): ContinuityContextV2 {
  const registry: Registry = { context: new Set(), compaction: new Set(), 'execute.before': new Set(), 'execute.after': new Set() };
  const transforms = new Set<ToolTransform>();
  const streams = new Set<Stream>();
  function hook<K extends keyof Callbacks>(name: K, callback: Callbacks[K]): Promise<V2Disposable> {
    const callbacks = registry[name] as Set<Callbacks[K]>;
    callbacks.add(callback);
    return Promise.resolve({ dispose: () => void callbacks.delete(callback) });
  }
  const ctx: V2PluginContext = {
    options,
    app: { name: 'opencode', version: CONTINUITY_V2_VERSION, ...(server ? { server } : {}) },
    location: { directory },
    session: {
      hook,
      // The scenario prompts no session: a plugin that tries is told so.
      prompt: () => Promise.reject(new Error('the continuity run prompts no session')),
      wait: () => Promise.reject(new Error('the continuity run prompts no session')),
    },
    tool: {
      hook,
      transform(callback) {
        transforms.add(callback);
        return Promise.resolve({ dispose: () => void transforms.delete(callback) });
      },
    },
    event: { subscribe: () => eventStream(streams) },
  };
  const texts = (system: readonly { text: string }[]): string[] => system.map((part) => part.text);
  return {
    ctx,
    async compaction(sessionID, messages) {
      const event: V2CompactionEvent = { sessionID, system: [], messages: modelMessages(messages) };
      for (const callback of [...registry.compaction]) await callback(event);
      return texts(event.system);
    },
    compactionEnded(sessionID, text) {
      publish(streams, { type: 'session.compaction.ended', data: { sessionID, text, reason: 'manual' } });
    },
    async context(sessionID, model) {
      const event: V2ContextEvent = { sessionID, model, kind: 'primary', system: [], messages: [] };
      for (const callback of [...registry.context]) await callback(event);
      return texts(event.system);
    },
    registered: () => ({
      context: registry.context.size,
      compaction: registry.compaction.size,
      'execute.before': registry['execute.before'].size,
      'execute.after': registry['execute.after'].size,
      transform: transforms.size,
    }),
    close() {
      for (const stream of [...streams]) endStream(stream, streams);
    },
  };
}
