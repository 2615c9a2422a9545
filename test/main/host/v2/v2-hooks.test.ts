import { describe, expect, it } from 'vitest';
import { createOwnSessions, portEvent, toolSchema, withAddition } from '../../../../src/main/host/v2/v2-hooks.js';

describe('portEvent', () => {
  it('should turn session.compaction.ended into session.compacted carrying the summary', () => {
    expect(portEvent({ type: 'session.compaction.ended', data: { sessionID: 'ses_a', text: '## Goal\nShip it', reason: 'auto' } })).toEqual({
      type: 'session.compacted',
      properties: { sessionID: 'ses_a', summary: '## Goal\nShip it' },
    });
  });

  it('should drop a compaction that folded nothing, and events that are not events', () => {
    expect(portEvent({ type: 'session.compaction.ended', data: { sessionID: 'ses_a', text: '', failure: 'nothing-to-fold' } })).toBeNull();
    expect(portEvent({ type: 'session.compaction.ended', data: { sessionID: 'ses_a', text: 'x', failure: 'nothing-to-fold' } })).toBeNull();
    expect(portEvent({ type: 'session.compaction.ended', data: { text: 'no session' } })).toBeNull();
    for (const bad of [null, 'text', 42, [], { data: {} }, { type: 7 }]) expect(portEvent(bad)).toBeNull();
  });

  it('should pass other events under their own name with their data as properties', () => {
    expect(portEvent({ type: 'session.deleted', data: { info: { id: 'ses_b' } } })).toEqual({ type: 'session.deleted', properties: { info: { id: 'ses_b' } } });
    expect(portEvent({ type: 'session.idle', data: null })).toEqual({ type: 'session.idle', properties: {} });
  });
});

describe('withAddition', () => {
  it('should keep the addition inside the subagent element', () => {
    expect(withAddition('<subagent sessionID="c" state="completed">Done.\n</subagent>', '\n\nConfessionReport: all met')).toBe(
      '<subagent sessionID="c" state="completed">Done.\n\nConfessionReport: all met\n</subagent>',
    );
  });

  it('should append when the content has no closing element at its end', () => {
    expect(withAddition('Done.', '\n\nmore')).toBe('Done.\n\nmore');
    expect(withAddition('</subagent> then text', '!')).toBe('</subagent> then text!');
  });
});

describe('toolSchema', () => {
  it('should make every argument a string, the ones the tool needs required', () => {
    const schema = toolSchema({ description: 'd', args: { goal: { description: 'the goal' }, note: { description: 'n', optional: true } }, execute: async () => '' });
    expect(schema).toEqual({
      type: 'object',
      properties: { goal: { type: 'string', description: 'the goal' }, note: { type: 'string', description: 'n' } },
      required: ['goal'],
      additionalProperties: false,
    });
  });
});

describe('createOwnSessions', () => {
  it('should know the sessions added, forget the oldest past its bound, and never take a non-string', () => {
    const own = createOwnSessions(2);
    own.add('ses_a');
    own.add('ses_b');
    own.add(42);
    own.add('');
    expect([own.has('ses_a'), own.has('ses_b'), own.has(42)]).toEqual([true, true, false]);
    own.add('ses_a');
    own.add('ses_c');
    expect([own.has('ses_a'), own.has('ses_b'), own.has('ses_c')]).toEqual([true, false, true]);
  });
});
