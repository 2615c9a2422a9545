import { describe, expect, it } from 'vitest';
import {
  COMPACTING_SESSIONS_KEPT,
  COMPACTION_PROMPT_START,
  createV1CallKinds,
  ENVIRONMENT_LINE,
  SUMMARY_PROMPT_START,
  TITLE_PROMPT_START,
  v1CallKind,
} from '../../../../src/main/host/v1/call-kinds.js';

const MODEL = { id: 'm', providerID: 'fake' };

/** A work call's one system entry as 1.x builds it: the provider's prompt, then the environment block and the instructions. */
const WORK = ['You are a coding agent of the test provider.', ENVIRONMENT_LINE, '<env>', '  Working directory: /work/acme-shop', '</env>', 'Instructions from: AGENTS.md'].join('\n');
/** A subagent with a prompt of its own: the agent's prompt comes first, the environment block after it. */
const SUBAGENT = ['You are a file search specialist.', ENVIRONMENT_LINE, '<env>', '</env>'].join('\n');
/** A hidden agent's call: its prompt alone (1.x passes `system: []`), with the user message's own system text after it. */
const hidden = (start: string): string => `${start}\n\n<task>\nDo the one thing.\n</task>\n\nAnswer in British English.`;

describe('v1CallKind', () => {
  it('should tell the title, compaction and summary agents’ calls by the prompt their system text begins with', () => {
    const call = { sessionID: 'ses_a', model: MODEL };
    expect(v1CallKind(call, [hidden(TITLE_PROMPT_START)], false)).toBe('title');
    expect(v1CallKind(call, [hidden(COMPACTION_PROMPT_START)], false)).toBe('compaction');
    expect(v1CallKind(call, [hidden(SUMMARY_PROMPT_START)], false)).toBe('generate');
    // Split in two by a plugin that ran first: the first entry still names the agent.
    expect(v1CallKind(call, [TITLE_PROMPT_START, 'more'], false)).toBe('title');
  });

  it('should make a work call of a call with the environment block, whatever agent prompt comes first', () => {
    const call = { sessionID: 'ses_a', model: MODEL };
    expect(v1CallKind(call, [WORK], false)).toBe('primary');
    expect(v1CallKind(call, [SUBAGENT], false)).toBe('primary');
    // A compaction hook ran, but this call carries the environment: the compaction is over.
    expect(v1CallKind(call, [WORK], true)).toBe('primary');
  });

  it('should make the call of a compacting session without the environment block its compaction, its prompt replaced or not', () => {
    const call = { sessionID: 'ses_a', model: MODEL };
    expect(v1CallKind(call, ['You summarize sessions the way this team likes.'], true)).toBe('compaction');
    expect(v1CallKind(call, ['You summarize sessions the way this team likes.'], false)).toBe('primary');
  });

  it('should make a call without a session a one-off generation', () => {
    expect(v1CallKind({ model: MODEL }, ['You create agent configurations.'], false)).toBe('generate');
    expect(v1CallKind({ sessionID: '', model: MODEL }, [WORK], false)).toBe('generate');
    expect(v1CallKind(undefined, undefined, false)).toBe('generate');
  });

  it('should make any other shape a work call, so real work never loses its memory', () => {
    const call = { sessionID: 'ses_a', model: MODEL };
    expect(v1CallKind(call, [], false)).toBe('primary');
    expect(v1CallKind(call, undefined, false)).toBe('primary');
    expect(v1CallKind(call, [42, null, { text: TITLE_PROMPT_START }], false)).toBe('primary');
    // A title prompt the project replaced, or one a later release words otherwise.
    expect(v1CallKind(call, ['Name this conversation in three words.'], false)).toBe('primary');
    // The prompt's words, but not at its start: a work call that quotes them.
    expect(v1CallKind(call, [`${WORK}\n${TITLE_PROMPT_START}`], false)).toBe('primary');
  });
});

describe('createV1CallKinds', () => {
  it('should make the calls of a session between its compaction hook and their end its compaction, a title call still a title', () => {
    const kinds = createV1CallKinds();
    const call = { sessionID: 'ses_a', model: MODEL };
    const replaced = ['You summarize sessions the way this team likes.'];
    expect(kinds.kind(call, replaced)).toBe('primary');
    kinds.compacting('ses_a');
    // The title of the session's first turn, generated while its compaction runs.
    expect(kinds.kind(call, [hidden(TITLE_PROMPT_START)])).toBe('title');
    expect(kinds.kind(call, replaced)).toBe('compaction');
    expect(kinds.kind({ sessionID: 'ses_b', model: MODEL }, replaced)).toBe('primary');
    kinds.event({ event: { type: 'session.compacted', properties: { sessionID: 'ses_a' } } });
    expect(kinds.kind(call, replaced)).toBe('primary');
  });

  it('should end the mark at the session’s next work call, its idle or its error, and only that session’s', () => {
    const kinds = createV1CallKinds();
    const replaced = ['You summarize sessions the way this team likes.'];
    const of = (sessionID: string): { sessionID: string } => ({ sessionID });
    for (const id of ['ses_a', 'ses_b', 'ses_c', 'ses_d']) kinds.compacting(id);
    // A compaction that failed before its model call: the next work call goes on as work.
    expect(kinds.kind(of('ses_a'), [WORK])).toBe('primary');
    expect(kinds.kind(of('ses_a'), replaced)).toBe('primary');
    kinds.event({ event: { type: 'session.idle', properties: { sessionID: 'ses_b' } } });
    kinds.event({ event: { type: 'session.error', properties: { sessionID: 'ses_c' } } });
    kinds.event({ event: { type: 'message.updated', properties: { sessionID: 'ses_d' } } });
    kinds.event({ event: { type: 'session.idle' } });
    kinds.event(undefined);
    expect(kinds.kind(of('ses_b'), replaced)).toBe('primary');
    expect(kinds.kind(of('ses_c'), replaced)).toBe('primary');
    expect(kinds.kind(of('ses_d'), replaced)).toBe('compaction');
  });

  it('should keep the marks of the newest sessions only, past its bound', () => {
    const kinds = createV1CallKinds();
    const replaced = ['You summarize sessions the way this team likes.'];
    kinds.compacting(undefined);
    kinds.compacting('');
    for (let index = 0; index <= COMPACTING_SESSIONS_KEPT; index += 1) kinds.compacting(`ses_${index}`);
    expect(kinds.kind({ sessionID: 'ses_0' }, replaced)).toBe('primary');
    expect(kinds.kind({ sessionID: 'ses_1' }, replaced)).toBe('compaction');
    expect(kinds.kind({ sessionID: `ses_${COMPACTING_SESSIONS_KEPT}` }, replaced)).toBe('compaction');
  });
});
