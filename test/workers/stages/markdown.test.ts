import { describe, expect, it } from 'vitest';
import { proseBlocks } from '../../../src/workers/stages/markdown.js';

describe('proseBlocks', () => {
  it('should return paragraph and heading text without code or HTML', () => {
    const markdown = [
      '## Plan for [[Redis]]',
      '',
      'Use the [[cache layer]] with *[[emphasis]]* and `[[inline code]]`.',
      '',
      '```ts',
      'const link = "[[fenced]]";',
      '```',
      '',
      '    [[indented code]]',
      '',
      '<div>[[html]]</div>',
      '',
      '- a list item with [[Listed]]',
      '> a quote with [[Quoted]]',
    ].join('\n');
    const blocks = proseBlocks(markdown);
    expect(blocks).toEqual([
      'Plan for [[Redis]]',
      'Use the [[cache layer]] with [[emphasis]] and .',
      'a list item with [[Listed]]',
      'a quote with [[Quoted]]',
    ]);
  });

  it('should return nothing for empty or code-only text', () => {
    expect(proseBlocks('')).toEqual([]);
    expect(proseBlocks('```\n[[x]]\n```')).toEqual([]);
  });

  it('should finish on deeply nested and bracket-heavy input', () => {
    const nested = proseBlocks(`${'>'.repeat(16_000)} [[deep]]`);
    expect(nested.join(' ')).toContain('[[deep]]');
    expect(Array.isArray(proseBlocks('['.repeat(16_000)))).toBe(true);
    expect(Array.isArray(proseBlocks('*a'.repeat(8_000)))).toBe(true);
  });
});
