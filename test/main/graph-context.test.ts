import { describe, expect, it } from 'vitest';
import { judgeBuildContext, parseBuildContext } from '../../src/main/graph-context.js';

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
        { name: 'cache-layer', cooccurrence: 5 },
        { name: 'api-gateway', cooccurrence: 1 },
      ],
    });
  });

  it('should refuse text that is not a BuildContext answer', () => {
    expect(parseBuildContext('Error invoking BuildContext: boom')).toBeNull();
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
