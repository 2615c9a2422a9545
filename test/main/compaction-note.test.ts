import { describe, expect, it } from 'vitest';
import { buildCompactionNote } from '../../src/main/compaction-note.js';
import type { Extraction } from '../../src/main/extraction-engine.js';

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
  it('should date the folder, tag the project and link outside code', () => {
    const note = buildCompactionNote('My App', 'ses_abc123def456', extraction, new Date(2026, 0, 27, 9, 5, 7, 42));
    expect(note.folder).toBe('sessions/compaction/2026/01/27');
    expect(note.tags).toEqual(['compaction', 'session', 'my-app']);
    expect(note.content).toContain('**Project**: [[my-app]]');
    expect(note.content).toContain('- [[redis]]');
    expect(note.content).toContain('- implementation: use Redis for the cache');
    expect(note.content).toContain('- src/cache.ts');
    expect(note.content).not.toContain('```');
  });

  it('should give titles that stay distinct after sanitation', () => {
    const a = buildCompactionNote('proj: x', 'ses_1', extraction, new Date(2026, 0, 27, 9, 5, 7, 42));
    const b = buildCompactionNote('proj: x', 'ses_1', extraction, new Date(2026, 0, 27, 9, 5, 7, 43));
    const c = buildCompactionNote('proj: x', 'ses_2', extraction, new Date(2026, 0, 27, 9, 5, 7, 42));
    expect(new Set([slugOf(a.title), slugOf(b.title), slugOf(c.title)]).size).toBe(3);
    expect(a.title.length).toBeLessThan(200);
  });
});
