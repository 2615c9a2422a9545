import { utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createRuleSet, MAX_RULE_BYTES, parseRule, renderRules, ruleFolders, RULES_RECHECK_MS } from '../../../src/main/rules/rules.js';
import { createLogger } from '../../../src/main/shared/logger.js';
import { createFakeHost } from '../../../support/fake-host.js';
import { scratchFolders } from '../../support/scratch.js';

const scratch = scratchFolders('rules');

async function folder(files: Record<string, string>): Promise<string> {
  const dir = await scratch();
  for (const [name, content] of Object.entries(files)) await writeFile(join(dir, name), content);
  return dir;
}

describe('ruleFolders', () => {
  it('should read the global folder from XDG_CONFIG_HOME or ~/.config, and the project folder', () => {
    expect(ruleFolders({ XDG_CONFIG_HOME: '/x' }, '/p')).toEqual(['/x/opencode/rules', '/p/.opencode/rules']);
    expect(ruleFolders({ HOME: '/h' }, '/p')).toEqual(['/h/.config/opencode/rules', '/p/.opencode/rules']);
  });
});

describe('parseRule', () => {
  it('should read frontmatter globs and description', () => {
    const rule = parseRule('/r/api.md', '---\nglobs:\n  - "src/api/**/*.ts"\ndescription: API conventions\n---\nValidate every request body.\n');
    expect(rule).toMatchObject({ name: 'api', description: 'API conventions', globs: ['src/api/**/*.ts'], body: 'Validate every request body.' });
    expect(rule.matches('src/api/users/get.ts')).toBe(true);
    expect(rule.matches('src/ui/button.tsx')).toBe(false);
  });

  it('should treat a rule without frontmatter as always applying, and accept a single glob string', () => {
    expect(parseRule('/r/a.md', 'Use tabs.').globs).toEqual([]);
    const rule = parseRule('/r/b.md', '---\nglobs: "*.md"\n---\nWrap at 80.');
    expect(rule.matches('docs/readme.md')).toBe(true);
  });

  it('should throw on broken YAML and on globs of the wrong type', () => {
    expect(() => parseRule('/r/c.md', '---\nglobs: [unclosed\n---\nx')).toThrow();
    expect(() => parseRule('/r/d.md', '---\nglobs: 42\n---\nx')).toThrow(/globs/);
    expect(() => parseRule('/r/e.md', '---\n- a list\n---\nx')).toThrow(/mapping/);
  });
});

describe('createRuleSet', () => {
  it('should load both folders, skip bad files with one line each, and pick the applicable rules', async () => {
    const global = await folder({ 'style.md': 'Prefer small functions.' });
    const project = await folder({
      'api.md': '---\nglobs: ["src/api/**"]\n---\nValidate inputs.',
      'broken.md': '---\nglobs: [\n---\nx',
      'huge.md': 'x'.repeat(MAX_RULE_BYTES + 1),
      'notes.txt': 'not a rule',
    });
    const host = createFakeHost();
    const set = createRuleSet([global, project, join(global, 'missing')], createLogger(host.client));
    const rules = await set.load();
    expect(rules.map((rule) => rule.name)).toEqual(['style', 'api']);
    expect(set.applicable(rules, []).map((rule) => rule.name)).toEqual(['style']);
    expect(set.applicable(rules, ['src/api/x.ts']).map((rule) => rule.name)).toEqual(['style', 'api']);
    const skipped = host.linesWith('rules: skipped').map((line) => line.message);
    expect(skipped).toHaveLength(2);
    expect(skipped[0]).toContain(join(project, 'broken.md'));
    expect(skipped[1]).toContain(`${join(project, 'huge.md')}: ${MAX_RULE_BYTES + 1} bytes`);
  });

  it('should read a folder again only when it changed', async () => {
    const dir = await folder({ 'a.md': 'First.' });
    let now = 1_000_000;
    const set = createRuleSet([dir], createLogger(undefined), () => now);
    expect((await set.load()).map((rule) => rule.body)).toEqual(['First.']);
    await writeFile(join(dir, 'a.md'), 'Second, longer.');
    expect((await set.load()).map((rule) => rule.body)).toEqual(['First.']);
    now += RULES_RECHECK_MS;
    expect((await set.load()).map((rule) => rule.body)).toEqual(['Second, longer.']);
    const cached = await set.load();
    now += RULES_RECHECK_MS;
    // Unchanged folder: the same parsed rule, not a new reading.
    expect((await set.load())[0]).toBe(cached[0]);
    await utimes(join(dir, 'a.md'), new Date(), new Date(Date.now() + 5_000));
    now += RULES_RECHECK_MS;
    const reread = await set.load();
    expect(reread[0]).not.toBe(cached[0]);
    expect(reread.map((rule) => rule.body)).toEqual(['Second, longer.']);
  });
});

describe('renderRules', () => {
  it('should render under one heading and stop at the cap', () => {
    const rules = [parseRule('/r/a.md', 'Rule A.'), parseRule('/r/b.md', '---\ndescription: B things\n---\nRule B.')];
    expect(renderRules(rules, 10_000).text).toBe('## Project rules\n\nFollow these rules of this project and its user.\n\n### a\n\nRule A.\n\n### B things\n\nRule B.');
    expect(renderRules(rules, 90)).toMatchObject({ included: 1 });
    expect(renderRules([], 100)).toEqual({ text: '', included: 0 });
  });
});
