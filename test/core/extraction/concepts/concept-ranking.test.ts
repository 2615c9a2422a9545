import { describe, expect, it } from 'vitest';
import type { TermHit } from '../../../../src/workers/protocol.js';
import { rankTermConcepts } from '../../../../src/core/extraction/concepts/concept-ranking.js';

function hit(name: string, order: number, role = 'assistant', kind: TermHit['kind'] = 'keyphrase', weight = 1): TermHit {
  return { name, order, role, kind, weight };
}

describe('rankTermConcepts', () => {
  it('should keep topics named in several messages, by both sides first, and drop one-off names once enough topics last', () => {
    const terms = [
      hit('websocket', 1, 'user', 'technology'), hit('websocket', 4, 'assistant', 'technology'), hit('websocket', 9, 'assistant', 'technology'),
      hit('kill-switch', 2, 'user'), hit('kill-switch', 7),
      hit('reconnect-logic', 3), hit('reconnect-logic', 5),
      hit('banana', 6),
    ];
    expect(rankTermConcepts(terms, [], { min: 3 }).map((concept) => concept.name)).toEqual(['websocket', 'kill-switch', 'reconnect-logic']);
    expect(rankTermConcepts(terms)[0]).toEqual({ name: 'websocket', count: 3 });
  });

  it('should count a plural in -ies with its singular', () => {
    const terms = [hit('policy', 1, 'user'), hit('policies', 2), hit('policies', 3), hit('cookies', 4), hit('cookie', 5)];
    expect(rankTermConcepts(terms, [], { min: 0 })).toEqual([{ name: 'policies', count: 3 }, { name: 'cookie', count: 2 }]);
  });

  it('should count spellings of one name together and show the commonest', () => {
    const terms = [hit('killswitch', 1, 'user', 'technology'), hit('kill-switch', 2), hit('kill-switch', 3), hit('kill-switches', 4)];
    expect(rankTermConcepts(terms)).toEqual([{ name: 'kill-switch', count: 4 }]);
  });

  it("should leave out what the session's links already name, generic words, and cap the list", () => {
    const terms = [hit('gateway', 1), hit('gateway', 2), hit('api-gateway', 3), hit('api-gateway', 4), hit('code', 1), hit('code', 2)];
    expect(rankTermConcepts(terms, ['api-gateway'])).toEqual([]);
    const many = Array.from({ length: 40 }, (_, index) => [hit(`topic${index}`, 1), hit(`topic${index}`, 2)]).flat();
    expect(rankTermConcepts(many)).toHaveLength(15);
    expect(rankTermConcepts(many, [], { max: 5 })).toHaveLength(5);
  });

  it('should let names seen once fill a session with too few lasting topics, strongest first, after the lasting ones, if they can stand for a subject', () => {
    const terms = [hit('nextjs', 1, 'assistant', 'technology'), hit('nextjs', 2, 'assistant', 'technology'), hit('engram', 2, 'assistant', 'technology'), hit('node-shares', 3), hit('chose', 3), hit('render', 4, 'assistant', 'identifier')];
    // A phrase or a plain word seen once (here a fragment and a verb of the conversation) is no subject.
    expect(rankTermConcepts(terms).map((concept) => concept.name)).toEqual(['nextjs', 'engram', 'render']);
    expect(rankTermConcepts(terms, [], { min: 2 }).map((concept) => concept.name)).toEqual(['nextjs', 'engram']);
  });

  it('should drop a program a session only runs, and keep one a message names too', () => {
    const terms = [
      hit('jq', 1, 'assistant', 'command'), hit('jq', 2, 'assistant', 'command'), hit('jq', 3, 'assistant', 'command'),
      hit('tmux', 1, 'assistant', 'command'), hit('tmux', 2, 'assistant', 'command'), hit('tmux', 4, 'user', 'technology'),
      hit('golang', 2, 'assistant', 'stack'), hit('golang', 3, 'assistant', 'stack'),
    ];
    expect(rankTermConcepts(terms).map((concept) => concept.name)).toEqual(['tmux', 'golang']);
  });
});
