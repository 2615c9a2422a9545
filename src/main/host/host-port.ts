/**
 * The host port: everything the plugin needs from an OpenCode, whichever
 * line runs it. Features see only this vocabulary; `v1/` and `v2/` translate
 * it to and from each line's plugin API, as unified's plugins see one tree
 * whatever parser made it.
 *
 * Two directions:
 * - what the plugin calls on the host ({@link HostPort}): a session's
 *   messages page by page, prompting a session and reading its answer,
 *   starting a child session or a compaction where the line can, logging,
 *   and the project folder;
 * - what the host calls on the plugin ({@link PluginHooks}): system text for
 *   a kind of model call, compaction context, the host's events (a finished
 *   compaction with its summary when the line sends it), before and after a
 *   tool (the subagent tool among them), the plugin's own tools, shutdown.
 *
 * The vocabulary is 1.x's where 1.x had a word for it, because the 1.x line
 * is the one a real binary proves here; what 2.x names differently (the
 * `subagent` tool, `session.compaction.ended` with its text, the call's
 * `kind`) the 2.x adapter renames on the way in.
 */
import type { HostClient } from './host-client.js';
import type { HostEventInput } from './host-events.js';

export type { HostClient, SdkResult } from './host-client.js';
export type { HostEventInput } from './host-events.js';

/** The OpenCode line a plugin instance runs on. */
export type HostLine = 'v1' | 'v2';

/** Which host runs the plugin, for the start line and the tests. */
export interface HostIdentity {
  line: HostLine;
  /** The host's version when it tells one (2.x's `ctx.app.version`); `null` when it does not (1.x). */
  version: string | null;
}

/**
 * What kind of model call system text is asked for. Only work calls (`primary`) carry the plugin's
 * blocks: a title, a compaction or a one-off generation gains nothing from project memory, and a block
 * there costs tokens and leaks it into a title.
 */
export type ModelCallKind = 'primary' | 'compaction' | 'title' | 'generate';

/** The name of the subagent tool in the port's vocabulary (1.x `task`, 2.x `subagent`). */
export const SUBAGENT_TOOL = 'task';

/** What the plugin calls on its host, and where it runs. */
export interface HostPort {
  /** Sessions, messages and prompts; `client.app.log` takes the plugin's log lines. */
  client: HostClient;
  /** The folder the host runs in for this project. */
  directory?: string;
  /** The project's worktree (its root); the directory when the host names none. */
  worktree?: string;
  /** Which host this is. @default { line: 'v1', version: null } */
  host?: HostIdentity;
}

/** A system-text request: the session, its model, and the kind of call (absent: a work call). */
export interface SystemCall {
  sessionID?: string;
  model?: { id?: string; providerID?: string; modelID?: string };
  kind?: ModelCallKind;
}

/** An argument of a plugin tool: text the model writes. */
export interface PluginToolArg {
  description: string;
  /** @default false */
  optional?: boolean;
}

/** What a plugin tool's `execute` is told of its call. */
export interface PluginToolCall {
  sessionID: string;
  agent?: string;
  messageID?: string;
  callID?: string;
}

/**
 * One of the plugin's own tools, in the port's terms: text arguments, a text answer. Each adapter
 * builds its line's tool from it (1.x through `@opencode-ai/plugin`'s `tool()` helper, 2.x as a JSON
 * Schema definition).
 */
export interface PluginTool {
  description: string;
  args: Record<string, PluginToolArg>;
  /** Never rejects: a tool answers with what became of the request. */
  execute(args: Record<string, unknown>, call: PluginToolCall): Promise<string>;
}

type Handler<I, O> = (input: I, output: O) => Promise<void>;

/** `tool.execute.before`: the call and its arguments, changed in place. */
export type ToolBeforeHandler = Handler<{ tool: string; sessionID?: string; callID?: string }, { args: unknown }>;

/** `tool.execute.after`: the call and its result, changed in place; the subagent tool's child session is `metadata.sessionId`. */
export type ToolAfterHandler = Handler<{ tool: string; sessionID?: string; callID?: string; args?: unknown }, { title?: string; output: string; metadata?: unknown }>;

/** The compaction hook: context to add (`prompt` is never set: it would discard every other plugin's context). */
export type CompactingHandler = Handler<{ sessionID: string }, { context: string[]; prompt?: string }>;

/** System text of a model call, changed in place. */
export type SystemHandler = Handler<SystemCall, { system: string[] }>;

/**
 * What the host calls on the plugin. Events use the 1.x names: `session.compacted` (with
 * `properties.summary` when the host sent the summary's text), `session.idle`, `session.status`,
 * `session.deleted`.
 */
export interface PluginHooks {
  event?: (input: HostEventInput) => Promise<void>;
  'experimental.chat.system.transform'?: SystemHandler;
  'tool.execute.before'?: ToolBeforeHandler;
  'tool.execute.after'?: ToolAfterHandler;
  'experimental.session.compacting'?: CompactingHandler;
  /** The plugin's tools (the goal-frame tools `flame_push`, `flame_pop`, `flame_status`). */
  tool?: Record<string, PluginTool>;
  /** Awaited at shutdown; bounded, runs once, never rejects. */
  dispose?: () => Promise<void>;
}
