import { afterEach, describe, expect, it, vi } from 'vitest';
import { resolveProject } from '../../../src/main/shared/project.js';
import { buildCompactionNote } from '../../../src/main/compaction/compaction-note.js';
import type { Extraction } from '../../../src/main/compaction/extraction-engine.js';

const extraction = {
  concepts: [{ name: 'redis', count: 2 }],
  decisions: [{ family: 'explicit', category: 'implementation', text: 'use Redis for the cache', context: '' }],
  files: ['src/cache.ts'],
} as unknown as Extraction;

// maenifold's title sanitation and slug (maenifold-cli.md).
function slugOf(title: string): string {
  const clean = title.replace(/[:|>\-[\]{}#&*!@`'$();"<>\\/]|\.\./g, '');
  return clean.toLowerCase().replace(/[\s_]+/g, '-').replace(/[^a-z0-9-]/g, '').replace(/-+/g, '-');
}

describe('buildCompactionNote', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it('should name a note by its UTC time, so the notes of processes in other time zones sort newest first', () => {
    const project = resolveProject('My App', '');
    const name = (at: string, zone: string): string => {
      // Node reads TZ again when it changes: local time follows it within one process.
      vi.stubEnv('TZ', zone);
      const note = buildCompactionNote(project, 'ses_1', extraction, new Date(at));
      return slugOf(note.title);
    };
    const inUtc = name('2026-12-01T05:00:00.000Z', 'UTC');
    // An hour later, in UTC-11, where it is still the evening before.
    const inSamoa = name('2026-12-01T06:00:00.000Z', 'Pacific/Pago_Pago');
    expect(new Date('2026-12-01T06:00:00.000Z').getHours()).toBe(19);
    expect(inSamoa).toContain('20261201-060000000');
    expect([inSamoa, inUtc].sort().reverse()).toEqual([inSamoa, inUtc]);
  });

  it("should file the note in its project's folder, tag the project and link outside code", () => {
    const note = buildCompactionNote('My App', 'ses_abc123def456', extraction, new Date(2026, 0, 27, 9, 5, 7, 42));
    const key = resolveProject('My App', '').key;
    expect(key).toMatch(/^my-app-[0-9a-f]{8}$/);
    expect(note.folder).toBe(`sessions/compaction/${key}`);
    expect(note.tags).toEqual(['compaction', 'session', 'my-app', key]);
    expect(note.content).toContain('**Project**: my-app\n');
    expect(note.content).toContain(`**Project key**: ${key}\n`);
    expect(note.content).toContain('- [[redis]]');
    expect(note.content).toContain('- implementation: use Redis for the cache');
    expect(note.content).toContain('- src/cache.ts');
    expect(note.content).not.toContain('```');
  });

  it("should link only the session's concepts: the plugin's words and the project stay in the tags", () => {
    const linked = { ...extraction, concepts: [{ name: 'compaction', count: 3 }, { name: 'my-app', count: 2 }, { name: 'websocket', count: 4 }, { name: 'kill-switch', count: 2 }] } as unknown as Extraction;
    const note = buildCompactionNote('My App', 'ses_1', linked, new Date(2026, 0, 27));
    const links = [...note.content.matchAll(/\[\[([^\]]+)\]\]/g)].map((match) => match[1]);
    expect(links).toEqual(['websocket', 'kill-switch']);
    expect(note.tags.slice(0, 3)).toEqual(['compaction', 'session', 'my-app']);
  });

  it('should file a note that names no topic under its project, so maenifold still accepts it', () => {
    const bare = { ...extraction, concepts: [{ name: 'compaction', count: 1 }] } as unknown as Extraction;
    const note = buildCompactionNote('My App', 'ses_1', bare, new Date(2026, 0, 27));
    expect([...note.content.matchAll(/\[\[([^\]]+)\]\]/g)].map((match) => match[1])).toEqual(['my-app']);
  });

  it('should name the whole session id: OpenCode ids share their first characters', () => {
    const a = buildCompactionNote('My App', 'ses_4f2a91c07ffeYb3LqP0aZt2mQw', extraction, new Date(2026, 0, 27));
    const b = buildCompactionNote('My App', 'ses_4f2a91c07ffeK8sVn1RrTx5uHd', extraction, new Date(2026, 0, 27));
    expect(a.content).toContain('**Session**: ses_4f2a91c07ffeYb3LqP0aZt2mQw\n');
    expect(b.content).toContain('**Session**: ses_4f2a91c07ffeK8sVn1RrTx5uHd\n');
    expect(slugOf(a.title)).not.toBe(slugOf(b.title));
  });

  it('should keep markup out of the session line', () => {
    const note = buildCompactionNote('My App', 'ses_1]] [[evil `x`', extraction, new Date(2026, 0, 27));
    expect(note.content).toContain('**Session**: ses_1evilx\n');
  });

  it('should give titles that stay distinct after sanitation', () => {
    const a = buildCompactionNote('proj: x', 'ses_1', extraction, new Date(2026, 0, 27, 9, 5, 7, 42));
    const b = buildCompactionNote('proj: x', 'ses_1', extraction, new Date(2026, 0, 27, 9, 5, 7, 43));
    const c = buildCompactionNote('proj: x', 'ses_2', extraction, new Date(2026, 0, 27, 9, 5, 7, 42));
    expect(new Set([slugOf(a.title), slugOf(b.title), slugOf(c.title)]).size).toBe(3);
    expect(a.title.length).toBeLessThan(200);
  });

  it('should carry the open problems, what is in progress (the newest first) and the problems settled, each under its own heading, as plain lines', () => {
    const live = {
      ...extraction,
      observations: [
        { id: 'p1', type: 'problem', text: 'tsc: src/cache.ts(12,3): error TS2345 in [[cache]] ```', order: 4, frequency: 1 },
        { id: 'w1', type: 'warning', text: 'resolved: npm test failed on the retry path', order: 5, frequency: 1 },
      ],
      next: ['wire the cache into the API handlers', 'add a test for eviction'],
    } as unknown as Extraction;
    const note = buildCompactionNote('My App', 'ses_1', live, new Date(2026, 0, 27));
    expect(note.content).toContain('## Open Problems\n\n- tsc: src/cache.ts(12,3): error TS2345 in cache `\n');
    // A settled problem is not an open one: it has its own list.
    expect(note.content.split('## Problems Met')[0]).not.toContain('resolved: npm test');
    expect(note.content).toContain('## Problems Met\n\n- resolved: npm test failed on the retry path\n');
    expect(note.content).toContain('## In Progress\n\n- add a test for eviction\n- wire the cache into the API handlers\n');
    expect([...note.content.matchAll(/\[\[([^\]]+)\]\]/g)].map((match) => match[1])).toEqual(['redis']);
  });

  it("should list the problems the compaction prompt's budget left out after the ones it kept", () => {
    const budgeted = {
      ...extraction,
      observations: [{ id: 'p1', type: 'problem', text: 'the cache test times out on CI', order: 4, frequency: 1 }],
      unbudgeted: [
        { id: 'p2', type: 'problem', text: 'eviction drops entries still in use', order: 6, frequency: 1 },
        { id: 'w2', type: 'warning', text: 'worked around: the Redis port clashed with the dev proxy', order: 7, frequency: 1 },
      ],
    } as unknown as Extraction;
    const note = buildCompactionNote('My App', 'ses_1', budgeted, new Date(2026, 0, 27));
    expect(note.content).toContain('## Open Problems\n\n- the cache test times out on CI\n- eviction drops entries still in use\n');
    expect(note.content).toContain('## Problems Met\n\n- worked around: the Redis port clashed with the dev proxy\n');
  });

  it('should print no empty section for problems or work in progress', () => {
    const note = buildCompactionNote('My App', 'ses_1', extraction, new Date(2026, 0, 27));
    expect(note.content).not.toContain('## Open Problems');
    expect(note.content).not.toContain('## In Progress');
  });
});
