/**
 * The host's session events as the plugin's features read them. A deleted
 * session takes the state each feature keeps per session with it (the working
 * set, the window its last compaction read): every feature forgets its own on
 * the same event, told apart here once.
 */

/** The `event` hook's input (the host does not await it). */
export interface HostEventInput {
  event: { type: string; properties?: Record<string, unknown> };
}

/**
 * The id of the session a `session.deleted` event names; `null` for any
 * other event, and for one whose session carries no id.
 *
 * @param input - the `event` hook's input, as the host sent it.
 */
export function deletedSessionID(input: HostEventInput | undefined): string | null {
  const { type, properties } = input?.event ?? { type: '' };
  if (type !== 'session.deleted') return null;
  const info = properties?.['info'] as { id?: unknown } | undefined;
  return typeof info?.id === 'string' ? info.id : null;
}

/**
 * Whether an event says a session went idle: `session.idle`, or `session.status` with status `idle` (the
 * form both hosts send beside it, and the only one some 2.x builds send).
 *
 * @param input - the `event` hook's input, as the host sent it.
 */
export function isSessionIdle(input: HostEventInput | undefined): boolean {
  const event = input?.event;
  if (!event) return false;
  if (event.type === 'session.idle') return true;
  const status = (event.properties?.['status'] as { type?: unknown } | undefined)?.type;
  return event.type === 'session.status' && status === 'idle';
}
