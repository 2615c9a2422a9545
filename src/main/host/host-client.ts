/**
 * The part of OpenCode's SDK client the plugin uses, typed loosely on
 * purpose: calls resolve to `{ data, error }`, and a structural type keeps the
 * plugin working across SDK versions and lets tests pass a fake.
 */
import type { LogClient } from '../shared/logger.js';

/**
 * How long background work waits for the host to list a session's messages
 * (the compacting hook has its own budget for it). A list took ~40 ms in
 * tests; a host that has not answered in 10 s is not going to soon.
 */
export const HOST_READ_DEADLINE_MS = 10_000;

/** An SDK call's result. */
export interface SdkResult<T> {
  data?: T;
  error?: unknown;
  /** The HTTP response, whose headers carry paging cursors. */
  response?: { headers?: { get(name: string): string | null } };
}

/** What the plugin calls on the host. */
export interface HostClient extends LogClient {
  session: {
    /**
     * The session's messages, oldest first; with `limit`, the newest `limit` of them (older than the
     * `before` cursor when given), and the next cursor in the `X-Next-Cursor` header.
     */
    messages(options: { path: { id: string }; query?: { limit?: number; before?: string } }): Promise<SdkResult<unknown[]>>;
    prompt(options: {
      path: { id: string };
      body: { parts: { type: 'text'; text: string }[]; noReply?: boolean; agent?: string };
    }): Promise<SdkResult<unknown>>;
    /** Starts a session; goal frames start child sessions with `parentID`. */
    create?(options: { body: { parentID?: string; title?: string } }): Promise<SdkResult<{ id?: string }>>;
    /** A compaction of a session; resolves after the summary is stored. */
    summarize?(options: { path: { id: string }; body: { providerID: string; modelID: string } }): Promise<SdkResult<unknown>>;
  };
}
