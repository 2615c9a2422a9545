import { describe, expect, it } from 'vitest';
import {
  formatFrontmatter,
  isPrintableUri,
  MAX_MEMORY_CONCEPT_LENGTH,
  memoryFilePath,
  normalizeMemoryConcept,
  noteLocation,
  frontmatterFields,
  parseMemoryFile,
  parseWikiLinkFilter,
  splitMemoryFile,
  printableConcept,
  projectConcept,
  sanitizeTitle,
  sessionUri,
  slugify,
  stripTitleCharacters,
} from '../../../src/core/memory/memory-format.js';

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

  it('should read an empty key as an empty list, and damaged YAML as no frontmatter (the body still counts)', () => {
    expect(parseMemoryFile('---\ntags:\ntitle: x\n---\nbody').frontmatter).toEqual({ tags: [], title: 'x' });
    expect(parseMemoryFile('---\ntitle: a: b\n---\nbody')).toEqual({ frontmatter: {}, body: 'body' });
    expect(parseMemoryFile('---\ncount: 3\nflag: true\n---\n').frontmatter).toEqual({ count: '3', flag: 'true' });
  });

  it('should read inline lists and single quotes, and leave a file without frontmatter whole', () => {
    expect(parseMemoryFile("---\ntags: [a, 'b c']\ntitle: 'it''s'\n---\nbody").frontmatter).toEqual({ tags: ['a', 'b c'], title: "it's" });
    expect(parseMemoryFile('no frontmatter\n---\n')).toEqual({ frontmatter: {}, body: 'no frontmatter\n---\n' });
  });
});

describe('splitMemoryFile', () => {
  it('should split as parseMemoryFile does, leaving the YAML unread until its fields are asked for', () => {
    const texts = [`${formatFrontmatter({ title: 'Cache plan', tags: ['a'] })}\n\n# Plan\n`, '---\ntitle: a: b\n---\nbody', 'no frontmatter\n---\n', '---\n---\nempty'];
    for (const text of texts) {
      const split = splitMemoryFile(text);
      expect({ frontmatter: frontmatterFields(split.yaml), body: split.body }).toEqual(parseMemoryFile(text));
    }
    expect(splitMemoryFile(texts[0] as string)).toEqual({ yaml: 'title: Cache plan\ntags:\n- a', body: '# Plan\n' });
    expect(splitMemoryFile('no frontmatter').yaml).toBeNull();
  });
});

describe('stripTitleCharacters', () => {
  it('should strip what sanitizeTitle strips and nothing else, so a stripped part passes sanitation unchanged', () => {
    expect(stripTitleCharacters('acme: shop/v2 (beta)')).toBe('acme shopv2 beta');
    expect(stripTitleCharacters('  keeps  spaces  ')).toBe('  keeps  spaces  ');
    const part = stripTitleCharacters('a.-.b [x] <y>');
    expect(sanitizeTitle(`Compaction ${part} 20260304`)).toBe(`Compaction ${part} 20260304`);
  });
});

describe('noteLocation and memoryFilePath', () => {
  it("should give a note's stored title, slug and URI, and the URI's file", () => {
    expect(noteLocation('sessions/compaction', 'Plan: cache & [queue] #1')).toEqual({ title: 'Plan cache queue 1', slug: 'plan-cache-queue-1', uri: 'memory://sessions/compaction/plan-cache-queue-1' });
    expect(noteLocation('', 'Top')).toMatchObject({ uri: 'memory://top' });
    expect(memoryFilePath('/root/memory', 'memory://a/b')).toBe('/root/memory/a/b.md');
  });
});

describe('sessionUri', () => {
  it('should file a session under the UTC date of its id', () => {
    expect(sessionUri('session-1772618706789-00042')).toBe('memory://thinking/sequential/2026/03/04/session-1772618706789-00042');
    expect(sessionUri('session-1-1')).toBe('memory://thinking/sequential/1970/01/01/session-1-1');
  });

  it('should refuse what is not a session id, or whose time is no date', () => {
    expect(sessionUri('session-abc')).toBeNull();
    expect(sessionUri('../session-1-1')).toBeNull();
    expect(sessionUri(`session-${'9'.repeat(20)}-1`)).toBeNull();
  });
});

describe('projectConcept', () => {
  it("should link a project by its normalized name, or as 'project' when nothing is left", () => {
    expect(projectConcept('Acme Shop')).toBe('acme-shop');
    expect(projectConcept('***')).toBe('project');
  });
});

describe('printableConcept and isPrintableUri', () => {
  it('should leave a stored name one line, without markup or controls, and bounded', () => {
    expect(printableConcept('Cache <b>Layer</b>\u202E\u0007')).toBe('cache-b-layer-b');
    expect(printableConcept('x\n## Injected')).toBe('x-injected');
    expect([...printableConcept('y'.repeat(300))]).toHaveLength(MAX_MEMORY_CONCEPT_LENGTH);
    expect(printableConcept(printableConcept('A [b] c'))).toBe(printableConcept('A [b] c'));
  });

  it('should accept memory URIs without spaces or markup only', () => {
    expect(isPrintableUri('memory://a/b-c.d')).toBe(true);
    expect(isPrintableUri('memory://b c')).toBe(false);
    expect(isPrintableUri('javascript:alert(1)')).toBe(false);
  });
});

describe('parseWikiLinkFilter', () => {
  it('should normalize the blocked concepts and block nothing when the file is not an object', () => {
    expect(parseWikiLinkFilter('{"Secret Thing": "internal"}')).toEqual(new Map([['secret-thing', 'internal']]));
    expect(parseWikiLinkFilter('[1]').size).toBe(0);
    expect(parseWikiLinkFilter('{').size).toBe(0);
  });
});
