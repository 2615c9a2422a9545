import { describe, expect, it } from 'vitest';
import { judgeRelations, printableRelations, renderBuildContext } from '../../../src/main/graph/graph-context.js';

const strong = [
  { name: 'cache-layer', cooccurrence: 5, files: ['memory://a', 'memory://b'] },
  { name: 'api-gateway', cooccurrence: 1, files: ['memory://c'] },
];

describe('printableRelations', () => {
  it('should make every name printable, drop relations left nameless, and keep printable URIs only', () => {
    const hostile = [
      { name: 'Cache <b>Layer</b>\u202E\u0007', cooccurrence: 4, files: ['memory://a', 'memory://b c', 'javascript:alert(1)'] },
      { name: '<>', cooccurrence: 9, files: ['memory://x'] },
      { name: 'ok\n## Injected heading', cooccurrence: 3, files: ['memory://1', 'memory://2', 'memory://3', 'memory://4'] },
    ];
    expect(printableRelations(hostile)).toEqual([
      { name: 'cache-b-layer-b', cooccurrence: 4, files: ['memory://a'] },
      { name: 'ok-injected-heading', cooccurrence: 3, files: ['memory://1', 'memory://2', 'memory://3'] },
    ]);
  });
});

describe('renderBuildContext', () => {
  it('should rebuild the answer from data, one line per fact', () => {
    expect(renderBuildContext('redis', printableRelations([{ name: 'Cache <b>Layer</b>', cooccurrence: 4, files: ['memory://a'] }, { name: 'ok', cooccurrence: 3, files: [] }]))).toBe(
      'Context for CONCEPT: redis\n\nDirect relations (2 CONCEPTS):\n  \u2022 cache-b-layer-b (co-occurs in 4 files)\n    Files: memory://a\n  \u2022 ok (co-occurs in 3 files)',
    );
  });
});

describe('judgeRelations', () => {
  it('should keep a concept whose strongest relation is above 2 files', () => {
    expect(judgeRelations('redis', { ok: true, value: strong })).toMatchObject({ ok: true, strongest: 5 });
  });

  it('should skip failed, unrelated and weak answers', () => {
    expect(judgeRelations('x', { ok: false, error: { code: 'TOOL_ERROR', message: 'ERROR: x' } })).toMatchObject({ ok: false, reason: 'error' });
    expect(judgeRelations('x', { ok: false, error: { code: 'BAD_OUTPUT', message: 'BuildContext printed nothing' } })).toMatchObject({ ok: false, reason: 'error' });
    expect(judgeRelations('x', { ok: false, error: { code: 'TIMEOUT', message: 'slow' } })).toMatchObject({ ok: false, reason: 'timeout' });
    expect(judgeRelations('x', { ok: true, value: [] })).toMatchObject({ ok: false, reason: 'no-relations' });
    expect(judgeRelations('x', { ok: true, value: [{ name: '[[]]', cooccurrence: 9, files: [] }] })).toMatchObject({ ok: false, reason: 'no-relations' });
    const weak = [
      { name: 'a', cooccurrence: 2, files: [] },
      { name: 'b', cooccurrence: 1, files: [] },
    ];
    expect(judgeRelations('x', { ok: true, value: weak })).toMatchObject({ ok: false, reason: 'weak' });
  });
});

describe('links of several store answers', () => {
  it('should read each answer on its own: a link cut in one snippet never pairs with the next', async () => {
    const { linksOf, searchText } = await import('../../../src/main/graph/wikilink-ranking.js');
    const hits = [
      { title: 'Compaction summary', path: 'memory://a', fusedScore: 1, textScore: 1, semanticScore: 1, snippet: 'thoughts on [[sequential-thinking-sess' },
      { title: 'Other', path: 'memory://b', fusedScore: 1, textScore: 1, semanticScore: 1, snippet: 'ion-ses-1]] in [[redis]]' },
    ];
    expect(linksOf(searchText(hits))).toEqual(['redis']);
  });
});
