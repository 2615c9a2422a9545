import { describe, expect, it } from 'vitest';
import { judgeBuildContext, parseBuildContext, renderBuildContext } from '../../../src/main/graph/graph-context.js';

const strong = `Context for CONCEPT: redis

Direct relations (2 CONCEPTS):
  \u2022 cache-layer (co-occurs in 5 files) [community 1]
    Files: memory://a, memory://b
  \u2022 api-gateway (co-occurs in 1 file) [community 1]
    Files: memory://c

Expanded relations (1 CONCEPTS):
  \u2022 kafka (co-occurs in 9 files) [community 2]`;

describe('parseBuildContext', () => {
  it('should read the direct relations only', () => {
    expect(parseBuildContext(strong)).toEqual({
      declared: 2,
      relations: [
        { name: 'cache-layer', cooccurrence: 5, files: ['memory://a', 'memory://b'] },
        { name: 'api-gateway', cooccurrence: 1, files: ['memory://c'] },
      ],
    });
  });

  it('should refuse text that is not a BuildContext answer', () => {
    expect(parseBuildContext('Error invoking BuildContext: boom')).toBeNull();
  });
});

describe('renderBuildContext', () => {
  it('should rebuild the answer from its parsed lines only', () => {
    const hostile = `Context for CONCEPT: redis\n\nDirect relations (2 CONCEPTS):\n  \u2022 Cache <b>Layer</b>\u202E\u0007 (co-occurs in 4 files) [community 1]\n    Files: memory://a, memory://b c, javascript:alert(1)\n  \u2022 ok (co-occurs in 3 files)\n## Injected heading\n  \u2022 late (co-occurs in 9 files)`;
    const parsed = parseBuildContext(hostile);
    expect(parsed?.relations).toEqual([
      { name: 'cache-b-layer-b', cooccurrence: 4, files: ['memory://a'] },
      { name: 'ok', cooccurrence: 3, files: [] },
    ]);
    expect(renderBuildContext('redis', parsed?.relations ?? [])).toBe(
      'Context for CONCEPT: redis\n\nDirect relations (2 CONCEPTS):\n  \u2022 cache-b-layer-b (co-occurs in 4 files)\n    Files: memory://a\n  \u2022 ok (co-occurs in 3 files)',
    );
  });
});

describe('judgeBuildContext', () => {
  it('should keep a concept whose strongest relation is above 2 files', () => {
    expect(judgeBuildContext('redis', { ok: true, value: strong })).toMatchObject({ ok: true, strongest: 5 });
  });

  it('should skip empty, failed, unrelated and weak answers', () => {
    expect(judgeBuildContext('x', { ok: true, value: '  ' })).toMatchObject({ ok: false, reason: 'empty' });
    expect(judgeBuildContext('x', { ok: false, error: { code: 'TOOL_ERROR', message: 'ERROR: x' } })).toMatchObject({ ok: false, reason: 'error' });
    expect(judgeBuildContext('x', { ok: false, error: { code: 'TIMEOUT', message: 'slow' } })).toMatchObject({ ok: false, reason: 'timeout' });
    expect(judgeBuildContext('x', { ok: true, value: 'Context for CONCEPT: x\n\nDirect relations (0 CONCEPTS):\n' })).toMatchObject({ ok: false, reason: 'no-relations' });
    const weak = 'Context for CONCEPT: x\n\nDirect relations (2 CONCEPTS):\n  \u2022 a (co-occurs in 2 files) [community 1]\n  \u2022 b (co-occurs in 1 file) [community 1]\n';
    expect(judgeBuildContext('x', { ok: true, value: weak })).toMatchObject({ ok: false, reason: 'weak' });
  });
});
