/**
 * The port's hooks registered with OpenCode 2.x, each translated on the way
 * in and out:
 * - `session.hook('context')`: system text for work calls only (`kind`
 *   primary, or none), the same bytes on every call of a session;
 * - `session.hook('compaction')`: the compaction context pushed into the
 *   call's system, with the history the hook hands over as the session's
 *   messages; `result` is never set (that would drop the model's summary);
 * - `tool.hook('execute.before' | 'execute.after')`: 2.x's `subagent` tool
 *   as the port's `task`, its child session as `metadata.sessionId`;
 * - `tool.transform`: the plugin's tools as JSON Schema definitions;
 * - `event.subscribe()`: `session.compaction.ended` as `session.compacted`
 *   with the summary's text; other events under their own names.
 * Every callback catches everything: a 2.x hook that throws breaks the call.
 */
import { SUBAGENT_TOOL, type PluginHooks, type PluginTool } from '../host-port.js';
import { withDeadline } from '../../shared/deadline.js';
import { errorText, type Logger } from '../../shared/logger.js';
import type { CompactionHistories } from './v2-client.js';
import type { StableSystem } from './stable-system.js';
import { createRecentMap } from './recent-map.js';
import { isRecord } from '../../session/message-view.js';
import type { V2Disposable, V2Event, V2JsonSchema, V2PluginContext, V2ToolDefinition } from './opencode-v2.js';

/** The 2.x name of the subagent tool (`packages/core/src/tool/plugin/subagent.ts` @03cce40). */
export const V2_SUBAGENT_TOOL = 'subagent';

/** How long one registration may take before the plugin goes on without it. */
export const REGISTRATION_DEADLINE_MS = 5_000;

function text(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** A port tool's arguments as the JSON Schema 2.x's `add` takes. */
export function toolSchema(tool: PluginTool): V2JsonSchema {
  const properties: V2JsonSchema['properties'] = {};
  const required: string[] = [];
  for (const [name, arg] of Object.entries(tool.args)) {
    properties[name] = { type: 'string', description: arg.description };
    if (!arg.optional) required.push(name);
  }
  return { type: 'object', properties, required, additionalProperties: false };
}

/** The subagent's result text with what the plugin added, kept inside the `<subagent …>` element when there is one. */
export function withAddition(content: string, addition: string): string {
  const close = content.lastIndexOf('</subagent>');
  if (close < 0 || content.slice(close + '</subagent>'.length).trim() !== '') return `${content}${addition}`;
  return `${content.slice(0, close).replace(/\s+$/, '')}${addition}\n</subagent>${content.slice(close + '</subagent>'.length)}`;
}

/**
 * The port's event for a 2.x event, or `null` for one with nothing to act on.
 *
 * @param event - as the bus sent it.
 */
export function portEvent(event: unknown): { type: string; properties: Record<string, unknown> } | null {
  if (!isRecord(event) || typeof event['type'] !== 'string') return null;
  const data = isRecord(event['data']) ? event['data'] : {};
  if (event['type'] !== 'session.compaction.ended') return { type: event['type'], properties: data };
  const sessionID = text(data['sessionID']);
  const summary = text(data['text']);
  // A compaction with nothing to fold sends an empty text: no summary to keep.
  if (!sessionID || !summary?.trim() || data['failure'] !== undefined) return null;
  return { type: 'session.compacted', properties: { sessionID, summary } };
}

/** What registration needs. */
export interface V2HookParts {
  ctx: Required<Pick<V2PluginContext, 'session' | 'tool'>> & Pick<V2PluginContext, 'event'>;
  hooks: PluginHooks;
  logger: Logger;
  histories: CompactionHistories;
  stable: StableSystem;
}

/** Sessions remembered as this instance's own. */
export const OWN_SESSIONS = 5_000;

/**
 * The sessions this instance's hooks were called for. Some 2.x builds deliver events on one stream for
 * every project folder, and a compaction event names no folder: a summary is kept only for a session
 * whose hooks ran here (its compaction hook always runs before its `session.compaction.ended`).
 */
export function createOwnSessions(limit = OWN_SESSIONS): { add(sessionID: unknown): void; has(sessionID: unknown): boolean } {
  const own = createRecentMap<true>(limit);
  return {
    add(sessionID) {
      if (typeof sessionID === 'string' && sessionID !== '') own.set(sessionID, true);
    },
    has: (sessionID) => typeof sessionID === 'string' && own.has(sessionID),
  };
}

/** The registrations, and a way to end them and the event loop. */
export interface V2Registration {
  /** Disposes every registration and stops reading events; bounded, never rejects. */
  close(): Promise<void>;
}

/**
 * @param parts - the context, the plugin's hooks and the adapter's per-instance state.
 */
export async function registerV2Hooks(parts: V2HookParts): Promise<V2Registration> {
  const { ctx, hooks, logger, histories, stable } = parts;
  const own = createOwnSessions();
  const handles: V2Disposable[] = [];
  const register = async (what: string, registering: () => Promise<V2Disposable>): Promise<void> => {
    const done = await withDeadline(Promise.resolve().then(registering), REGISTRATION_DEADLINE_MS);
    if (done.done) handles.push(done.value);
    else logger.warn(`hook ${what}: ${done.reason === 'timeout' ? `not registered within ${REGISTRATION_DEADLINE_MS} ms` : `could not be registered: ${errorText(done.error)}`}; the plugin goes on without it`);
  };
  const guarded =
    <E>(what: string, run: (event: E) => Promise<void>) =>
    async (event: E): Promise<void> => {
      try {
        await run(event);
      } catch (error) {
        logger.error(`hook ${what}: failed, the call goes on unchanged: ${errorText(error)}`);
      }
    };

  const system = hooks['experimental.chat.system.transform'];
  if (system) {
    await register('context', () =>
      ctx.session.hook(
        'context',
        guarded('context', async (event) => {
          if (!isRecord(event) || !Array.isArray(event.system)) return;
          own.add(event.sessionID);
          if (event.kind !== undefined && event.kind !== 'primary') return;
          const sessionID = text(event.sessionID);
          let blocks = sessionID ? stable.get(sessionID) : undefined;
          if (!blocks) {
            const output = { system: [] as string[] };
            await system({ sessionID, model: event.model, kind: 'primary' }, output);
            blocks = output.system.filter((block) => typeof block === 'string' && block !== '');
            if (sessionID && blocks.length > 0) stable.set(sessionID, blocks);
          }
          for (const block of blocks) event.system.push({ type: 'text', text: block });
        }),
      ),
    );
  }

  const compacting = hooks['experimental.session.compacting'];
  if (compacting) {
    await register('compaction', () =>
      ctx.session.hook(
        'compaction',
        guarded('compaction', async (event) => {
          if (!isRecord(event) || typeof event.sessionID !== 'string' || !Array.isArray(event.system)) return;
          const { sessionID } = event;
          own.add(sessionID);
          histories.set(sessionID, Array.isArray(event.messages) ? event.messages : []);
          try {
            const output = { context: [] as string[] };
            await compacting({ sessionID }, output);
            for (const block of output.context) if (typeof block === 'string' && block !== '') event.system.push({ type: 'text', text: block });
          } finally {
            histories.delete(sessionID);
          }
        }),
      ),
    );
  }

  const before = hooks['tool.execute.before'];
  if (before) {
    await register('execute.before', () =>
      ctx.tool.hook(
        'execute.before',
        guarded('execute.before', async (event) => {
          if (!isRecord(event)) return;
          own.add(event.sessionID);
          if (event.tool !== V2_SUBAGENT_TOOL || !isRecord(event.input)) return;
          const input = event.input;
          const args: Record<string, unknown> = { ...input, subagent_type: input['agent'] };
          await before({ tool: SUBAGENT_TOOL, sessionID: text(event.sessionID), callID: text(event.id) }, { args });
          if (typeof args['prompt'] === 'string' && args['prompt'] !== input['prompt']) input['prompt'] = args['prompt'];
        }),
      ),
    );
  }

  const after = hooks['tool.execute.after'];
  if (after) {
    await register('execute.after', () =>
      ctx.tool.hook(
        'execute.after',
        guarded('execute.after', async (event) => {
          if (!isRecord(event) || typeof event.tool !== 'string' || !isRecord(event.result)) return;
          const result = event.result;
          const subagent = event.tool === V2_SUBAGENT_TOOL;
          const metadata: Record<string, unknown> = isRecord(result.metadata) ? { ...result.metadata } : {};
          if (subagent && typeof metadata['sessionID'] === 'string') metadata['sessionId'] = metadata['sessionID'];
          const shown = text(result.output) ?? text(result.content) ?? '';
          const output = { title: '', output: shown, metadata };
          await after({ tool: subagent ? SUBAGENT_TOOL : event.tool, sessionID: text(event.sessionID), callID: text(event.id), args: event.input }, output);
          if (typeof output.output !== 'string' || output.output === shown) return;
          const addition = output.output.startsWith(shown) ? output.output.slice(shown.length) : null;
          if (typeof result.output === 'string') result.output = output.output;
          if (typeof result.content === 'string') result.content = addition === null ? output.output : withAddition(result.content, addition);
          else if (result.output === undefined) result.output = output.output;
        }),
      ),
    );
  }

  const tools = hooks.tool;
  if (tools && Object.keys(tools).length > 0) {
    const definitions: V2ToolDefinition[] = Object.entries(tools).map(([name, tool]) => ({
      name,
      description: tool.description,
      input: toolSchema(tool),
      async execute(input, call) {
        const sessionID = text(call?.sessionID) ?? '';
        const answer = await tool.execute(isRecord(input) ? input : {}, { sessionID, agent: call?.agent, messageID: call?.messageID, callID: call?.id });
        // A frame pushed or popped changes this session's frame context.
        if (sessionID) stable.forget(sessionID);
        return { content: answer };
      },
    }));
    await register('tool.transform', () =>
      ctx.tool.transform((registry) => {
        for (const definition of definitions) registry.add(definition);
      }),
    );
  }

  const events = readEvents(ctx, hooks, logger, stable, own);
  return {
    async close() {
      events.stop();
      for (const handle of handles.splice(0)) {
        const done = await withDeadline(Promise.resolve().then(() => handle.dispose()), REGISTRATION_DEADLINE_MS);
        if (!done.done) logger.warn(`shutdown: a hook registration ${done.reason === 'timeout' ? 'did not dispose in time' : `failed to dispose: ${errorText(done.error)}`}`);
      }
    },
  };
}

/** Reads the bus until it closes or `stop` is called; each event is handed to the port's `event` hook. */
function readEvents(ctx: V2HookParts['ctx'], hooks: PluginHooks, logger: Logger, stable: StableSystem, own: ReturnType<typeof createOwnSessions>): { stop(): void } {
  const handle = hooks.event;
  if (!handle || !ctx.event) return { stop: () => undefined };
  let iterator: AsyncIterator<V2Event> | undefined;
  let stopped = false;
  try {
    iterator = ctx.event.subscribe()[Symbol.asyncIterator]();
  } catch (error) {
    logger.warn(`hook event: could not subscribe (${errorText(error)}); compaction summaries are not kept`);
    return { stop: () => undefined };
  }
  const source = iterator;
  void (async () => {
    while (!stopped) {
      let next: IteratorResult<V2Event>;
      try {
        next = await source.next();
      } catch (error) {
        if (!stopped) logger.warn(`hook event: the event stream failed (${errorText(error)}); compaction summaries are no longer kept`);
        return;
      }
      if (next.done || stopped) return;
      const event = portEvent(next.value);
      if (!event) continue;
      const sessionID = event.properties['sessionID'];
      if (event.type === 'session.compacted') {
        if (!own.has(sessionID)) continue;
        // The session's own compaction is when its blocks may change.
        stable.forget(String(sessionID));
      }
      if (event.type === 'session.deleted' && isRecord(event.properties['info']) && typeof event.properties['info']['id'] === 'string') stable.forget(event.properties['info']['id']);
      // Not awaited, as 1.x does not await its event hook: a slow handler never holds the stream.
      void handle({ event }).catch((error: unknown) => logger.error(`hook event: failed: ${errorText(error)}`));
    }
  })();
  return {
    stop() {
      stopped = true;
      void Promise.resolve()
        .then(() => source.return?.())
        .catch(() => undefined);
    },
  };
}
