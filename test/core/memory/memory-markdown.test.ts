import { describe, expect, it } from 'vitest';
import { h2Sections, memoryConcepts } from '../../../src/core/memory/memory-markdown.js';

// Expected values follow maenifold-cli.md (WikiLinks outside code).

describe('memoryConcepts', () => {
  it('should find links in paragraphs and headings only, in order, once each', () => {
    const body = ['# About [[Redis]]', '', 'We use [[redis]] for the [[Cache Layer]].', '', '```ts', '[[fenced]]', '```', '', '~~~', '[[tilde]]', '~~~', '', '    [[indented]]', '', 'Inline `[[code]]` and ``a `[[nested]]` b`` but [[real]].'].join('\n');
    expect(memoryConcepts(body)).toEqual(['redis', 'cache-layer', 'real']);
  });

  it('should not read [[[x]]] as a link, and should read an indented line that continues a paragraph', () => {
    expect(memoryConcepts('[[[triple]]] only')).toEqual([]);
    expect(memoryConcepts('a paragraph\n    with [[continued]]')).toEqual(['continued']);
  });

  it('should treat an unclosed fence as code to the end', () => {
    expect(memoryConcepts('[[before]]\n\n```\n[[inside]]')).toEqual(['before']);
  });
});

describe('h2Sections', () => {
  it('should split on ## headings outside fences, content trimmed', () => {
    const body = '# Title\nintro\n## Setup\n\n[[redis]] backs it.\n\n```\n## not a heading\n```\n## Limits ##\nEviction is LRU.\n### Sub\nkept';
    expect(h2Sections(body)).toEqual([
      { heading: 'Setup', content: '[[redis]] backs it.\n\n```\n## not a heading\n```' },
      { heading: 'Limits', content: 'Eviction is LRU.\n### Sub\nkept' },
    ]);
    expect(h2Sections('no sections')).toEqual([]);
  });

  it('should read a backtick line whose info string holds a backtick as text, not as a fence', () => {
    expect(h2Sections('## Setup\n```js` is inline code\n## Limits\nnone')).toEqual([
      { heading: 'Setup', content: '```js` is inline code' },
      { heading: 'Limits', content: 'none' },
    ]);
  });
});
