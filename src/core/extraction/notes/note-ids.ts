/**
 * The ids of the notes that carry their message's position: a user's
 * request, a step stated or carried, what the assistant was doing, a todo
 * item. The position keeps two messages' like notes apart; the final pass
 * tells the kinds apart by their prefix. Kept apart from the notes' readers,
 * so the hook thread can move an id without loading them.
 */

/** Id prefix of a user's request; the final pass keeps the latest ones only. */
export const REQUEST_PREFIX = 'next:request:';
/** Id prefix of a next step the assistant stated. */
export const STEP_PREFIX = 'next:step:';
/** Id prefix of a next step carried from a prior compaction summary. */
export const CARRIED_PREFIX = 'next:carried:';
/** Id prefix of what the assistant said it was doing while it worked; the final pass keeps the latest only. */
export const INTENT_PREFIX = 'next:intent:';
/** Id prefix of an open todo item; the final pass keeps those of the latest list only. */
export const TODO_PREFIX = 'next:todo:';

/** Every prefix above: each id goes on with its message's position, then `:` and the rest, if any. */
const POSITIONED_PREFIXES = [REQUEST_PREFIX, STEP_PREFIX, CARRIED_PREFIX, INTENT_PREFIX, TODO_PREFIX];

/**
 * A note's id once its message moves from position `from` to `to` (an analysis kept from an earlier read,
 * placed where this read has the message): the position it holds follows; any other id is unchanged.
 */
export function placedNoteId(id: string, from: number, to: number): string {
  const at = String(from);
  for (const prefix of POSITIONED_PREFIXES) {
    if (!id.startsWith(prefix)) continue;
    const rest = id.slice(prefix.length);
    return rest === at || rest.startsWith(`${at}:`) ? `${prefix}${to}${rest.slice(at.length)}` : id;
  }
  return id;
}
