import { describe, expect, it } from 'vitest';
import { exceedsParserLimits, proseBlocks } from '../../../src/core/text/markdown.js';

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

  it('should leave link and image markup as written, with the links in it', () => {
    const markdown = [
      'See [the [[cache layer]] notes](https://example.com/cache) and ![[[diagram]]](flow.png).',
      '',
      'A defined label stays a link: [[redis]].',
      '',
      '[redis]: https://redis.io',
    ].join('\n');
    expect(proseBlocks(markdown)).toEqual([
      'See [the [[cache layer]] notes](https://example.com/cache) and ![[[diagram]]](flow.png).',
      'A defined label stays a link: [[redis]].',
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

describe('exceedsParserLimits', () => {
  it('should pass a real-looking section, however much code it quotes', () => {
    const code = ['```python', ...Array.from({ length: 400 }, (_, index) => `rows[${index}] = load_row(df["col_${index}"], *args, **kw)`), '```'];
    const section = [
      '## Summary',
      '',
      'Setup notes',
      '-----------',
      '',
      '- **Cache**: switched `get_user` to the [[redis]] client; see [the docs](https://example.com/docs).',
      '  - > nested quote inside a list item',
      ...code,
      '',
      'Next: run `pytest -k cache_hits` again.',
    ].join('\n');
    expect(exceedsParserLimits(section)).toBe(false);
    expect(proseBlocks(section).join(' ')).toContain('switched  to the [[redis]] client');
  });

  it.each([
    ['setext headings by the thousand', `## Setext\n${'a\n=\n'.repeat(4_000)}`],
    ['a line nesting thousands of quote and list markers', `## Mix\n${'> - '.repeat(4_000)}[[deep-mix]]`],
    ['emphasis delimiter runs', `## Emphasis\n${'*_'.repeat(8_000)}`],
    ['unclosed link destinations', `## Links\n${'[a]('.repeat(4_000)}`],
  ])('should flag %s, and read such a section as plain lines', (_name, markdown) => {
    expect(exceedsParserLimits(markdown)).toBe(true);
    const blocks = proseBlocks(markdown);
    expect(blocks).toHaveLength(1);
    expect(blocks[0]?.startsWith('## ')).toBe(true);
  });

  it('should keep the links of a section read as plain lines, and drop its fenced code', () => {
    const markdown = `## Deep\n${'> - '.repeat(100)}[[deep-mix]]\n\n\`\`\`\n[[in-code]]\n\`\`\``;
    const text = proseBlocks(markdown).join('\n');
    expect(text).toContain('[[deep-mix]]');
    expect(text).not.toContain('[[in-code]]');
  });
});
