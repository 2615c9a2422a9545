/**
 * The OpenCode 2.x plugin API, as far as this plugin uses it, vendored as
 * local types: no `@opencode/*` package can be installed, and
 * `@opencode-ai/plugin@1.18.33`'s `./v2/promise` is the August preview, not
 * 2.0.x. Each shape names the file and commit of the `anomalyco/opencode`
 * source it follows. Where stored versions of the source disagree, the type
 * admits both and the adapter codes for both.
 *
 * Types only: nothing here runs.
 */

/** A hook registration's handle (`promise/adapter.ts` @07bc181). */
export interface V2Disposable {
  dispose(): void | Promise<void>;
}

/** What each hook callback may be handed besides its event (`(event)` or `(event, { signal })`, both seen). */
export interface V2HookExtra {
  signal?: AbortSignal;
}

/** The kind of model call a context hook fires for (`promise/session.ts` @03545fd; absent @ee2e318 and in 2.0.24). */
export type V2CallKind = 'primary' | 'compaction' | 'title' | 'generate';

/** One system entry (`promise/session.ts` @03545fd). */
export interface V2SystemPart {
  type: 'text';
  text: string;
}

/**
 * A model-bound message of the history (`e.messages`): `content`-keyed, not parts
 * (`promise/session.ts` @03545fd). Content is text or a list of typed parts.
 */
export interface V2ModelMessage {
  role: 'system' | 'user' | 'assistant' | 'tool';
  content: string | readonly V2ContentPart[];
  id?: string;
}

/** A part of a model-bound message's content. */
export type V2ContentPart =
  | { type: 'text'; text: string }
  | { type: 'reasoning'; text: string }
  | { type: 'tool-call'; toolCallId?: string; toolName: string; input?: unknown }
  | { type: 'tool-result'; toolCallId?: string; toolName: string; output?: unknown }
  | { type: string; [key: string]: unknown };

/** The model a call is made with. */
export interface V2Model {
  providerID?: string;
  modelID?: string;
  id?: string;
}

/** The `context` hook's event, mutated in place (`promise/session.ts` @03545fd). */
export interface V2ContextEvent {
  sessionID: string;
  model?: V2Model;
  kind?: V2CallKind;
  system: V2SystemPart[];
  messages: V2ModelMessage[];
  options?: Record<string, unknown>;
  agent?: string;
  tools?: unknown;
}

/** The `compaction` hook's event: the context event and the result; setting `result` skips the model's summary (PR #48212). */
export interface V2CompactionEvent extends V2ContextEvent {
  result?: { summary: string; [key: string]: unknown };
}

/** `ctx.session` (`promise/session.ts` @03545fd; prompt and wait `promise/adapter.ts` @07bc181). */
export interface V2Session {
  hook(name: 'context', callback: (event: V2ContextEvent, extra?: V2HookExtra) => void | Promise<void>): Promise<V2Disposable>;
  hook(name: 'compaction', callback: (event: V2CompactionEvent, extra?: V2HookExtra) => void | Promise<void>): Promise<V2Disposable>;
  /** Queues a prompt; `{ sessionID, prompt: { text } }` (client @8c6ff62) or flat `{ sessionID, text }` (other generated types). */
  prompt(input: { sessionID: string; prompt?: { text: string }; text?: string }): Promise<unknown>;
  /** Resolves when the session is idle again. */
  wait(input: { sessionID: string }): Promise<unknown>;
}

/** A tool hook's event (`promise/tool.ts` @196e461). */
export interface V2ToolEvent {
  tool: string;
  sessionID: string;
  agent?: string;
  messageID?: string;
  id?: string;
  input: Record<string, unknown>;
}

/** What a tool returned (`promise/tool.ts` @196e461). */
export interface V2ToolResult {
  output?: string;
  content?: unknown;
  metadata?: Record<string, unknown>;
}

/** `execute.after`'s event: the call, its status, and its result or error. */
export interface V2ToolAfterEvent extends V2ToolEvent {
  status?: string;
  result?: V2ToolResult;
  error?: unknown;
}

/** The context a plugin tool's `execute` is handed (`packages/schema/src/tool.ts` @0f131b3; `signal` absent @ab8f417). */
export interface V2ToolContext {
  sessionID: string;
  agent?: string;
  messageID?: string;
  id?: string;
  signal?: AbortSignal;
}

/** A JSON Schema object, one of the input forms `add` accepts. */
export interface V2JsonSchema {
  type: 'object';
  properties: Record<string, { type: 'string'; description?: string }>;
  required?: string[];
  additionalProperties?: boolean;
}

/** A plugin tool (`promise/tool.ts` @196e461). */
export interface V2ToolDefinition {
  name: string;
  description: string;
  input: V2JsonSchema;
  execute(input: Record<string, unknown>, context: V2ToolContext): Promise<{ content: string }>;
}

/** `ctx.tool` (`promise/tool.ts` @196e461). */
export interface V2Tools {
  hook(name: 'execute.before', callback: (event: V2ToolEvent, extra?: V2HookExtra) => void | Promise<void>): Promise<V2Disposable>;
  hook(name: 'execute.after', callback: (event: V2ToolAfterEvent, extra?: V2HookExtra) => void | Promise<void>): Promise<V2Disposable>;
  transform(callback: (tools: { add(definition: V2ToolDefinition): void }) => void): Promise<V2Disposable>;
}

/** An event on the bus: payloads under `data` (`packages/schema/src/session-event.ts` @0313097). */
export interface V2Event {
  type: string;
  data?: Record<string, unknown>;
}

/** `session.compaction.ended`'s payload (`session-compaction-event.ts` @9e3d245); some builds add `failure`. */
export interface V2CompactionEnded {
  sessionID: string;
  text: string;
  reason?: 'auto' | 'manual';
  failure?: string;
}

/** `ctx.event` (`promise/event.ts` @31ee1d6): the iterator closes on unload. */
export interface V2Events {
  subscribe(): AsyncIterable<V2Event>;
}

/** `ctx.app` (`packages/plugin/src/app.ts` @7527ad8): no log; the server, when there is one, for HTTP reads. */
export interface V2App {
  name?: string;
  version?: string;
  channel?: string;
  server?: { url: string; password?: string };
}

/** `ctx.location` (docs `migrate-v1`; missing from `promise/plugin.ts` @0ef9ef4's type). */
export interface V2Location {
  directory: string;
  project?: { id?: string; worktree?: string };
}

/** A per-plugin key-value store (`app.ts` @7527ad8); unused here, typed for completeness of the context. */
export interface V2Storage {
  get(key: string): Promise<unknown>;
  set(key: string, value: unknown): Promise<void>;
  remove(key: string): Promise<void>;
  scan(prefix?: string): AsyncIterable<[string, unknown]> | Promise<unknown>;
}

/**
 * What `setup` is handed (`promise/plugin.ts` @0ef9ef4). On 1.18.33, whose loader is the August
 * preview, `session`, `tool` and `event` are absent: the fields the plugin needs are optional here so
 * the adapter must check them.
 */
export interface V2PluginContext {
  options?: Record<string, unknown>;
  app?: V2App;
  location?: V2Location;
  session?: V2Session;
  tool?: V2Tools;
  event?: V2Events;
  storage?: V2Storage;
}

/** A cleanup `setup` may return, awaited on unload or replace (`promise/plugin.ts` @0ef9ef4). */
export type V2Cleanup = () => void | Promise<void>;

/** The default export 2.x decodes: `{ id, setup }`; extra keys are ignored. */
export interface V2PluginDefinition {
  id: string;
  setup(ctx: V2PluginContext): Promise<V2Cleanup | void> | V2Cleanup | void;
}

/** A message of `GET /api/session/:id/message` (client @8c6ff62): the 1.x-like `{ info, parts }` or a model message. */
export type V2StoredMessage = { info?: Record<string, unknown>; parts?: unknown[] } | V2ModelMessage;

/** `GET /api/session/:id/message?limit=&order=&cursor=`'s reply (client @8c6ff62). */
export interface V2MessagePage {
  data: V2StoredMessage[];
  cursor?: { previous?: string | null; next?: string | null };
}
