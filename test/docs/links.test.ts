import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { envName } from '../../src/main/options/option-kinds.js';
import { DEFAULT_PLUGIN_OPTIONS } from '../../src/main/options/plugin-options.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const README = join(ROOT, 'README.md');

/** README.md and every markdown page under docs/. */
function pages(): string[] {
  const docs = join(ROOT, 'docs');
  const found = existsSync(docs) ? readdirSync(docs).filter((name) => name.endsWith('.md')).map((name) => join(docs, name)) : [];
  return [README, ...found];
}

/** The text outside fenced code blocks and inline code spans: links there are examples, not links. */
function prose(markdown: string): string {
  return markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '').replace(/`[^`\n]*`/g, '');
}

/** The anchors GitHub gives a page's headings: lowercase, punctuation dropped, spaces as hyphens, repeats numbered. */
function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const result = new Set<string>();
  for (const match of prose(markdown).matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const base = (match[1] as string)
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/ /g, '-');
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    result.add(count === 0 ? base : `${base}-${count}`);
  }
  return result;
}

/** Every relative link of a page: `[text](target)` and `[text]: target`, without web or mail addresses. */
function relativeLinks(markdown: string): string[] {
  const text = prose(markdown);
  const targets = [...text.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g), ...text.matchAll(/^\s*\[[^\]]+\]:\s+(\S+)/gm)].map((match) => match[1] as string);
  return targets.filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target));
}

/** What is wrong with one link of `page`, or null when it resolves. */
function brokenLink(page: string, target: string): string | null {
  const [path = '', anchor] = target.split('#', 2);
  const file = path === '' ? page : resolve(dirname(page), decodeURI(path));
  if (!existsSync(file)) return `${target}: no such file`;
  if (anchor === undefined || anchor === '' || statSync(file).isDirectory() || !file.endsWith('.md')) return null;
  return anchors(readFileSync(file, 'utf8')).has(decodeURIComponent(anchor).toLowerCase()) ? null : `${target}: no heading with that anchor`;
}

describe('the README and docs/', () => {
  it('should link only to files and headings that exist', () => {
    const broken: string[] = [];
    let checked = 0;
    for (const page of pages()) {
      for (const target of relativeLinks(readFileSync(page, 'utf8'))) {
        checked += 1;
        const problem = brokenLink(page, target);
        if (problem) broken.push(`${relative(ROOT, page)}: ${problem}`);
      }
    }
    expect(checked).toBeGreaterThan(20);
    expect(broken).toEqual([]);
  });

  it('should keep the README short enough to read in a few minutes: at most 250 lines', () => {
    const lines = readFileSync(README, 'utf8').replace(/\n$/, '').split('\n').length;
    expect(lines).toBeLessThanOrEqual(250);
  });

  it('should name, in the README options table, every option with the variable that sets it', () => {
    const rows = readFileSync(README, 'utf8').split('\n').filter((line) => line.startsWith('| `'));
    const missing = [...Object.keys(DEFAULT_PLUGIN_OPTIONS), 'stateDir']
      .map((key) => ({ key, variable: envName(key).slice('MAENIFOLD_'.length) }))
      .filter(({ key, variable }) => !rows.some((row) => row.includes(`\`${key}\``) && row.includes(`\`${variable}\``)))
      .map(({ key }) => key);
    expect(missing).toEqual([]);
  });
});

describe('the link checker', () => {
  it('should find a missing file and a missing heading, and accept a link inside code as an example', () => {
    const page = join(ROOT, 'docs', 'example.md');
    const markdown = '# Title\n\nSee [a](hooks.md), [b](nope.md), [c](#title), [d](#none), `[e](gone.md)`, [f](https://x.y/z).\n```\n[g](gone.md)\n```\n';
    expect(relativeLinks(markdown)).toEqual(['hooks.md', 'nope.md', '#title', '#none']);
    expect(anchors(markdown)).toEqual(new Set(['title']));
    expect(brokenLink(page, 'nope.md')).toMatch(/no such file/);
    expect(brokenLink(README, '#no-such-heading')).toMatch(/no heading/);
    expect(brokenLink(README, '#options')).toBeNull();
  });

  it('should give headings the anchors GitHub gives them', () => {
    expect(anchors('## Projects and what the next session receives\n## What it adds by default, and how to turn it off\n## Options\n## Options\n')).toEqual(
      new Set(['projects-and-what-the-next-session-receives', 'what-it-adds-by-default-and-how-to-turn-it-off', 'options', 'options-1']),
    );
  });
});
