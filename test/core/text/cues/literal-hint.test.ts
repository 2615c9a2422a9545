import { describe, expect, it } from 'vitest';
import { literalHint } from '../../../../src/core/text/cues/literal-hint.js';

describe('literalHint', () => {
  const hint = literalHint(['cannot', 'können', 'no ', 'kann', '无法']);

  it('should find a literal in any case, and say no when none is there', () => {
    expect(hint.mayMatch('We CANNOT ship this')).toBe(true);
    expect(hint.mayMatch('Das KÖNNEN wir nicht')).toBe(true);
    expect(hint.mayMatch('No se puede')).toBe(true);
    expect(hint.mayMatch('这个无法运行')).toBe(true);
    expect(hint.mayMatch('We shipped it')).toBe(false);
    expect(hint.mayMatch('')).toBe(false);
  });

  it('should read the letters a case-insensitive expression takes for ASCII ones as those letters', () => {
    // The Kelvin sign and the long s: /k/iu and /s/iu match them.
    expect(/kann/iu.test('\u212Aann')).toBe(true);
    expect(hint.mayMatch('\u212Aann nicht')).toBe(true);
    expect(literalHint(['instead']).mayMatch('in\u017ftead of')).toBe(true);
  });
});
