import { describe, expect, it } from 'vitest';
import { logicalLines } from '../../../../src/core/extraction/shell/shell-tokens.js';

describe('logicalLines', () => {
  it('should split at newlines outside quotes and drop comments', () => {
    expect(logicalLines('a && b\n# note\npython -c "x\ny"\nc \\\n  d')).toEqual(['a && b', 'python -c "x\ny"', 'c   d']);
  });
});

