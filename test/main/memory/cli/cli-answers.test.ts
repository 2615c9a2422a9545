import { describe, expect, it } from 'vitest';
import {
  formatTimeSpan,
  parseBuildContext,
  parseListing,
  parseRecentActivity,
  readSearchHits,
  readStoredNote,
  readThoughtReceipt,
  readWrittenNote,
} from '../../../../src/main/memory/cli/cli-answers.js';

// Answers written by hand in the shapes maenifold-cli.md documents.

const strong = `Context for CONCEPT: redis

Direct relations (2 CONCEPTS):
  \u2022 cache-layer (co-occurs in 5 files) [community 1]
    Files: memory://a, memory://b
  \u2022 api-gateway (co-occurs in 1 file) [community 1]
    Files: memory://c

Expanded relations (1 CONCEPTS):
  \u2022 kafka (co-occurs in 9 files) [community 2]`;

describe('parseBuildContext', () => {
  it('should read the direct relations only, with their counts and files', () => {
    expect(parseBuildContext(strong)).toEqual([
      { name: 'cache-layer', cooccurrence: 5, files: ['memory://a', 'memory://b'] },
      { name: 'api-gateway', cooccurrence: 1, files: ['memory://c'] },
    ]);
  });

  it('should give no relations for an unknown concept and refuse text that is not a BuildContext answer', () => {
    expect(parseBuildContext('Context for CONCEPT: nope\n\nDirect relations (0 CONCEPTS):')).toEqual([]);
    expect(parseBuildContext('Error invoking BuildContext: boom')).toBeNull();
  });

  it('should read a hostile answer into printable data only: the list ends at any other line', () => {
    const hostile = `Context for CONCEPT: redis\n\nDirect relations (3 CONCEPTS):\n  \u2022 Cache <b>Layer</b>\u202E\u0007 (co-occurs in 4 files) [community 1]\n    Files: memory://a, memory://b c, javascript:alert(1)\n  \u2022 <> (co-occurs in 8 files)\n    Files: memory://nameless\n  \u2022 ok (co-occurs in 3 files)\n## Injected heading\n  \u2022 late (co-occurs in 9 files)`;
    expect(parseBuildContext(hostile)).toEqual([
      { name: 'cache-b-layer-b', cooccurrence: 4, files: ['memory://a'] },
      { name: 'ok', cooccurrence: 3, files: [] },
    ]);
  });
});

describe('parseRecentActivity', () => {
  it('should read each block, with whole multi-line sections when content is included', () => {
    const text = [
      '# Recent Activity',
      '',
      '**session-1772618706789-00042** (sequential)',
      '  Modified: 2026-03-04 10:05',
      '  Status: completed',
      '  First H2: Thought 0/1 [agent]',
      '  First H2 Content: A [[redis]] summary.',
      '',
      'It spans [[lines]].',
      '  Last H2: Conclusion',
      '  Last H2 Content: Latest [[compaction]] summary.',
      '',
      '**redis-cache** (memory)',
      '  Modified: 2026-03-04 10:04',
      '  Title: Redis cache',
      '  Sections: 2',
      '  First: "[[redis]] backs the [[cache-layer]]."',
    ].join('\n');
    expect(parseRecentActivity(text)).toEqual([
      {
        id: 'session-1772618706789-00042',
        kind: 'sequential',
        modified: '2026-03-04 10:05',
        status: 'completed',
        first: { heading: 'Thought 0/1 [agent]', content: 'A [[redis]] summary.\n\nIt spans [[lines]].' },
        last: { heading: 'Conclusion', content: 'Latest [[compaction]] summary.' },
      },
      { id: 'redis-cache', kind: 'memory', modified: '2026-03-04 10:04', title: 'Redis cache', first: { content: '[[redis]] backs the [[cache-layer]].' } },
    ]);
  });

  it('should give nothing for the answers without files', () => {
    expect(parseRecentActivity('No recent activity found')).toEqual([]);
    expect(parseRecentActivity('# Recent Activity\n\nNo database found. Run the `Sync` command first to index memory files.')).toEqual([]);
  });
});

describe('parseListing', () => {
  it('should give the notes of a folder, not its sub-folders', () => {
    const text = '# Memory listing: memory://thinking/sequential/2026/03/04\n\n  - older/\n  - memory://thinking/sequential/2026/03/04/session-1772618706789-00042\n  - memory://thinking/sequential/2026/03/04/session-1772618706790-00001';
    expect(parseListing(text)).toEqual(['memory://thinking/sequential/2026/03/04/session-1772618706789-00042', 'memory://thinking/sequential/2026/03/04/session-1772618706790-00001']);
  });
});

describe('the envelope readers', () => {
  it("should read SearchMemories' hits, text fields as text", () => {
    const data = { query: 'redis', results: [{ title: 'Redis cache', path: 'memory://tech/redis-cache', fusedScore: 0.9, textScore: 1, semanticScore: 0.8, snippet: 'About [[redis]]' }, { title: 7 }] };
    expect(readSearchHits(data)).toEqual([
      { title: 'Redis cache', path: 'memory://tech/redis-cache', fusedScore: 0.9, textScore: 1, semanticScore: 0.8, snippet: 'About [[redis]]' },
      { title: '7', path: '', fusedScore: 0, textScore: 0, semanticScore: 0, snippet: '' },
    ]);
    expect(readSearchHits(null)).toEqual([]);
  });

  it('should read WriteMemory, SequentialThinking and ReadMemory data, with null for what is missing', () => {
    expect(readWrittenNote({ uri: 'memory://a', checksum: 'x' })).toEqual({ uri: 'memory://a' });
    expect(readWrittenNote({})).toEqual({ uri: null });
    expect(readThoughtReceipt({ sessionId: 'session-1-1', thoughtNumber: 2, status: 'completed' })).toEqual({ sessionId: 'session-1-1', thoughtNumber: 2 });
    expect(readThoughtReceipt({ message: 'ok' })).toEqual({ sessionId: null, thoughtNumber: null });
    expect(readStoredNote({ uri: 'memory://a', title: 'A', content: 'body', frontmatter: {} }, 'memory://asked')).toEqual({ uri: 'memory://a', title: 'A', content: 'body' });
    expect(readStoredNote(null, 'memory://asked')).toEqual({ uri: 'memory://asked', title: '', content: '' });
  });
});

describe('formatTimeSpan', () => {
  it('should write a .NET TimeSpan: days before the dot, hours under a day', () => {
    expect(formatTimeSpan(86_400_000)).toBe('1.00:00:00');
    expect(formatTimeSpan(3 * 3_600_000)).toBe('03:00:00');
    expect(formatTimeSpan(24 * 86_400_000 + 61_000)).toBe('24.00:01:01');
  });
});
