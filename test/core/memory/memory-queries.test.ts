import { describe, expect, it } from 'vitest';
import { indexMemoryText } from '../../../src/core/memory/memory-index.js';
import { linkSafeSlice, queryTerms, recentActivity, RELATED_STEP_FILES, relatedConcepts, relatedConceptSteps, searchEntries, type ConceptFile } from '../../../src/core/memory/memory-queries.js';

const NOW = Date.parse('2026-03-04T10:05:00Z');
const note = (uri: string, minutesAgo: number, text: string) => indexMemoryText({ uri, mtimeMs: NOW - minutesAgo * 60_000, size: text.length }, text);

const ENTRIES = [
  note('memory://tech/redis-cache', 1, '---\ntitle: Redis cache\n---\n\n## Setup\n[[redis]] backs the [[cache-layer]].\n\n## Limits\nEviction is LRU.'),
  note('memory://tech/pool', 3, '---\ntitle: Pool\n---\n\nThe connection pool of the gateway uses redis too, see [[api-gateway]].'),
  note('memory://thinking/sequential/2026/03/04/session-1-1', 2, '---\ntitle: S\ntype: sequential\nstatus: completed\n---\n\n## Thought 0/1 [agent]\nA [[redis]] summary.'),
  note('memory://old', 60 * 48, '---\ntitle: Old\n---\n\nAncient [[redis]] note.'),
];

describe('queryTerms', () => {
  it('should keep the informative words once, lowercase', () => {
    expect(queryTerms('The Redis cache and the REDIS pool')).toEqual(['redis', 'cache', 'pool']);
    expect(queryTerms('the and of')).toEqual([]);
  });
});

describe('searchEntries', () => {
  it('should rank a file about the terms (title, concepts) above one that only mentions them', () => {
    const found = searchEntries(ENTRIES, 'redis cache', 5);
    expect(found.ok).toBe(true);
    if (!found.ok) return;
    expect(found.results[0]).toMatchObject({ path: 'memory://tech/redis-cache', title: 'Redis cache', textScore: 1, semanticScore: 1, fusedScore: 1 });
    expect(found.results.map((hit) => hit.path)).toContain('memory://tech/pool');
    expect(found.results.every((hit) => hit.snippet.length <= 200)).toBe(true);
    expect(searchEntries(ENTRIES, 'redis', 1)).toMatchObject({ ok: true, totalResults: 4 });
  });

  it('should refuse a query of stop words with the text maenifold prints', () => {
    expect(searchEntries(ENTRIES, 'the and', 5)).toEqual({ ok: false, message: 'ERROR: Query contains no informative keywords after removing stop words. Use more specific terms.' });
  });
});

describe('recentActivity', () => {
  it('should list files within the span, newest first, with what maenifold shows of each', () => {
    const items = recentActivity(ENTRIES, { limit: 2, spanMs: 86_400_000, filter: 'all', includeContent: false }, NOW);
    expect(items).toEqual([
      { id: 'redis-cache', kind: 'memory', modified: '2026-03-04 10:04', title: 'Redis cache', first: { content: '[[redis]] backs the [[cache-layer]].' }, last: { content: 'Eviction is LRU.' } },
      { id: 'session-1-1', kind: 'sequential', modified: '2026-03-04 10:03', status: 'completed', first: { content: 'A [[redis]] summary.' } },
    ]);
  });

  it('should filter by kind, give whole sections with includeContent, and give none when nothing is recent', () => {
    const thinking = recentActivity(ENTRIES, { limit: 10, spanMs: null, filter: 'thinking', includeContent: true }, NOW);
    expect(thinking).toEqual([{ id: 'session-1-1', kind: 'sequential', modified: '2026-03-04 10:03', status: 'completed', first: { heading: 'Thought 0/1 [agent]', content: 'A [[redis]] summary.' } }]);
    expect(recentActivity(ENTRIES, { limit: 10, spanMs: 1_000, filter: 'all', includeContent: false }, NOW)).toEqual([]);
  });
});

describe('recentActivity over many files', () => {
  it('should keep the newest as a full sort would, ties by URI, for any limit', () => {
    const base = ENTRIES[0] as (typeof ENTRIES)[number];
    // Times repeat, in no order, so ties and late newer files are both met.
    const many = Array.from({ length: 300 }, (_, index) => ({ ...base, uri: `memory://notes/n-${(index * 7919) % 300}`, mtimeMs: NOW - ((index * 37) % 50) * 60_000 }));
    for (const limit of [0, 1, 5, 40, 400]) {
      const query = { limit, spanMs: 30 * 60_000, filter: 'all', includeContent: false } as const;
      const sorted = many
        .filter((entry) => entry.mtimeMs >= NOW - 30 * 60_000)
        .sort((a, b) => b.mtimeMs - a.mtimeMs || (a.uri < b.uri ? -1 : 1))
        .slice(0, limit);
      const items = recentActivity(many, query, NOW);
      expect(items.map((item) => [item.id, item.modified])).toEqual(sorted.map((entry) => [entry.uri.slice('memory://notes/'.length), new Date(entry.mtimeMs).toISOString().slice(0, 16).replace('T', ' ')]));
    }
  });
});

describe('relatedConcepts', () => {
  const names = ['redis', 'cache-layer', 'api-gateway', 'secret'];
  const files: ConceptFile[] = [
    { uri: 'memory://a', mtimeMs: 1, ids: Int32Array.from([0, 1]) },
    { uri: 'memory://b', mtimeMs: 3, ids: Int32Array.from([0, 1, 3]) },
    { uri: 'memory://c', mtimeMs: 2, ids: Int32Array.from([0, 2, 1]) },
    { uri: 'memory://d', mtimeMs: 4, ids: Int32Array.from([0, 1]) },
  ];

  it('should count shared files, strongest first, with the newest three files, and leave blocked concepts out', () => {
    expect(relatedConcepts(0, files, names, 5, new Set([3]))).toEqual([
      { name: 'cache-layer', cooccurrence: 4, files: ['memory://d', 'memory://b', 'memory://c'] },
      { name: 'api-gateway', cooccurrence: 1, files: ['memory://c'] },
    ]);
    expect(relatedConcepts(0, files, names, 1)).toHaveLength(1);
  });

  it('should give the same relations in steps over thousands of files, pausing between them', () => {
    const many: ConceptFile[] = Array.from({ length: 3 * RELATED_STEP_FILES + 17 }, (_, index) => ({
      uri: `memory://n/${(index * 7919) % 1000}`,
      mtimeMs: (index * 37) % 200,
      ids: Int32Array.from([0, 1 + (index % 3), ...(index % 5 === 0 ? [3] : [])]),
    }));
    // Counted the plain way: shared files per concept, then the newest three files of each.
    const counts = new Map<number, string[]>();
    for (const file of many) for (const id of file.ids) if (id !== 0) counts.set(id, [...(counts.get(id) ?? []), file.uri]);
    const byUri = new Map(many.map((file) => [file.uri, file.mtimeMs]));
    const expected = [...counts]
      .sort(([a, x], [b, y]) => y.length - x.length || ((names[a] as string) < (names[b] as string) ? -1 : 1))
      .map(([id, uris]) => ({
        name: names[id],
        cooccurrence: uris.length,
        files: [...uris].sort((a, b) => (byUri.get(b) as number) - (byUri.get(a) as number) || (a < b ? -1 : 1)).slice(0, 3),
      }));
    const steps = relatedConceptSteps(0, many, names, 5);
    let pauses = 0;
    let step = steps.next();
    for (; !step.done; step = steps.next()) pauses++;
    expect(step.value).toEqual(expected);
    expect(pauses).toBe(2 * Math.floor(many.length / RELATED_STEP_FILES));
    expect(relatedConcepts(0, many, names, 5)).toEqual(expected);
  });
});

describe('linkSafeSlice', () => {
  it('should move a cut off any link it would split, so a snippet holds whole links or none', () => {
    const text = 'before [[sequential-thinking]] middle [[in-project]] after';
    // Start inside the first link: moved to its [[.
    expect(linkSafeSlice(text, 10, text.length)).toBe('[[sequential-thinking]] middle [[in-project]] after');
    // End inside the second link: moved before its [[.
    expect(linkSafeSlice(text, 0, 42)).toBe('before [[sequential-thinking]] middle ');
    // An unclosed [[ at the end is left out.
    expect(linkSafeSlice('a [[b]] c [[never closed', 0, 100)).toBe('a [[b]] c ');
    expect(linkSafeSlice(text, 0, text.length)).toBe(text);
  });

  it('should give search snippets no half link, however the lead is cut', () => {
    // The snippet would start 40 characters before the term, inside the link.
    const lead = `${'word '.repeat(20)}[[a-very-long-linked-concept-name-here]] and redis ${'tail '.repeat(10)}`;
    const [hit] = (searchEntries([note('memory://x', 1, `---\ntitle: X\n---\n\n${lead}`)], 'redis', 1) as { ok: true; results: { snippet: string }[] }).results;
    const snippet = hit?.snippet ?? '';
    expect(snippet).toContain('redis');
    expect((snippet.match(/\[\[/g) ?? []).length).toBe((snippet.match(/\]\]/g) ?? []).length);
    expect(snippet).not.toMatch(/^[^[]*\]\]/);
  });
});
