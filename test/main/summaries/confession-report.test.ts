import { afterEach, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../../support/plugin-harness.js';
import { filePool } from '../../support/file-pool.js';
import { createFakeHost, type FakeHost } from '../../../support/fake-host.js';
import { createConfessionReport, DEFAULT_CONFESSION_PROMPT } from '../../../src/main/summaries/confession-report.js';
import { createLogger, type Logger } from '../../../src/main/shared/logger.js';
import { resolvePluginOptions } from '../../../src/main/options/plugin-options.js';

type ToolAfter = ReturnType<typeof createConfessionReport>;

const pool = filePool();
let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

/** The hook alone over a fake host: it uses only the options, the log and the host's session calls. */
function confessionHook(options: Record<string, unknown> = {}): { hook: ToolAfter; host: FakeHost; logger: Logger } {
  const host = createFakeHost();
  const logger = createLogger(host.client);
  return { hook: createConfessionReport({ options: resolvePluginOptions(options, {}).options, logger, host: host.client }), host, logger };
}

async function after(hook: ToolAfter | undefined, tool: string, result: string, metadata: unknown = { sessionId: 'ses_sub' }): Promise<string> {
  const output = { title: 't', output: result, metadata };
  await hook?.({ tool, sessionID: 'ses_parent', callID: 'c', args: {} }, output);
  return output.output;
}

describe('ConfessionReport', () => {
  it('should ask the subagent and append its confession, as the plugin\'s tool.execute.after hook', async () => {
    // No session context, whose CLI calls at start have nothing to do with the task hook.
    harness = await startHarness({ sessionStart: false }, {}, undefined, { pool: pool() });
    harness.host.queueReplies('ses_sub', 'Answer again.\n\n## ConfessionReport\n1. ✅ followed');
    const result = await after(harness.plugin.hooks['tool.execute.after'], 'task', 'The answer.');
    expect(result).toBe('The answer.\n\nAnswer again.\n\n## ConfessionReport\n1. ✅ followed');
    expect(harness.host.prompts).toEqual([{ id: 'ses_sub', text: DEFAULT_CONFESSION_PROMPT }]);
  });

  it('should retry up to three times, then warn and pass the result on', async () => {
    const { hook, host, logger } = confessionHook();
    host.queueReplies('ses_sub', 'no', 'still no', 'nope', 'ConfessionReport too late');
    expect(await after(hook, 'task', 'The answer.')).toBe('The answer.');
    expect(host.prompts).toHaveLength(3);
    await logger.flush();
    expect(host.linesWith('none after 3 attempts').map((line) => line.level)).toEqual(['warn']);
  });

  it('should leave confessed results, other tools and missing sessions alone', async () => {
    const { hook, host } = confessionHook({ confessionPrompt: 'Confess, please.' });
    expect(await after(hook, 'task', 'Done. ConfessionReport: all ✅')).toBe('Done. ConfessionReport: all ✅');
    expect(await after(hook, 'bash', 'output')).toBe('output');
    expect(await after(hook, 'task', 'x', {})).toBe('x');
    host.queueReplies('ses_sub', 'ConfessionReport: ok');
    await after(hook, 'task', 'y');
    expect(host.prompts).toEqual([{ id: 'ses_sub', text: 'Confess, please.' }]);
  });
});
