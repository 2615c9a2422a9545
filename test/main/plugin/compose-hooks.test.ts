import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { composeHooks, type FeatureHandlers } from '../../../src/main/plugin/compose-hooks.js';
import { hookBudgets } from '../../../src/main/plugin/hook-budgets.js';
import { TASK_FIT_RESERVE_MS } from '../../../src/main/graph/task-augmentation.js';
import { resolvePluginOptions } from '../../../src/main/options/plugin-options.js';
import { createLogger } from '../../../src/main/shared/logger.js';
import { createFakeHost } from '../../../support/fake-host.js';

/** Handlers that do nothing, but for the task context part given. */
function handlers(taskAugmentation: FeatureHandlers['taskAugmentation']): FeatureHandlers {
  const idle = async (): Promise<void> => undefined;
  return {
    sessionStart: idle,
    rules: idle,
    taskAugmentation,
    workingSet: { toolAfter: () => undefined, event: () => undefined },
    confession: idle,
    compaction: idle,
    windowForgetting: () => undefined,
    summaries: idle,
    frames: null,
  };
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('composeHooks', () => {
  it('should bound tool.execute.before by its budget: a slower task context is cut and logged, the host args untouched, also after it finishes', async () => {
    const host = createFakeHost();
    const logger = createLogger(host.client);
    const { options } = resolvePluginOptions({ contextTotalTimeoutMs: 1_000 }, {});
    const budgets = hookBudgets(options);
    let finished = false;
    const hooks = composeHooks(
      handlers(async (_input, output) => {
        // Past its own deadline: a part that does not keep it still holds the host no longer than the budget.
        await new Promise((resolve) => setTimeout(resolve, budgets.toolBefore + 10_000));
        (output.args as { prompt: string }).prompt = 'late context';
        finished = true;
      }),
      budgets,
      logger,
    );
    const args = { prompt: 'Fix [[rate limiter]]', description: 'fix' };
    const output = { args };
    let returned = false;
    const done = hooks['tool.execute.before']!({ tool: 'task', sessionID: 'ses_1' }, output).then(() => (returned = true));
    await vi.advanceTimersByTimeAsync(budgets.toolBefore - 1);
    expect(returned).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(returned).toBe(true);
    await done;
    await logger.flush();
    expect(host.linesWith('hook tool.execute.before:').map((line) => line.message)).toEqual([
      `hook tool.execute.before: task context did not finish within the hook's ${budgets.toolBefore} ms; its changes were dropped`,
    ]);
    await vi.advanceTimersByTimeAsync(20_000);
    expect(finished).toBe(true);
    expect(output.args).toBe(args);
    expect(args).toEqual({ prompt: 'Fix [[rate limiter]]', description: 'fix' });
  });

  it('should give tool.execute.before the task context deadline and its fitting reserve, and write a finished part into the host args in place', async () => {
    const { options } = resolvePluginOptions({ contextTotalTimeoutMs: 1_000 }, {});
    expect(hookBudgets(options).toolBefore).toBeGreaterThan(1_000 + TASK_FIT_RESERVE_MS);
    const hooks = composeHooks(
      handlers(async (_input, output) => {
        const args = output.args as { prompt: string; stale?: boolean };
        args.prompt = `${args.prompt}\n\n## Graph Context`;
        delete args.stale;
      }),
      hookBudgets(options),
      createLogger(undefined),
    );
    const args: { prompt: string; stale?: boolean } = { prompt: 'Fix [[rate limiter]]', stale: true };
    const output = { args };
    await hooks['tool.execute.before']!({ tool: 'task' }, output);
    expect(output.args).toBe(args);
    expect(args).toEqual({ prompt: 'Fix [[rate limiter]]\n\n## Graph Context' });
  });
});
