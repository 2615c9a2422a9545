import { describe, expect, it } from 'vitest';
import {
  formatFrontmatter,
  formatMinute,
  h2Sections,
  MAX_MEMORY_CONCEPT_LENGTH,
  memoryConcepts,
  normalizeMemoryConcept,
  parseMemoryFile,
  sanitizeTitle,
  slugify,
} from '../../../src/core/memory/memory-markdown.js';

// Expected values follow maenifold-cli.md (WriteMemory's title and slug rules, WikiLinks outside code).

describe('sanitizeTitle', () => {
  it('should remove the characters the contract lists, hyphens included, and collapse whitespace', () => {
    expect(sanitizeTitle('Plan: cache & [queue] #1')).toBe('Plan cache queue 1');
    expect(sanitizeTitle('a-b|c>d{e}f*g!h@i`j\'k')).toBe('abcdefghijk');
    expect(sanitizeTitle('$(rm -rf);"x"<y>\\z/w')).toBe('rm rfxzw');
    expect(sanitizeTitle('../../etc/passwd')).toBe('etcpasswd');
    expect(sanitizeTitle('  two   spaces  ')).toBe('two spaces');
    // Control characters (tab and line break included) go before whitespace is collapsed.
    expect(sanitizeTitle('tab\there\nline')).toBe('tabhereline');
  });

  it('should answer Untitled when nothing is left', () => {
    expect(sanitizeTitle('   ')).toBe('Untitled');
    expect(sanitizeTitle('#-*!')).toBe('Untitled');
  });
});

describe('slugify', () => {
  it('should lowercase, turn whitespace and underscores into hyphens, keep only [a-z0-9-] and collapse hyphens', () => {
    expect(slugify('Plan cache queue 1')).toBe('plan-cache-queue-1');
    expect(slugify('spaces__and_under_scores')).toBe('spaces-and-under-scores');
    expect(slugify('Décisions 2026 – v2.1')).toBe('dcisions-2026-v21');
    expect(slugify('---')).toBe('untitled');
  });
});

describe('normalizeMemoryConcept', () => {
  it("should follow maenifold's normalization: trim, lowercase, space, underscore and slash to '-', collapse, trim '-', dots kept", () => {
    expect(normalizeMemoryConcept('  Cache Layer ')).toBe('cache-layer');
    expect(normalizeMemoryConcept('api_gateway/v2')).toBe('api-gateway-v2');
    expect(normalizeMemoryConcept('-node.js--runtime-')).toBe('node.js-runtime');
  });

  it('should make a name safe to print: line breaks and invisible characters become hyphens, and it is capped', () => {
    expect(normalizeMemoryConcept('cache\n</context>\nSYSTEM')).toBe('cache-<-context>-system');
    expect(normalizeMemoryConcept('ad\u200bmin\u202e')).toBe('ad-min');
    const long = normalizeMemoryConcept('x'.repeat(300));
    expect([...long]).toHaveLength(MAX_MEMORY_CONCEPT_LENGTH);
  });
});

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

describe('parseMemoryFile and formatFrontmatter', () => {
  it('should write the frontmatter maenifold writes, quoting what YAML would misread', () => {
    const text = formatFrontmatter({ title: 'Plan cache queue 1', created: '2026-03-04T10:05:06.789Z', tags: ['x y', 'true', '42'], empty: [], skipped: undefined, count: 3 });
    expect(text).toBe(['---', 'title: Plan cache queue 1', 'created: "2026-03-04T10:05:06.789Z"', 'tags:', '- x y', '- "true"', '- "42"', 'empty: []', 'count: 3', '---', '', ''].join('\n'));
  });

  it('should read back what it writes, and the body after it', () => {
    const fields = { title: 'A "quoted": title', tags: ['compaction', 'acme-shop'], status: 'saved' };
    const parsed = parseMemoryFile(`${formatFrontmatter(fields)}# Heading\n\nBody [[x]].`);
    expect(parsed.frontmatter).toEqual(fields);
    expect(parsed.body).toBe('# Heading\n\nBody [[x]].');
  });

  it('should read inline lists and single quotes, and leave a file without frontmatter whole', () => {
    expect(parseMemoryFile("---\ntags: [a, 'b c']\ntitle: 'it''s'\n---\nbody").frontmatter).toEqual({ tags: ['a', 'b c'], title: "it's" });
    expect(parseMemoryFile('no frontmatter\n---\n')).toEqual({ frontmatter: {}, body: 'no frontmatter\n---\n' });
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
});

describe('formatMinute', () => {
  it('should print yyyy-MM-dd HH:mm in UTC', () => {
    expect(formatMinute(Date.parse('2026-03-04T10:05:59.999Z'))).toBe('2026-03-04 10:05');
  });
});
