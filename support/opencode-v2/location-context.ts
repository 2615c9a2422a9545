/**
 * The `ctx` one location's `setup` is handed, built over the service's parts:
 * its own hook lists, `session.prompt`/`wait` over the shared session store,
 * the bus scoped to its directory, the app with the loopback server, and the
 * plugin's storage. Registration after unload, unknown hook names and
 * malformed prompts are refused and recorded.
 */
import type {
  V2CompactionEvent,
  V2ContextEvent,
  V2Disposable,
  V2Event,
  V2PluginContext,
  V2Session,
  V2ToolAfterEvent,
  V2ToolDefinition,
  V2ToolEvent,
  V2Tools,
} from '../../src/main/host/v2/opencode-v2.js';
import { createHookList, type HookCallback, type HookList } from './hook-list.js';
import type { ContractRecords } from './records.js';
import type { SessionStore } from './session-store.js';
import type { EventBus } from './event-bus.js';

/** What `transform` callbacks are handed. */
export interface ToolCollector {
  add(definition: V2ToolDefinition): void;
}

/** The hooks of one location. */
export interface LocationHooks {
  context: HookList<V2ContextEvent>;
  compaction: HookList<V2CompactionEvent>;
  before: HookList<V2ToolEvent>;
  after: HookList<V2ToolAfterEvent>;
  transform: HookList<ToolCollector>;
}

/** What the context is built from. */
export interface ContextParts {
  directory: string;
  options: Record<string, unknown>;
  app: NonNullable<V2PluginContext['app']>;
  storage: NonNullable<V2PluginContext['storage']>;
  sessions: SessionStore;
  bus: EventBus;
  records: ContractRecords;
  deadlineMs: number;
  /** Whether the location was unloaded: every call after it is refused. */
  unloaded(): boolean;
}

/** A context and the hooks it fills. */
export interface BuiltContext {
  ctx: V2PluginContext & { location: NonNullable<V2PluginContext['location']> };
  hooks: LocationHooks;
}

/** A short, stable id for a directory, as a project id stands for its folder. */
function projectID(directory: string): string {
  let hash = 2166136261;
  for (const char of directory) hash = Math.imul(hash ^ (char.codePointAt(0) ?? 0), 16777619) >>> 0;
  return `prj_${hash.toString(16).padStart(8, '0')}`;
}

/**
 * @param parts - the service's parts and this location's directory and options.
 */
export function buildContext(parts: ContextParts): BuiltContext {
  const { directory, records, sessions, deadlineMs } = parts;
  const list = <E>(name: 'context' | 'compaction' | 'execute.before' | 'execute.after' | 'transform', where: string): HookList<E> => createHookList<E>({ location: directory, name, where, records, deadlineMs });
  const hooks: LocationHooks = {
    context: list('context', 'session.hook(context)'),
    compaction: list('compaction', 'session.hook(compaction)'),
    before: list('execute.before', 'tool.hook(execute.before)'),
    after: list('execute.after', 'tool.hook(execute.after)'),
    transform: list('transform', 'tool.transform'),
  };
  const refuse = (where: string, message: string): Promise<never> => {
    records.violations.push({ location: directory, where, message });
    return Promise.reject(new Error(`${where}: ${message}`));
  };
  const register = <E>(where: string, target: HookList<E>, callback: unknown): Promise<V2Disposable> => {
    if (parts.unloaded()) return refuse(where, 'registered after the location was unloaded');
    if (typeof callback !== 'function') return refuse(where, 'the callback is not a function');
    return Promise.resolve(target.add(callback as HookCallback<E>));
  };

  function sessionHook(name: 'context', callback: HookCallback<V2ContextEvent>): Promise<V2Disposable>;
  function sessionHook(name: 'compaction', callback: HookCallback<V2CompactionEvent>): Promise<V2Disposable>;
  function sessionHook(name: string, callback: HookCallback<V2ContextEvent> | HookCallback<V2CompactionEvent>): Promise<V2Disposable> {
    if (name === 'context') return register('session.hook(context)', hooks.context, callback);
    if (name === 'compaction') return register('session.hook(compaction)', hooks.compaction, callback);
    return refuse('session.hook', `unknown hook ${JSON.stringify(name)}`);
  }
  function toolHook(name: 'execute.before', callback: HookCallback<V2ToolEvent>): Promise<V2Disposable>;
  function toolHook(name: 'execute.after', callback: HookCallback<V2ToolAfterEvent>): Promise<V2Disposable>;
  function toolHook(name: string, callback: HookCallback<V2ToolEvent> | HookCallback<V2ToolAfterEvent>): Promise<V2Disposable> {
    if (name === 'execute.before') return register('tool.hook(execute.before)', hooks.before, callback);
    if (name === 'execute.after') return register('tool.hook(execute.after)', hooks.after, callback);
    return refuse('tool.hook', `unknown hook ${JSON.stringify(name)}`);
  }

  const session: V2Session = {
    hook: sessionHook,
    prompt(input) {
      if (parts.unloaded()) return refuse('session.prompt', 'called after the location was unloaded');
      // Both forms the stored sources show: `{ sessionID, prompt: { text } }` and the flat `{ sessionID, text }`.
      const text = typeof input?.prompt?.text === 'string' ? input.prompt.text : input?.text;
      if (typeof input?.sessionID !== 'string' || typeof text !== 'string') return refuse('session.prompt', 'needs a sessionID and a text (prompt.text or text)');
      const target = sessions.get(input.sessionID);
      if (!target) return Promise.reject(new Error(`session ${input.sessionID} not found`));
      // Only queued: the answer comes with `wait`, as on the host.
      target.queued.push(text);
      return Promise.resolve({ sessionID: target.id, queued: target.queued.length });
    },
    async wait(input) {
      if (parts.unloaded()) return refuse('session.wait', 'called after the location was unloaded');
      const target = typeof input?.sessionID === 'string' ? sessions.get(input.sessionID) : undefined;
      if (!target) throw new Error(`session ${String(input?.sessionID)} not found`);
      // The answer is not there at once: the model runs after the caller's turn.
      await new Promise((resolve) => setImmediate(resolve));
      for (const text of target.queued.splice(0)) sessions.answer(target.id, text);
      return { sessionID: target.id, status: 'idle' };
    },
  };
  const tool: V2Tools = {
    hook: toolHook,
    transform: (callback) => register('tool.transform', hooks.transform, callback),
  };
  const event = {
    subscribe(): AsyncIterable<V2Event> {
      if (parts.unloaded()) {
        records.violations.push({ location: directory, where: 'event.subscribe', message: 'called after the location was unloaded' });
        return { [Symbol.asyncIterator]: () => ({ next: () => Promise.resolve({ done: true as const, value: undefined }) }) };
      }
      return parts.bus.subscribe(directory);
    },
  };
  const ctx = {
    options: { ...parts.options },
    app: parts.app,
    // Fixed for the setup's lifetime, as the host boots it.
    location: Object.freeze({ directory, project: Object.freeze({ id: projectID(directory), worktree: directory }) }),
    session,
    tool,
    event,
    storage: parts.storage,
  };
  return { ctx, hooks };
}
