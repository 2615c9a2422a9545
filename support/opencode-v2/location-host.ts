/**
 * One location of the service: its `setup`, booted with its own context, and
 * the drivers a test runs through it, each as the 2.x host runs it: a model
 * call of a kind over the `context` hooks; a compaction over the `compaction`
 * hooks, then the summary stored and `session.compaction.ended` published; a
 * tool call between `execute.before` and `execute.after`, the `subagent` tool
 * with a child session answering from a script; a plugin tool by name.
 */
import type { V2CallKind, V2Cleanup, V2CompactionEvent, V2ContextEvent, V2Model, V2PluginContext, V2ToolAfterEvent, V2ToolDefinition, V2ToolEvent, V2ToolResult } from '../../src/main/host/v2/opencode-v2.js';
import { buildContext, type ContextParts, type LocationHooks } from './location-context.js';
import { modelMessages, type StoredSession } from './session-store.js';
import { checkToolDefinition, checkToolInput } from './tool-definition.js';
import { errorMessage } from './records.js';

/** The system text every model call starts with (the host's own prompt). */
export const BASE_SYSTEM = 'You are OpenCode, the best coding agent on the planet.';

/** The system text of a compaction's model call. */
export const COMPACTION_SYSTEM = 'Summarize the conversation so far with the template: ## Goal, ## Progress, ## Next Steps.';

const MODEL: V2Model = { providerID: 'contract', modelID: 'contract-model', id: 'contract/contract-model' };

/** What a model call's context hooks did. */
export interface ModelCall {
  /** The event after the hooks. */
  event: V2ContextEvent;
  /** The texts of every system entry after the hooks. */
  system: string[];
  /** The texts the hooks added after the host's own entries. */
  added: string[];
  /** Whether the hooks changed or removed one of the host's own entries. */
  baseChanged: boolean;
  /** Whether the hooks changed the model-bound messages. */
  messagesChanged: boolean;
}

/** What a compaction did. */
export interface Compaction extends Omit<ModelCall, 'event'> {
  event: V2CompactionEvent;
  /** Whether a hook set `result` (the model's summary is then skipped). */
  resultSet: boolean;
  /** The text `session.compaction.ended` carried. */
  text: string;
}

/** A tool call: the events as the hooks left them. */
export interface ToolCall {
  before: V2ToolEvent;
  after: V2ToolAfterEvent;
}

/** A subagent call. */
export interface SubagentCall extends ToolCall {
  /** The child session. */
  childID: string;
  /** The prompt the child received (after the before hooks). */
  prompt: string;
  /** The result the parent's model receives (after the after hooks). */
  result: V2ToolResult;
}

/** One booted location and its drivers. */
export interface LocationHost {
  readonly directory: string;
  readonly ctx: V2PluginContext;
  /** Starts a session of this location; returns its id. */
  createSession(options?: { id?: string; parentID?: string }): string;
  /** Appends a user and an assistant message to a session, as a turn leaves them. */
  turn(sessionID: string, user: string, assistant: string): void;
  /** One model call: `kind` as @03545fd sends it, or `undefined` for a host whose events carry none. */
  modelCall(sessionID: string, kind: V2CallKind | undefined, options?: { system?: string[] }): Promise<ModelCall>;
  /**
   * A compaction; `failure` publishes a failed one (`text: ""`, nothing stored), as one publisher does;
   * `stream: 'global'` publishes its events to every location, as builds with one stream for all folders do.
   */
  compact(sessionID: string, options: { summary: string; reason?: 'auto' | 'manual'; failure?: string; stream?: 'location' | 'global' }): Promise<Compaction>;
  /** Any host tool: the hooks around a result the test gives. */
  toolCall(sessionID: string, tool: string, input: Record<string, unknown>, result: V2ToolResult): Promise<ToolCall>;
  /** The `subagent` tool; the child answers `answers` in order (its first answer is the task's result). */
  subagent(sessionID: string, input: { prompt: string; description?: string; agent?: string }, answers: readonly string[]): Promise<SubagentCall>;
  /** The plugin tools the transforms add now. */
  tools(): Promise<V2ToolDefinition[]>;
  /** Calls a plugin tool by name, between the tool hooks; resolves to the content the model receives. */
  callTool(sessionID: string, name: string, input: Record<string, unknown>): Promise<string>;
  /**
   * Runs one hook's callbacks over an event the test made, malformed ones included, as a host whose
   * publishers disagree might send it: the callbacks must not throw (a throw is recorded).
   */
  rawHook(name: 'context' | 'compaction' | 'execute.before' | 'execute.after', event: unknown): Promise<void>;
  /** Publishes anything on this location's bus. */
  publish(event: unknown): void;
  /** Awaits the cleanup, disposes the registrations, closes the iterators. */
  unload(): Promise<void>;
  readonly unloaded: boolean;
}

/** What booting a location needs. */
export interface BootParts extends Omit<ContextParts, 'unloaded'> {
  setup: (ctx: V2PluginContext) => Promise<V2Cleanup | void> | V2Cleanup | void;
}

const texts = (event: V2ContextEvent): string[] => event.system.map((entry) => (typeof entry?.text === 'string' ? entry.text : JSON.stringify(entry)));

/**
 * Boots `setup` for one location and returns its drivers.
 *
 * @param parts - the service's parts, the directory, the options and the module's `setup`.
 * @throws what `setup` threw (recorded as a violation too).
 */
export async function bootLocation(parts: BootParts): Promise<LocationHost> {
  const { directory, sessions, records, bus, deadlineMs } = parts;
  let unloaded = false;
  const controller = new AbortController();
  const { ctx, hooks } = buildContext({ ...parts, unloaded: () => unloaded });
  const violation = (where: string, message: string): void => void records.violations.push({ location: directory, where, message });
  let cleanup: V2Cleanup | void;
  try {
    cleanup = await parts.setup(ctx);
  } catch (error) {
    violation('setup', `threw: ${errorMessage(error)}`);
    // The host drops a plugin whose setup failed: nothing it registered runs.
    for (const list of Object.values(hooks) as LocationHooks[keyof LocationHooks][]) list.disposeAll();
    bus.close(directory);
    throw error;
  }
  const own = (sessionID: string): StoredSession => {
    if (unloaded) throw new Error(`location ${directory} is unloaded`);
    const session = sessions.get(sessionID) ?? sessions.create(directory, { id: sessionID });
    if (session.location !== directory) throw new Error(`session ${sessionID} belongs to ${session.location}`);
    return session;
  };
  const callOf = <E extends V2ContextEvent>(event: E, base: string[], messagesBefore: string): Omit<ModelCall, 'event'> & { event: E } => {
    if (!Array.isArray(event.system)) {
      violation('system', `the hooks left system as ${typeof event.system}, not a list`);
      event.system = [];
    }
    event.system.forEach((entry, index) => {
      if (entry?.type !== 'text' || typeof entry.text !== 'string') violation('system', `entry ${index} is not a text part: ${JSON.stringify(entry)?.slice(0, 200)}`);
    });
    const all = texts(event);
    return { event, system: all, added: all.slice(base.length), baseChanged: base.some((text, index) => all[index] !== text), messagesChanged: JSON.stringify(event.messages) !== messagesBefore };
  };
  const runTool = async (sessionID: string, tool: string, input: Record<string, unknown>, execute: (event: V2ToolEvent) => Promise<V2ToolResult>): Promise<ToolCall> => {
    const session = own(sessionID);
    const before: V2ToolEvent = { tool, sessionID, agent: 'build', messageID: session.messages.at(-1)?.info.id ?? 'msg_none', id: sessions.callID(), input };
    await hooks.before.run(before, controller.signal);
    const result = await execute(before);
    const after: V2ToolAfterEvent = { ...before, status: 'completed', result };
    await hooks.after.run(after, controller.signal);
    const output = typeof after.result?.output === 'string' ? after.result.output : '';
    sessions.append(sessionID, 'assistant', [{ type: 'tool', callID: before.id ?? '', tool, state: { status: 'completed', input: before.input, output, title: tool, metadata: after.result?.metadata ?? {}, time: { start: 1, end: 2 } } }]);
    return { before, after };
  };
  const tools = async (): Promise<V2ToolDefinition[]> => {
    const added: V2ToolDefinition[] = [];
    await hooks.transform.run({ add: (definition) => void added.push(checkToolDefinition(definition)) }, controller.signal);
    const names = added.map((definition) => definition.name);
    for (const name of new Set(names)) if (names.filter((other) => other === name).length > 1) violation('tool.transform', `tool ${name} added twice`);
    return added;
  };

  const host: LocationHost = {
    directory,
    ctx,
    get unloaded() {
      return unloaded;
    },
    createSession: (options) => sessions.create(directory, options).id,
    turn(sessionID, user, assistant) {
      own(sessionID);
      sessions.append(sessionID, 'user', [{ type: 'text', text: user }]);
      sessions.append(sessionID, 'assistant', [{ type: 'text', text: assistant }]);
    },
    async modelCall(sessionID, kind, options = {}) {
      const session = own(sessionID);
      const base = options.system ?? [BASE_SYSTEM];
      const event: V2ContextEvent = { sessionID, model: MODEL, ...(kind ? { kind } : {}), system: base.map((text) => ({ type: 'text', text })), messages: modelMessages(session), options: {}, agent: kind === 'title' ? 'title' : 'build', tools: {} };
      const messagesBefore = JSON.stringify(event.messages);
      await hooks.context.run(event, controller.signal);
      return callOf(event, base, messagesBefore);
    },
    async compact(sessionID, { summary, reason = 'manual', failure, stream = 'location' }) {
      const session = own(sessionID);
      const publish = (event: unknown): void => (stream === 'global' ? bus.publishEverywhere(event) : bus.publish(directory, event));
      publish({ type: 'session.compaction.started', data: { sessionID, reason } });
      const base = [COMPACTION_SYSTEM];
      const event: V2CompactionEvent = { sessionID, model: MODEL, system: base.map((text) => ({ type: 'text', text })), messages: modelMessages(session), options: {}, agent: 'compaction', tools: {} };
      const messagesBefore = JSON.stringify(event.messages);
      await hooks.compaction.run(event, controller.signal);
      const resultSet = event.result !== undefined;
      records.compactions.push({ location: directory, sessionID, resultSet });
      // With `result` set the host keeps it instead of asking the model (PR #48212).
      const text = failure !== undefined ? '' : resultSet && typeof event.result?.summary === 'string' ? event.result.summary : summary;
      if (failure === undefined) {
        sessions.append(sessionID, 'user', [{ type: 'compaction', auto: reason === 'auto' }]);
        sessions.append(sessionID, 'assistant', [{ type: 'text', text }], { summary: true, mode: 'compaction' });
      }
      publish({ type: 'session.compaction.ended', data: { sessionID, text, reason, ...(failure !== undefined ? { failure } : {}) } });
      return { ...callOf(event, base, messagesBefore), resultSet, text };
    },
    toolCall: (sessionID, tool, input, result) => runTool(sessionID, tool, { ...input }, async () => result),
    async subagent(sessionID, input, answers) {
      let childID = '';
      let prompt = '';
      const call = await runTool(sessionID, 'subagent', { agent: input.agent ?? 'general', description: input.description ?? 'task', prompt: input.prompt }, async (event) => {
        const given = event.input['prompt'];
        if (typeof given !== 'string') violation('tool.hook(execute.before)', `left the subagent prompt as ${typeof given}`);
        prompt = String(given);
        childID = sessions.create(directory, { parentID: sessionID }).id;
        sessions.script(childID, ...answers);
        const text = sessions.answer(childID, prompt);
        return { output: text, content: `<subagent sessionID="${childID}" state="completed">${text}</subagent>`, metadata: { sessionID: childID } };
      });
      return { ...call, childID, prompt, result: call.after.result ?? {} };
    },
    tools,
    async callTool(sessionID, name, input) {
      const definition = (await tools()).find((candidate) => candidate.name === name);
      if (!definition) throw new Error(`no tool named ${name}`);
      checkToolInput(definition, input);
      const call = await runTool(sessionID, name, { ...input }, async (event) => {
        try {
          const answer = await definition.execute(event.input, { sessionID, agent: 'build', messageID: event.messageID ?? '', id: event.id ?? '', signal: controller.signal });
          if (typeof answer?.content !== 'string') violation(`tool(${name})`, `execute resolved to ${JSON.stringify(answer)?.slice(0, 200)}, not { content: string }`);
          return { output: String(answer?.content ?? ''), content: answer?.content, metadata: {} };
        } catch (error) {
          violation(`tool(${name})`, `execute threw: ${errorMessage(error)}`);
          return { output: `error: ${errorMessage(error)}`, metadata: {} };
        }
      });
      const content = call.after.result?.content ?? call.after.result?.output;
      return typeof content === 'string' ? content : JSON.stringify(content);
    },
    async rawHook(name, event) {
      if (unloaded) throw new Error(`location ${directory} is unloaded`);
      // The casts are the point: the event is whatever the test made, typed as the hook's own.
      if (name === 'context') await hooks.context.run(event as V2ContextEvent, controller.signal);
      else if (name === 'compaction') await hooks.compaction.run(event as V2CompactionEvent, controller.signal);
      else if (name === 'execute.before') await hooks.before.run(event as V2ToolEvent, controller.signal);
      else await hooks.after.run(event as V2ToolAfterEvent, controller.signal);
    },
    publish: (event) => bus.publish(directory, event),
    async unload() {
      if (unloaded) return;
      unloaded = true;
      if (typeof cleanup === 'function') {
        const run = cleanup;
        let timer: NodeJS.Timeout | undefined;
        try {
          const settled = await Promise.race([
            Promise.resolve().then(run).then(() => true),
            new Promise<false>((resolve) => {
              timer = setTimeout(() => resolve(false), deadlineMs);
            }),
          ]);
          if (!settled) violation('cleanup', `did not settle within ${deadlineMs} ms`);
        } catch (error) {
          violation('cleanup', `threw: ${errorMessage(error)}`);
        } finally {
          clearTimeout(timer);
        }
      }
      controller.abort();
      for (const list of Object.values(hooks) as LocationHooks[keyof LocationHooks][]) list.disposeAll();
      bus.close(directory);
    },
  };
  return host;
}
