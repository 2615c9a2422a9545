import { describe, expect, it } from 'vitest';
import { parseSize } from '../../src/synth/session-size.js';

const KB = 1024;
const MB = 1024 ** 2;

describe('parseSize', () => {
  it.each([
    ['512', 512],
    ['2kb', 2 * KB],
    ['100KB', 100 * KB],
    ['1MB', MB],
    ['10mb', 10 * MB],
    ['1.5MB', 1.5 * MB],
    ['64 KB', 64 * KB],
    ['3B', 3],
    ['1GB', 1024 ** 3],
  ])('should read %s as %i bytes', (text, bytes) => {
    expect(parseSize(text)).toBe(bytes);
  });

  it.each(['abc', '', 'MB', '10 TB', '1e3', '0', '0KB', '-5MB', '2GB', '1.1GB'])('should reject %j with a one-line message', (text) => {
    expect(() => parseSize(text)).toThrow(/^invalid size "/);
    try {
      parseSize(text);
    } catch (error) {
      expect((error as Error).message).not.toContain('\n');
    }
  });
});
