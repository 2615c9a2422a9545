/**
 * What of the store's answers session start and task context may use with
 * the `project` memory scope: the whole graph, except another project's
 * session memory. That memory is what the plugin writes for a project — its
 * compaction notes and the notes superseding them, its digest, its summary
 * chain — and it is told apart by structure only: by the folder and slug the
 * plugin files a note under (project.ts, `sessionMemoryOwner`) and by the
 * SequentialThinking sessions the chain state records for each project. A
 * person's own notes, another tool's, and thinking sessions no project's
 * chain holds stay reachable, as the seed's search by the project's name and
 * its BuildContext find them.
 */
import { SESSION_ID } from '../../core/memory/memory-format.js';
import type { ActivityItem, SearchHit } from '../memory/memory-port.js';
import { sessionMemoryOwner, type Project } from '../shared/project.js';
import { withDeadline } from '../shared/deadline.js';
import type { ChainLookup } from './project-memory.js';

/** The sessions one project's chain record names (the chain state's fields, a thought in flight's included). */
export interface ChainSessionsRecord {
  sessionId?: string;
  previousSessionId?: string;
  earlierSessionIds?: readonly string[];
  inFlight?: { sessionId: string | null; continues?: string };
  unsettled?: readonly { sessionId: string | null; continues?: string }[];
}

/** The chain state, which also answers for every project at once. */
export interface ScopeChains extends ChainLookup {
  /** Every project's chain record, by project key. */
  records?(): Promise<Readonly<Record<string, ChainSessionsRecord>>>;
}

/** The summary chains a scope is judged by. */
export interface ChainSessions {
  /** The project's own chain: its current session, then its earlier ones. */
  own: readonly string[];
  /**
   * Every session another project's chain records; `null` when the chain state could not be read, and
   * then every thinking session outside the project's own chain is left out: what cannot be told apart
   * is not shown.
   */
  others: ReadonlySet<string> | null;
}

/** The filters of the `project` scope, one per kind of answer. */
export interface ScopeFilters {
  hit(hit: SearchHit): boolean;
  activity(item: ActivityItem): boolean;
  /** A related concept's file (BuildContext). */
  file(uri: string): boolean;
}

/**
 * The sessions a chain record names.
 *
 * @param record - one project's entry of the chain state.
 */
export function recordSessions(record: ChainSessionsRecord): string[] {
  const ids = [record.sessionId, record.previousSessionId, ...(record.earlierSessionIds ?? [])];
  for (const sent of [record.inFlight, ...(record.unsettled ?? [])]) if (sent) ids.push(sent.sessionId ?? undefined, sent.continues);
  return ids.filter((id): id is string => typeof id === 'string' && id !== '');
}

/**
 * The project's chain and every other project's, from one read of the chain state within `timeoutMs`.
 *
 * @param chains - the chain state.
 * @param project - the session's project.
 * @param own - its own chain's record, as already read (`null` when it has none).
 * @param timeoutMs - the read's deadline.
 */
export async function readChainSessions(chains: ScopeChains, project: Project, own: ChainSessionsRecord | null, timeoutMs: number): Promise<ChainSessions> {
  const ownIds = own ? recordSessions(own) : [];
  if (!chains.records) return { own: ownIds, others: null };
  const read = await withDeadline(chains.records(), timeoutMs);
  if (!read.done) return { own: ownIds, others: null };
  const others = new Set<string>();
  for (const [key, record] of Object.entries(read.value)) if (key !== project.key) for (const id of recordSessions(record)) others.add(id);
  // A session both chains name (a record copied by hand) is the project's own.
  for (const id of ownIds) others.delete(id);
  return { own: ownIds, others };
}

/** The session id a thinking session's URI ends with, or `null` for any other URI. */
function thinkingSession(uri: string): string | null {
  if (!uri.startsWith('memory://thinking/')) return null;
  const id = uri.slice(uri.lastIndexOf('/') + 1);
  return SESSION_ID.test(id) ? id : null;
}

/**
 * The `project` scope's filters: everything but another project's session memory.
 *
 * @param project - the session's project.
 * @param chains - its chain and the others' ({@link readChainSessions}).
 */
export function projectFilters(project: Project, chains: ChainSessions): ScopeFilters {
  const own = new Set(chains.own);
  const otherSession = (id: string): boolean => !own.has(id) && (chains.others === null || chains.others.has(id));
  const otherNote = (uriOrSlug: string): boolean => {
    const owner = sessionMemoryOwner(uriOrSlug);
    // A note of the first releases may be another folder's of the same name: not told apart, not shown.
    return owner.kind === 'unkeyed' || (owner.kind === 'project' && owner.key !== project.key);
  };
  const file = (uri: string): boolean => {
    const session = thinkingSession(uri);
    return session === null ? !otherNote(uri) : !otherSession(session);
  };
  return {
    hit: (hit) => file(hit.path),
    activity: (item) => (item.kind === 'sequential' ? !otherSession(item.id) : !otherNote(item.id)),
    file,
  };
}
