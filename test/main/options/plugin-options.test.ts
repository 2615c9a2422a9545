import { describe, expect, it } from 'vitest';
import { describeOptionIssue } from '../../../src/main/options/option-issues.js';
import { DEFAULT_PLUGIN_OPTIONS, resolvePluginOptions } from '../../../src/main/options/plugin-options.js';

describe('resolvePluginOptions', () => {
  it('should give the defaults for no options', () => {
    const { options, issues } = resolvePluginOptions(undefined, { HOME: '/home/u' });
    expect(issues).toEqual([]);
    expect(options).toMatchObject(DEFAULT_PLUGIN_OPTIONS);
    expect(options.stateDir).toBe('/home/u/.local/state/opencode-maenifold');
    expect(options.pool.threads).toBeGreaterThanOrEqual(2);
  });

  it('should take tuple options and let MAENIFOLD_* variables override them', () => {
    const { options, issues } = resolvePluginOptions(
      { compactionTokens: 800, sessionStart: false, compactionStrategy: 'aggressive' },
      { MAENIFOLD_COMPACTION_TOKENS: '900', MAENIFOLD_TASK_CONTEXT: 'off', MAENIFOLD_CLI: '/opt/maenifold', XDG_STATE_HOME: '/state' },
    );
    expect(issues).toEqual([]);
    expect(options).toMatchObject({ compactionTokens: 900, sessionStart: false, taskContext: false, compactionStrategy: 'aggressive', cli: '' });
    expect(options.stateDir).toBe('/state/opencode-maenifold');
  });

  it('should report each bad value with its key and expectation, and keep the default', () => {
    const { options, issues } = resolvePluginOptions(
      { compactionTokens: -5, summaries: 'yes', compactionStrategy: 'wild', typo: 1, pool: { threads: 0 } },
      { MAENIFOLD_CONTEXT_TIMEOUT_MS: 'soon' },
    );
    expect(options.compactionTokens).toBe(500);
    expect(options.summaries).toBe(true);
    expect(options.contextTimeoutMs).toBe(5000);
    expect(issues.map((issue) => issue.key).sort()).toEqual(
      ['MAENIFOLD_CONTEXT_TIMEOUT_MS', 'compactionStrategy', 'compactionTokens', 'pool.threads', 'summaries', 'typo'].sort(),
    );
    expect(issues.find((issue) => issue.key === 'compactionTokens')).toMatchObject({ expected: 'an integer from 50 to 20000', actual: -5 });
  });

  it('should reject options that are not an object', () => {
    expect(resolvePluginOptions('fast', {}).issues).toEqual([
      { key: 'options', expected: 'an object', actual: 'fast', used: { value: 'the defaults', from: 'the default' } },
    ]);
  });

  it('should keep a valid opencode.json value when the variable for the same key is bad', () => {
    const { options, issues } = resolvePluginOptions({ compactionTokens: 800 }, { MAENIFOLD_COMPACTION_TOKENS: 'lots' });
    expect(options.compactionTokens).toBe(800);
    expect(issues).toEqual([
      { key: 'MAENIFOLD_COMPACTION_TOKENS', expected: 'an integer from 50 to 20000', actual: 'lots', used: { value: 800, from: 'opencode.json' } },
    ]);
    expect(describeOptionIssue(issues[0]!)).toBe(
      'option MAENIFOLD_COMPACTION_TOKENS: expected an integer from 50 to 20000, got "lots"; using 800 (opencode.json)',
    );
  });

  it('should report a bad opencode.json value that a valid variable overrides', () => {
    const { options, issues } = resolvePluginOptions({ compactionTokens: 'lots', stateDir: 5 }, { MAENIFOLD_COMPACTION_TOKENS: '900', MAENIFOLD_STATE_DIR: '/state' });
    expect(options.compactionTokens).toBe(900);
    expect(options.stateDir).toBe('/state');
    expect(issues.map(describeOptionIssue)).toEqual([
      'option compactionTokens: expected an integer from 50 to 20000, got "lots"; using 900 (MAENIFOLD_COMPACTION_TOKENS)',
      'option stateDir: expected a path, got 5; using "/state" (MAENIFOLD_STATE_DIR)',
    ]);
  });


  it('should fall back to the default, and say so with its value, when both sources are bad', () => {
    const { options, issues } = resolvePluginOptions({ compactionStrategy: 'wild' }, { MAENIFOLD_COMPACTION_STRATEGY: 'fast' });
    expect(options.compactionStrategy).toBe('conservative');
    expect(issues.map(describeOptionIssue)).toEqual([
      'option MAENIFOLD_COMPACTION_STRATEGY: expected one of conservative, aggressive, got "fast"; using "conservative" (the default)',
      'option compactionStrategy: expected one of conservative, aggressive, got "wild"; using "conservative" (the default)',
    ]);
  });

  it('should resolve the goal-frame options and reject bad budgets', () => {
    expect(resolvePluginOptions(undefined, {}).options).toMatchObject({ frames: true, frameAncestorTokens: 400, frameCurrentTokens: 400, frameSiblingTokens: 2000, framePrompt: false });
    const { options, issues } = resolvePluginOptions({ frameSiblingTokens: 50, framePrompt: 'yes', frameCurrentTokens: 300 }, { MAENIFOLD_FRAMES: 'off' });
    expect(options).toMatchObject({ frames: false, frameSiblingTokens: 2000, framePrompt: false, frameCurrentTokens: 300 });
    expect(issues.map((issue) => issue.key).sort()).toEqual(['framePrompt', 'frameSiblingTokens']);
    expect(issues.find((issue) => issue.key === 'frameSiblingTokens')).toMatchObject({ expected: 'an integer from 100 to 50000', actual: 50 });
  });
});
