import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { exportHead, messagesOf, messageViewsOf } from '../../../src/main/session/session-export.js';

const sample: unknown = JSON.parse(readFileSync(new URL('../../fixtures/export-sample.json', import.meta.url), 'utf8'));

describe('messagesOf', () => {
  it('should accept an export and a bare message list, nothing else', () => {
    const messages = messagesOf(sample);
    expect(messages?.length).toBeGreaterThan(5);
    expect(messagesOf(messages)).toBe(messages);
    expect(messagesOf({ info: {} })).toBeNull();
    expect(messagesOf('text')).toBeNull();
    expect(messagesOf(null)).toBeNull();
  });
});

describe('messageViewsOf', () => {
  it('should read every message of an export once, leaving out entries that are not messages', () => {
    const views = messageViewsOf({ info: { id: 'ses' }, messages: [{ info: { id: 'a', role: 'user' }, parts: [] }, null, 'x', { info: { id: 'b', role: 'assistant' }, parts: [] }] });
    expect(views.map((view) => view.id)).toEqual(['a', 'b']);
    expect(messageViewsOf({ info: {} })).toEqual([]);
  });
});

describe('exportHead', () => {
  it("should read the session's id and directory, and nothing of a bare list or blank values", () => {
    expect(exportHead({ info: { id: 'ses_1', directory: '/w/app', title: 't' }, messages: [] })).toEqual({ id: 'ses_1', directory: '/w/app', metadata: { id: 'ses_1', directory: '/w/app', title: 't' } });
    expect(exportHead({ info: { id: '', directory: '  ' }, messages: [] })).toMatchObject({ id: null, directory: null });
    expect(exportHead([])).toEqual({ id: null, directory: null, metadata: null });
    expect(exportHead(null)).toEqual({ id: null, directory: null, metadata: null });
  });
});
