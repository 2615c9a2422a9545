import { describe, expect, it } from 'vitest';
import { lastModelOf } from '../../../src/main/frames/frame-lifecycle.js';
import { loadToolHelper, toolHelperCandidates } from '../../../src/main/frames/tool-helper.js';
import { instructionsFor } from '../../../src/main/frames/frame-compaction.js';
import type { Frame } from '../../../src/main/frames/frame-state.js';

describe('lastModelOf', () => {
  it("should take the latest assistant's provider and model, or a user message's model", () => {
    const user = { info: { role: 'user', model: { providerID: 'p1', modelID: 'u' } } };
    const assistant = { info: { role: 'assistant', providerID: 'p2', modelID: 'a' } };
    expect(lastModelOf([user, assistant])).toEqual({ providerID: 'p2', modelID: 'a' });
    expect(lastModelOf([assistant, user])).toEqual({ providerID: 'p1', modelID: 'u' });
    expect(lastModelOf([{ info: { role: 'user' } }, null, 'x'])).toBeNull();
  });
});

describe('instructionsFor', () => {
  const frame: Frame = { sessionID: 's', parentID: 'p', goal: 'Ship it', successCriteria: '', status: 'in_progress', artifacts: [], createdAt: '', updatedAt: '' };
  it('should choose by status and give nothing to a finished frame or a root without a goal', () => {
    expect(instructionsFor(frame)).toContain('## Frame continuation');
    expect(instructionsFor({ ...frame, status: 'completing', outcome: 'failed' })).toContain('- Reported outcome: failed');
    expect(instructionsFor({ ...frame, status: 'completed' })).toBeNull();
    expect(instructionsFor({ ...frame, goal: '' })).toBeNull();
    expect(instructionsFor(undefined)).toBeNull();
  });
});

describe('loadToolHelper', () => {
  it("should look in the project's and the global .opencode folders after its own dependencies", async () => {
    expect(toolHelperCandidates(['/p', '/p'], { XDG_CONFIG_HOME: '/c' })).toEqual([
      '/p/.opencode/node_modules/@opencode-ai/plugin/dist/tool.js',
      '/c/opencode/node_modules/@opencode-ai/plugin/dist/tool.js',
    ]);
    const loaded = await loadToolHelper([], {});
    expect(loaded.ok && typeof loaded.tool.schema.string).toBe('function');
  });

});
