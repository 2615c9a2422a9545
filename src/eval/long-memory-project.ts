/**
 * The generated project of `npm run eval -- --long`: sixty sessions of one
 * project, each a short conversation and the model's summary, with decisions
 * made, reversed and forgotten at known points. Session 1 makes six
 * decisions; two are reversed later (the session says so, and its summary
 * lists them under `Reversed decisions`), one is forgotten by the user;
 * every tenth session makes one decision of its own; the sessions in
 * between only work. What session 60's block must hold is known from the
 * schedule alone.
 */

/** A decision of the schedule and what becomes of it. */
export interface ScheduledDecision {
  /** The decision as the session says it (and the summary repeats). */
  text: string;
  /** The session that makes it. */
  madeIn: number;
  /** The session whose summary lists it as reversed, if any. */
  reversedIn?: number;
  /** The session before which the user forgets it (`opencode-maenifold forget`), if any. */
  forgottenBefore?: number;
}

/** The sessions of the project. */
export const LONG_SESSIONS = 60;

/** The schedule: session 1's decisions, then one every tenth session. */
export const SCHEDULE: readonly ScheduledDecision[] = [
  { text: 'keep the prices in integer cents because floats round wrong', madeIn: 1 },
  { text: 'store the cart sessions in SQLite because it needs no server', madeIn: 1 },
  { text: 'validate the requests with zod because the types come for free', madeIn: 1 },
  { text: 'render the invoices on the server because the printers need PDF', madeIn: 1, reversedIn: 20 },
  { text: 'log in JSON lines because the collector parses them', madeIn: 1, forgottenBefore: 30 },
  { text: 'deploy the shop on Fly because the team knows it', madeIn: 1, reversedIn: 45 },
  ...[10, 20, 30, 40, 50].map((session) => ({ text: `name the release branch after sprint ${session} because the tracker groups by sprint`, madeIn: session })),
];

/** A session of the project: what it says, and the summary its compaction stores. */
export interface LongSession {
  index: number;
  sessionID: string;
  /** Its messages before the compaction, `{ info, parts }`, oldest first. */
  messages: unknown[];
  summary: string;
}

function message(sessionID: string, id: string, role: 'user' | 'assistant', text: string, at: number): unknown {
  return { info: { id, sessionID, role, time: { created: at, ...(role === 'assistant' ? { completed: at + 1 } : {}) } }, parts: [{ type: 'text', text }] };
}

/**
 * Session `index` (1-based) of the project.
 *
 * @param index - which session.
 * @param at - the time of its first message, UTC milliseconds.
 */
export function longSession(index: number, at: number): LongSession {
  const sessionID = `ses_long${String(index).padStart(3, '0')}`;
  const made = SCHEDULE.filter((decision) => decision.madeIn === index);
  const reversed = SCHEDULE.filter((decision) => decision.reversedIn === index);
  const messages: unknown[] = [message(sessionID, `m${index}_0`, 'user', `Session ${index}: carry on with the shop, the checkout step ${index} is next.`, at)];
  made.forEach((decision, offset) => {
    messages.push(message(sessionID, `m${index}_q${offset}`, 'user', `What about point ${offset + 1}?`, at + 10 + offset * 10));
    messages.push(message(sessionID, `m${index}_a${offset}`, 'assistant', `We decided to ${decision.text}.`, at + 15 + offset * 10));
  });
  for (const decision of reversed) messages.push(message(sessionID, `m${index}_r`, 'assistant', `We no longer ${decision.text.split(' because ')[0]}: that decision is reversed.`, at + 200));
  messages.push(message(sessionID, `m${index}_z`, 'assistant', `Checkout step ${index} works now; the tests pass.`, at + 300));
  const summary = [
    '## Goal',
    `Carry on with the shop's checkout, step ${index}.`,
    '',
    '## Accomplished',
    `Checkout step ${index} works; the tests pass.`,
    '',
    '## Decisions',
    ...(made.length > 0 ? made.map((decision) => `- ${decision.text}`) : ['- none this session']),
    '',
    '## Reversed decisions',
    ...(reversed.length > 0 ? reversed.map((decision) => `- ${decision.text}`) : ['- none']),
    '',
    '## Next steps',
    `- checkout step ${index + 1}`,
  ].join('\n');
  return { index, sessionID, messages, summary };
}

/**
 * What session `index` must and must not receive of the schedule: the decisions made before it that are
 * neither reversed nor forgotten by then, and those that are.
 *
 * @param index - the session that starts.
 */
export function expectedAt(index: number): { kept: ScheduledDecision[]; gone: ScheduledDecision[] } {
  const before = SCHEDULE.filter((decision) => decision.madeIn < index);
  const isGone = (decision: ScheduledDecision): boolean => (decision.reversedIn !== undefined && decision.reversedIn < index) || (decision.forgottenBefore !== undefined && decision.forgottenBefore <= index);
  return { kept: before.filter((decision) => !isGone(decision)), gone: before.filter(isGone) };
}
