/**
 * The host the continuity run gives the plugin: the parts of OpenCode's SDK
 * client the plugin calls, over one message store shared by every plugin
 * instance of the run (as OpenCode's own storage outlives its processes), and
 * a log per instance that never reaches the terminal.
 */
import type { HostClient } from '../main/host/host-client.js';

/** A line the plugin logged. */
export interface CapturedLog {
  level: string;
  message: string;
}

/** Sessions and their messages (`{ info, parts }`, oldest first), as OpenCode keeps them. */
export type MessageStore = Map<string, unknown[]>;

/** A host for one plugin instance. */
export interface ContinuityHost {
  client: HostClient;
  /** What the instance logged, in order. */
  logs: CapturedLog[];
}

/** The header OpenCode puts the next (older) page's cursor in. */
const NEXT_CURSOR = 'x-next-cursor';

/**
 * A page as OpenCode 1.18.33 serves it: with `limit`, the newest `limit`
 * messages older than the `before` cursor, oldest first, and the cursor of
 * the next older page in a header (none on the oldest page).
 */
function page(all: readonly unknown[], limit: number | undefined, before: string | undefined): { data: unknown[]; next: string | null } {
  if (!limit) return { data: [...all], next: null };
  const end = before === undefined ? all.length : Math.max(0, Math.min(all.length, Number(before) || 0));
  const start = Math.max(0, end - limit);
  return { data: all.slice(start, end), next: start > 0 ? String(start) : null };
}

/**
 * @param store - the sessions every instance of the run sees.
 * @returns a client whose calls resolve to `{ data, error }`; `session.prompt` answers with an empty reply.
 */
export function createContinuityHost(store: MessageStore): ContinuityHost {
  const logs: CapturedLog[] = [];
  let created = 0;
  const client: HostClient = {
    app: {
      async log({ body }) {
        logs.push({ level: body.level, message: body.message });
        return { data: true };
      },
    },
    session: {
      async messages({ path, query }) {
        const all = store.get(path.id);
        if (!all) return { error: { message: `session ${path.id} not found` } };
        const { data, next } = page(all, query?.limit, query?.before);
        return { data, response: { headers: { get: (name: string) => (name.toLowerCase() === NEXT_CURSOR ? next : null) } } };
      },
      async prompt() {
        return { data: { info: { role: 'assistant' }, parts: [{ type: 'text', text: '' }] } };
      },
      async create() {
        created += 1;
        const id = `ses_continuity_child_${created}`;
        store.set(id, []);
        return { data: { id } };
      },
      async summarize() {
        return { data: true };
      },
    },
  };
  return { client, logs };
}

/**
 * The two messages OpenCode stores for a manual compaction: the user's request, a `compaction` part,
 * and the summary, an assistant message with `summary: true` in mode `compaction`, its child.
 *
 * @param sessionID - the compacted session.
 * @param summary - the summary's text.
 * @param at - when it was stored, in ms since the epoch.
 */
export function compactionMessages(sessionID: string, summary: string, at: number): unknown[] {
  const requestID = `msg_compaction_request_${at}`;
  return [
    { info: { id: requestID, sessionID, role: 'user', time: { created: at } }, parts: [{ type: 'compaction', auto: false }] },
    {
      info: { id: `msg_compaction_summary_${at}`, sessionID, role: 'assistant', parentID: requestID, summary: true, mode: 'compaction', time: { created: at + 1, completed: at + 2 } },
      parts: [{ type: 'text', text: summary }],
    },
  ];
}
