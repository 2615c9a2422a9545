import { afterEach, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../../support/plugin-harness.js';
import { DEFAULT_CONFESSION_PROMPT } from '../../../src/main/summaries/confession-report.js';

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

async function after(h: Harness, tool: string, result: string, metadata: unknown = { sessionId: 'ses_sub' }): Promise<string> {
  const output = { title: 't', output: result, metadata };
  await h.plugin.hooks['tool.execute.after']?.({ tool, sessionID: 'ses_parent', callID: 'c', args: {} }, output);
  return output.output;
}

describe('ConfessionReport', () => {
  it('should ask the subagent and append its confession', async () => {
    harness = await startHarness();
    harness.host.queueReplies('ses_sub', 'Answer again.\n\n## ConfessionReport\n1. ✅ followed');
    const result = await after(harness, 'task', 'The answer.');
    expect(result).toBe('The answer.\n\nAnswer again.\n\n## ConfessionReport\n1. ✅ followed');
    expect(harness.host.prompts).toEqual([{ id: 'ses_sub', text: DEFAULT_CONFESSION_PROMPT }]);
  });

  it('should retry up to three times, then warn and pass the result on', async () => {
    harness = await startHarness();
    harness.host.queueReplies('ses_sub', 'no', 'still no', 'nope', 'ConfessionReport too late');
    expect(await after(harness, 'task', 'The answer.')).toBe('The answer.');
    expect(harness.host.prompts).toHaveLength(3);
    await harness.plugin.logger.flush();
    expect(harness.host.linesWith('none after 3 attempts').map((line) => line.level)).toEqual(['warn']);
  });

  it('should leave confessed results, other tools and missing sessions alone', async () => {
    harness = await startHarness({ confessionPrompt: 'Confess, please.' });
    expect(await after(harness, 'task', 'Done. ConfessionReport: all ✅')).toBe('Done. ConfessionReport: all ✅');
    expect(await after(harness, 'bash', 'output')).toBe('output');
    expect(await after(harness, 'task', 'x', {})).toBe('x');
    harness.host.queueReplies('ses_sub', 'ConfessionReport: ok');
    await after(harness, 'task', 'y');
    expect(harness.host.prompts).toEqual([{ id: 'ses_sub', text: 'Confess, please.' }]);
  });
});
