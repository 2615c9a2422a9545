import { describe, expect, it } from 'vitest';
import type { Decision } from '../../../../src/core/extraction/decisions/decisions.js';
import { collapseAttempts } from '../../../../src/core/extraction/decisions/decision-attempts.js';

describe('collapseAttempts', () => {
  const commit = (order: number, subject: string, line?: string): Decision => ({
    family: 'change', category: 'implementation', text: `committed: ${subject}`, context: `git commit: ${subject}`, order, ...(line ? { line } : {}),
  });

  it('should keep only the latest of successive attempts on one line of work, with their count', () => {
    const decisions = [
      commit(3, 'fix(ci): retry the upload', 'scope:fix(ci)'),
      commit(5, 'fix(ci): pass the token through env', 'scope:fix(ci)'),
      commit(6, 'docs: explain the cache'),
      commit(9, 'fix(ci): write the key to a file first', 'scope:fix(ci)'),
    ];
    const collapsed = collapseAttempts(decisions, []);
    expect(collapsed.map((decision) => decision.order)).toEqual([6, 9]);
    expect(collapsed[1]).toMatchObject({ attempts: 3 });
    expect(collapsed[1]?.context).toContain('latest of 3 attempts');
  });

  it('should start a new line of work at each user request', () => {
    const decisions = [commit(3, 'fix(ci): a', 'scope:fix(ci)'), commit(5, 'fix(ci): b', 'scope:fix(ci)'), commit(12, 'fix(ci): c', 'scope:fix(ci)')];
    expect(collapseAttempts(decisions, [1, 8]).map((decision) => decision.order)).toEqual([5, 12]);
  });
});
