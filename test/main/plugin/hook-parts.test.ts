import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { COMPACTING_SCRATCH, runPartsWithin, SYSTEM_SCRATCH, TOOL_RESULT_SCRATCH, type HookPart, type PartsOutcome } from '../../../src/main/plugin/hook-parts.js';
import { createLogger } from '../../../src/main/shared/logger.js';
import { createFakeHost } from '../../../support/fake-host.js';

type System = { system: string[] };

/** A part that waits `ms`, then appends `text` to whatever output it was given. */
function slowPart(name: string, ms: number, text: string, ran: string[]): HookPart<unknown, System> {
  return {
    name,
    async run(_input, output) {
      ran.push(`${name} started`);
      await new Promise((resolve) => setTimeout(resolve, ms));
      output.system.push(text);
      ran.push(`${name} done`);
    },
  };
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('runPartsWithin', () => {
  it('should return at the one budget when every part hangs, with one line naming the hook and the part cut', async () => {
    const host = createFakeHost();
    const logger = createLogger(host.client);
    const ran: string[] = [];
    const output: System = { system: ['base'] };
    const parts = [slowPart('first', 4_000, 'one', ran), slowPart('second', 4_000, 'two', ran), slowPart('third', 4_000, 'three', ran)];
    let outcome: PartsOutcome | undefined;
    void runPartsWithin({}, output, parts, { hook: 'experimental.chat.system.transform', budgetMs: 5_000, logger, scratch: SYSTEM_SCRATCH }).then((value) => (outcome = value));
    // Each part alone is within the budget; their sum (12 s) is not.
    await vi.advanceTimersByTimeAsync(4_999);
    expect(outcome).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(outcome).toEqual({ state: 'cut', finished: ['first'], failed: [], cut: 'second', started: true, skipped: ['third'] });
    expect(ran).toEqual(['first started', 'first done', 'second started']);
    expect(output.system).toEqual(['base', 'one']);
    await logger.flush();
    expect(host.logs.map((line) => line.message)).toEqual([
      "hook experimental.chat.system.transform: second did not finish within the hook's 5000 ms; its changes were dropped; skipped third",
    ]);
  });

  it('should keep a part cut off from changing the output after the hook returned', async () => {
    const logger = createLogger(undefined);
    const ran: string[] = [];
    const context = ['guidelines'];
    const output: { context: string[]; prompt?: string } = { context };
    const late: HookPart<unknown, { context: string[]; prompt?: string }> = {
      name: 'frames',
      async run(_input, scratch) {
        await new Promise((resolve) => setTimeout(resolve, 2_000));
        scratch.context.push('late instructions');
        scratch.prompt = 'late prompt';
        ran.push('frames done');
      },
    };
    const done = runPartsWithin({}, output, [late], { hook: 'experimental.session.compacting', budgetMs: 1_000, logger, scratch: COMPACTING_SCRATCH });
    await vi.advanceTimersByTimeAsync(1_000);
    expect((await done).state).toBe('cut');
    await vi.advanceTimersByTimeAsync(5_000);
    // The part did finish, later, on its own copy.
    expect(ran).toEqual(['frames done']);
    expect(output).toEqual({ context: ['guidelines'] });
    expect('prompt' in output).toBe(false);
    expect(output.context).toBe(context);
  });

  it('should apply finished parts in place, in order, each seeing what the earlier ones added', async () => {
    const logger = createLogger(undefined);
    const context = ['host entry'];
    const output: { context: string[]; prompt?: string } = { context };
    const parts: HookPart<unknown, { context: string[]; prompt?: string }>[] = [
      { name: 'compaction', run: (_input, scratch) => void scratch.context.push('guidelines') },
      {
        name: 'frames',
        async run(_input, scratch) {
          await Promise.resolve();
          scratch.prompt = scratch.context.join(' | ');
        },
      },
    ];
    const outcome = await runPartsWithin({}, output, parts, { hook: 'experimental.session.compacting', budgetMs: 1_000, logger, scratch: COMPACTING_SCRATCH });
    expect(outcome).toEqual({ state: 'finished', finished: ['compaction', 'frames'], failed: [] });
    expect(output.context).toBe(context);
    expect(output).toEqual({ context: ['host entry', 'guidelines'], prompt: 'host entry | guidelines' });
  });

  it('should drop the changes of a part that throws, log it, and run the next one', async () => {
    const host = createFakeHost();
    const logger = createLogger(host.client);
    const output = { title: 't', output: 'result', metadata: {} };
    const parts: HookPart<unknown, typeof output>[] = [
      {
        name: 'broken',
        run(_input, scratch) {
          scratch.output = 'half-changed';
          throw new Error('boom');
        },
      },
      { name: 'confession', run: (_input, scratch) => void (scratch.output = `${scratch.output}\n\nConfessionReport`) },
    ];
    const outcome = await runPartsWithin({}, output, parts, { hook: 'tool.execute.after', budgetMs: 1_000, logger, scratch: TOOL_RESULT_SCRATCH });
    expect(outcome).toEqual({ state: 'finished', finished: ['confession'], failed: ['broken'] });
    expect(output.output).toBe('result\n\nConfessionReport');
    await logger.flush();
    expect(host.linesWith('hook tool.execute.after: broken failed, its changes were dropped: boom')).toHaveLength(1);
  });

  it('should cut a part that holds the thread past the budget, even though it finished, and skip the rest', async () => {
    const host = createFakeHost();
    const logger = createLogger(host.client);
    const ran: string[] = [];
    // Blocking the thread: the budget's timer has fired by the time the part returns.
    const busy: HookPart<unknown, System> = {
      name: 'busy',
      run(_input, scratch) {
        vi.advanceTimersByTime(2_000);
        scratch.system.push('too late');
        ran.push('busy');
      },
    };
    const output: System = { system: ['base'] };
    const outcome = await runPartsWithin({}, output, [busy, slowPart('rules', 0, 'rules', ran)], { hook: 'experimental.chat.system.transform', budgetMs: 1_000, logger, scratch: SYSTEM_SCRATCH });
    expect(ran).toEqual(['busy']);
    expect(outcome).toEqual({ state: 'cut', finished: [], failed: [], cut: 'busy', started: true, skipped: ['rules'] });
    expect(output.system).toEqual(['base']);
    await logger.flush();
    expect(host.logs).toHaveLength(1);
  });
});
