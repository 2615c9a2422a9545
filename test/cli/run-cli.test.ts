import { describe, expect, it } from 'vitest';
import { poolOptionsOf, UsageError } from '../../src/cli/run-cli.js';

describe('poolOptionsOf', () => {
  it('should leave every pool option to the plugin when no pool flag is given', () => {
    expect(poolOptionsOf({ 'no-warm-up': false })).toEqual({});
  });

  it('should pass --threads as a number and --no-warm-up as warmUp false', () => {
    expect(poolOptionsOf({ threads: '3', 'no-warm-up': true })).toEqual({ threads: 3, warmUp: false });
  });

  it('should refuse a thread count that is not a positive integer, naming the flag', () => {
    for (const text of ['0', '-1', '1.5', 'two']) {
      expect(() => poolOptionsOf({ threads: text }), text).toThrow(UsageError);
      expect(() => poolOptionsOf({ threads: text }), text).toThrow(`--threads must be a positive integer (got "${text}")`);
    }
  });
});
