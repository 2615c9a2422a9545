/**
 * What kind of model call OpenCode 1.x asks system text for. 1.x names no
 * kind: its `experimental.chat.system.transform` input is `{ sessionID, model }`
 * for every call of a session, work or not, and the agent is named only in
 * `chat.params`, which fires after it. So the call is told by what 1.x itself
 * puts there (verified in 1.18.33, `LLMRequestPrep.prepare`): `output.system`
 * holds one entry that begins with the agent's own prompt (or the provider's
 * when the agent has none), then the call's system parts. A work call's parts
 * start with the environment block (`SystemPrompt.environment`); the hidden
 * agents' calls (title, compaction) pass `system: []`, so theirs is their
 * built-in prompt alone. And 1.x runs `experimental.session.compacting` for
 * a session just before that session's compaction call.
 *
 * Only a call known to be hidden loses the plugin's blocks: any other shape is
 * a work call, so a prompt text changed by a later release or by a project's
 * config costs tokens on a hidden call, never memory on real work.
 */
import type { ModelCallKind, SystemCall } from '../host-port.js';
import type { HostEventInput } from '../host-events.js';

/** The first line of the `title` agent's built-in prompt (1.18.33 `agent/prompt/title.txt`). */
export const TITLE_PROMPT_START = 'You are a title generator. You output ONLY a thread title. Nothing else.';

/** The first sentence of the `compaction` agent's built-in prompt (1.18.33 `agent/prompt/compaction.txt`). */
export const COMPACTION_PROMPT_START = 'You are a context summarization agent.';

/**
 * The first line of the `summary` agent's built-in prompt (1.18.33 `agent/prompt/summary.txt`). 1.18.33
 * defines the agent but its session summary computes diffs without a model call; should a release call it,
 * it is a one-off generation.
 */
export const SUMMARY_PROMPT_START = 'Summarize what was done in this conversation. Write like a pull request description.';

/** A line of the environment block every work call of 1.x carries (1.18.33 `SystemPrompt.environment`). */
export const ENVIRONMENT_LINE = 'Here is some useful information about the environment you are running in:';

/** Sessions whose compaction may be in flight at once, past which the oldest mark goes. */
export const COMPACTING_SESSIONS_KEPT = 64;

const PROMPT_KINDS: readonly (readonly [string, ModelCallKind])[] = [
  [TITLE_PROMPT_START, 'title'],
  [COMPACTION_PROMPT_START, 'compaction'],
  [SUMMARY_PROMPT_START, 'generate'],
];

/**
 * The kind of one 1.x call, from its input and its system text as 1.x hands them over.
 *
 * - no session: `generate` (`Agent.generate`, `opencode agent create`, is the one call without a session);
 * - system text that begins with a hidden agent's built-in prompt: that agent's kind;
 * - a session whose compaction hook ran and whose call carries no environment block: `compaction` (the
 *   compaction agent's prompt replaced in the project's config, or reworded by a release);
 * - anything else: `primary`.
 *
 * @param call - the hook's input.
 * @param system - the hook's `output.system`, before any change.
 * @param compacting - whether the session's compaction hook ran and its compaction has not ended.
 */
export function v1CallKind(call: SystemCall | undefined, system: readonly unknown[] | undefined, compacting: boolean): ModelCallKind {
  if (typeof call?.sessionID !== 'string' || call.sessionID === '') return 'generate';
  const entries = Array.isArray(system) ? system.filter((entry): entry is string => typeof entry === 'string') : [];
  const first = entries[0] ?? '';
  for (const [start, kind] of PROMPT_KINDS) if (first.startsWith(start)) return kind;
  if (compacting && !entries.some((entry) => entry.includes(ENVIRONMENT_LINE))) return 'compaction';
  return 'primary';
}

/** What the 1.x adapter keeps to tell calls apart: the sessions whose compaction is under way. */
export interface V1CallKinds {
  /** The session's compaction hook runs: its compaction call comes next. */
  compacting(sessionID: string | undefined): void;
  /** Reads the host's events: a session's compaction ends with `session.compacted`, `session.idle` or `session.error`. */
  event(input: HostEventInput | undefined): void;
  /** The kind of a system-text call; a work call of a session ends that session's mark. */
  kind(call: SystemCall | undefined, system: readonly unknown[] | undefined): ModelCallKind;
}

const ENDS_COMPACTION = new Set(['session.compacted', 'session.idle', 'session.error']);

/** @param limit - sessions marked at once. @default COMPACTING_SESSIONS_KEPT */
export function createV1CallKinds(limit = COMPACTING_SESSIONS_KEPT): V1CallKinds {
  // Insertion order: the first is the oldest mark.
  const marked = new Set<string>();
  return {
    compacting(sessionID) {
      if (typeof sessionID !== 'string' || sessionID === '') return;
      marked.delete(sessionID);
      marked.add(sessionID);
      for (const oldest of marked) {
        if (marked.size <= limit) break;
        marked.delete(oldest);
      }
    },
    event(input) {
      const { type, properties } = input?.event ?? { type: '' };
      const sessionID = properties?.['sessionID'];
      if (ENDS_COMPACTION.has(type) && typeof sessionID === 'string') marked.delete(sessionID);
    },
    kind(call, system) {
      const sessionID = call?.sessionID;
      const kind = v1CallKind(call, system, typeof sessionID === 'string' && marked.has(sessionID));
      if (kind === 'primary' && typeof sessionID === 'string') marked.delete(sessionID);
      return kind;
    },
  };
}
