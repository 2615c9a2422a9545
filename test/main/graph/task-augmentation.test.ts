import { afterEach, describe, expect, it } from 'vitest';
import { startHarness, STRONG_GRAPH, type Harness } from '../../support/plugin-harness.js';
import { TASK_CONTEXT_HEADING } from '../../../src/main/graph/task-augmentation.js';
import { countTokens } from '../../../src/core/text/tokens.js';

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

async function before(h: Harness, tool: string, args: Record<string, unknown>): Promise<Record<string, unknown>> {
  const output = { args };
  await h.plugin.hooks['tool.execute.before']?.({ tool, sessionID: 's', callID: 'c' }, output);
  return output.args;
}

describe('task augmentation', () => {
  it('should append graph context for the prompt links under a Graph Context heading', async () => {
    harness = await startHarness({}, {}, STRONG_GRAPH);
    const prompt = 'Refactor the [[Redis]] client and check the [[Cache Layer]] and [[lonely topic]].';
    const args = await before(harness, 'task', { prompt, description: 'refactor' });
    const text = args['prompt'] as string;
    expect(text.startsWith(`${prompt}\n\n---\n\n${TASK_CONTEXT_HEADING}`)).toBe(true);
    expect(text).toContain('Context for CONCEPT: redis');
    expect(text).toContain('Context for CONCEPT: cache-layer');
    expect(text).not.toContain('Context for CONCEPT: lonely-topic');
    expect(countTokens(text.slice(text.indexOf(TASK_CONTEXT_HEADING)))).toBeLessThanOrEqual(8_000);
    const builds = (await harness.double.calls()).filter((call) => call.tool === 'BuildContext').map((call) => call.payload);
    expect(builds).toEqual(
      expect.arrayContaining([
        { conceptName: 'redis', depth: 1, maxEntities: 5 },
        { conceptName: 'cache-layer', depth: 1, maxEntities: 5 },
      ]),
    );
  });

  it('should leave other tools and link-free prompts alone', async () => {
    harness = await startHarness({}, {}, STRONG_GRAPH);
    expect(await before(harness, 'bash', { command: 'echo [[redis]]' })).toEqual({ command: 'echo [[redis]]' });
    expect(await before(harness, 'task', { prompt: 'no links here' })).toEqual({ prompt: 'no links here' });
    expect(await before(harness, 'task', { prompt: 42 })).toEqual({ prompt: 42 });
  });

  it('should never inject CLI error text', async () => {
    harness = await startHarness({}, { MAENIFOLD_DOUBLE_FAULT: 'garbage' }, STRONG_GRAPH);
    expect(await before(harness, 'task', { prompt: 'Use [[redis]]' })).toEqual({ prompt: 'Use [[redis]]' });
    await harness.close();
    harness = await startHarness({ contextTimeoutMs: 300, contextTotalTimeoutMs: 600 }, { MAENIFOLD_DOUBLE_FAULT: 'hang' }, STRONG_GRAPH);
    expect(await before(harness, 'task', { prompt: 'Use [[redis]]' })).toEqual({ prompt: 'Use [[redis]]' });
  });

  it('should fit a small budget exactly', async () => {
    harness = await startHarness({ taskContextTokens: 120, taskContextConceptTokens: 60 }, {}, STRONG_GRAPH);
    const prompt = 'Use [[redis]] and the [[cache-layer]].';
    const text = (await before(harness, 'task', { prompt }))['prompt'] as string;
    const block = text.slice(text.indexOf(TASK_CONTEXT_HEADING));
    expect(block).toContain(TASK_CONTEXT_HEADING);
    expect(countTokens(block)).toBeLessThanOrEqual(120);
  });
});
