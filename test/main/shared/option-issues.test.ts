import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { describeOptionIssue } from '../../../src/main/shared/option-issues.js';
import { resolvePluginOptions } from '../../../src/main/shared/plugin-options.js';

describe('describeOptionIssue', () => {
  it('should print, word for word, every option warning the README quotes', () => {
    const readme = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8');
    const quoted = [...readme.matchAll(/`(option [\w.]+: expected [^`]*)`/g)].map((match) => match[1]);
    expect(quoted.length).toBeGreaterThan(0);
    // The README's example: a bad variable beside a valid opencode.json value, and a misspelt key.
    const { issues } = resolvePluginOptions({ compactionTokens: 800, compactionTokenz: 900 }, { MAENIFOLD_COMPACTION_TOKENS: 'lots' });
    for (const line of quoted) expect(issues.map(describeOptionIssue)).toContain(line);
  });

  it('should say an unknown key is ignored, not that a default is used', () => {
    const { issues } = resolvePluginOptions({ compactionTokenz: 900 }, {});
    expect(issues.map(describeOptionIssue)).toEqual(['option compactionTokenz: expected a known option (see the README), got 900; ignored']);
  });

  it('should name the default a bad pool value falls back to', () => {
    const { issues } = resolvePluginOptions({ pool: { maxQueue: 0 } }, {});
    expect(issues.map(describeOptionIssue)).toEqual(['option pool.maxQueue: expected an integer from 1 to 100000, got 0; using 256 (the default)']);
  });
});
