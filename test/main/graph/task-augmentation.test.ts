/**
 * The task hook alone, from its factory: the maenifold double as a real process for the CLI's
 * answers and faults, and the fitting task run inline (the pool is tested on its own; the hook's
 * wiring into the plugin in session-start.test.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveProject } from '../../../src/main/shared/project.js';
import { createTaskAugmentation, TASK_CONTEXT_HEADING } from '../../../src/main/graph/task-augmentation.js';
import { createMaenifoldClient } from '../../../src/main/memory/cli/maenifold-client.js';
import { locateCli } from '../../../src/main/memory/cli/cli-locator.js';
import { createInlineRunner } from '../../../src/main/pool/inline-runner.js';
import { createLogger } from '../../../src/main/shared/logger.js';
import { resolvePluginOptions } from '../../../src/main/options/plugin-options.js';
import { countTokens } from '../../../src/core/text/tokens/tokens.js';
import { createDoubleRoot, type DoubleRoot } from '../../../support/maenifold-double.js';
import { createFakeHost } from '../../../support/fake-host.js';
import { STRONG_GRAPH } from '../../support/plugin-harness.js';

type ToolBefore = ReturnType<typeof createTaskAugmentation>;

// One memory root for the file, seeded once: every test only reads it (a fault is the environment of a test's
// own client, not a state of the root).
let double: DoubleRoot;
beforeAll(async () => {
  double = await createDoubleRoot();
  await double.seed(STRONG_GRAPH);
});
afterAll(async () => {
  await double.cleanup();
});

/**
 * The hook over the double seeded with `STRONG_GRAPH`.
 * @param options - plugin options, as the `[spec, options]` tuple gives them.
 * @param env - extra environment for the double (its faults).
 */
async function taskHook(options: Record<string, unknown> = {}, env: Record<string, string> = {}): Promise<{ hook: ToolBefore; double: DoubleRoot }> {
  const root = double;
  const environment: NodeJS.ProcessEnv = { ...process.env, ...root.env, ...env };
  // The seeded graph belongs to no project: these tests read all of memory; the scope has its own test.
  const hook = createTaskAugmentation({
    options: resolvePluginOptions({ memoryScope: 'all', ...options }, {}).options,
    project: resolveProject('acme', ''),
    chains: { get: async () => null },
    logger: createLogger(createFakeHost().client),
    memory: createMaenifoldClient(locateCli('', environment), environment),
    runner: await createInlineRunner(),
  });
  return { hook, double: root };
}

async function before(hook: ToolBefore, tool: string, args: Record<string, unknown>): Promise<Record<string, unknown>> {
  const output = { args };
  await hook({ tool, sessionID: 's', callID: 'c' }, output);
  return output.args;
}

describe('createTaskAugmentation', () => {
  it('should append graph context for the prompt links under a Graph Context heading', async () => {
    const { hook, double: root } = await taskHook();
    // Only this test's calls: the root's log is the file's.
    const earlier = (await root.calls()).length;
    const prompt = 'Refactor the [[Redis]] client and check the [[Cache Layer]] and [[lonely topic]].';
    const args = await before(hook, 'task', { prompt, description: 'refactor' });
    const text = args['prompt'] as string;
    expect(text.startsWith(`${prompt}\n\n---\n\n${TASK_CONTEXT_HEADING}`)).toBe(true);
    expect(text).toContain('Context for CONCEPT: redis');
    expect(text).toContain('Context for CONCEPT: cache-layer');
    expect(text).not.toContain('Context for CONCEPT: lonely-topic');
    expect(countTokens(text.slice(text.indexOf(TASK_CONTEXT_HEADING)))).toBeLessThanOrEqual(8_000);
    const builds = (await root.calls()).slice(earlier).filter((call) => call.tool === 'BuildContext').map((call) => call.payload);
    expect(builds).toEqual(
      expect.arrayContaining([
        { conceptName: 'redis', depth: 1, maxEntities: 5 },
        { conceptName: 'cache-layer', depth: 1, maxEntities: 5 },
      ]),
    );
  });

  it('should leave other tools and link-free prompts alone', async () => {
    const { hook } = await taskHook();
    expect(await before(hook, 'bash', { command: 'echo [[redis]]' })).toEqual({ command: 'echo [[redis]]' });
    expect(await before(hook, 'task', { prompt: 'no links here' })).toEqual({ prompt: 'no links here' });
    expect(await before(hook, 'task', { prompt: 42 })).toEqual({ prompt: 42 });
  });

  it('should never inject CLI error text', async () => {
    const garbage = await taskHook({}, { MAENIFOLD_DOUBLE_FAULT: 'garbage' });
    expect(await before(garbage.hook, 'task', { prompt: 'Use [[redis]]' })).toEqual({ prompt: 'Use [[redis]]' });
    const hanging = await taskHook({ contextTimeoutMs: 300, contextTotalTimeoutMs: 600 }, { MAENIFOLD_DOUBLE_FAULT: 'hang' });
    expect(await before(hanging.hook, 'task', { prompt: 'Use [[redis]]' })).toEqual({ prompt: 'Use [[redis]]' });
  });

  it('should fit a small budget exactly', async () => {
    const { hook } = await taskHook({ taskContextTokens: 120, taskContextConceptTokens: 60 });
    const prompt = 'Use [[redis]] and the [[cache-layer]].';
    const text = (await before(hook, 'task', { prompt }))['prompt'] as string;
    const block = text.slice(text.indexOf(TASK_CONTEXT_HEADING));
    expect(block).toContain(TASK_CONTEXT_HEADING);
    expect(countTokens(block)).toBeLessThanOrEqual(120);
  });
});
