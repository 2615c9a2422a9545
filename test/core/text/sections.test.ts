import { describe, expect, it } from 'vitest';
import { scanHeadings, sectionAt, selectBoundarySections } from '../../../src/core/text/sections.js';

describe('scanHeadings', () => {
  it('should find H1 and H2 headings with their offsets and titles', () => {
    const text = '# Title\nintro\n## First ##\nbody\n  ## Indented\n### Deeper\n#hashtag\n##\n';
    expect(scanHeadings(text)).toEqual([
      { offset: 0, depth: 1, title: 'Title' },
      { offset: 14, depth: 2, title: 'First' },
      { offset: 31, depth: 2, title: 'Indented' },
      { offset: 65, depth: 2, title: '' },
    ]);
  });

  it('should ignore headings inside fenced code of either kind', () => {
    const text = '```md\n## not one\n```\n~~~~\n## nor this\n~~~\n## still fenced\n~~~~\n## real';
    expect(scanHeadings(text).map((heading) => heading.title)).toEqual(['real']);
  });

  it('should let an unclosed fence run to the end', () => {
    expect(scanHeadings('## before\n```\n## inside\n## also inside')).toHaveLength(1);
  });

  it('should not close a fence with a shorter or different one', () => {
    expect(scanHeadings('````\n```\n## in\n~~~\n## in\n````\n## out').map((heading) => heading.title)).toEqual(['out']);
  });

  it('should treat four-space indentation as code and handle CRLF', () => {
    expect(scanHeadings('    ## code\r\n## real\r\n')).toEqual([{ offset: 13, depth: 2, title: 'real' }]);
  });

  it('should finish on hostile lines', () => {
    expect(scanHeadings(`## ${' '.repeat(200_000)}x${' #'.repeat(50_000)}`)).toHaveLength(1);
    expect(scanHeadings('```\n'.repeat(100_000))).toEqual([]);
  });
});

describe('sectionAt', () => {
  it('should run to the next tracked heading and respect the cap', () => {
    const text = '## A\none\n### sub\ntwo\n## B\nthree';
    const headings = scanHeadings(text);
    expect(sectionAt(text, headings, 0, 1000)).toBe('## A\none\n### sub\ntwo');
    expect(sectionAt(text, headings, 1, 1000)).toBe('## B\nthree');
    expect(sectionAt(text, headings, 0, 6)).toBe('## A\no');
    expect(sectionAt(text, headings, 5, 1000)).toBe('');
  });
});

describe('selectBoundarySections', () => {
  it('should select the first and the last H2 section', () => {
    const text = 'lead\n## one\na\n## two\nb\n# Top\n## three\nc';
    expect(selectBoundarySections(text)).toEqual({ kind: 'h2', sections: ['## one\na', '## three\nc'] });
  });

  it('should select one section when there is one H2', () => {
    expect(selectBoundarySections('x\n## only\ny')).toEqual({ kind: 'h2', sections: ['## only\ny'] });
  });

  it('should fall back to a bounded head and tail without any H2', () => {
    const text = `${'h'.repeat(50)}${'m'.repeat(1000)}${'t'.repeat(50)}`;
    expect(selectBoundarySections(text, { fallbackChars: 50 })).toEqual({ kind: 'fallback', sections: ['h'.repeat(50), 't'.repeat(50)] });
    expect(selectBoundarySections('short text', { fallbackChars: 50 })).toEqual({ kind: 'fallback', sections: ['short text'] });
    expect(selectBoundarySections(' \n ')).toEqual({ kind: 'empty', sections: [] });
  });

  it('should never split a surrogate pair at the head or the tail of a fallback selection', () => {
    expect(selectBoundarySections(`${'h'.repeat(8)}😀ab`, { fallbackChars: 3 }).sections).toEqual(['hhh', 'ab']);
    expect(selectBoundarySections(`ab😀${'t'.repeat(8)}`, { fallbackChars: 3 }).sections).toEqual(['ab', 'ttt']);
  });

  it('should not count a heading inside code as a section', () => {
    expect(selectBoundarySections('## real\ntext\n```\n## fake\n```').sections).toEqual(['## real\ntext\n```\n## fake\n```']);
  });
});
