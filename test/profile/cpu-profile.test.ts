import { describe, expect, it } from 'vitest';
import { mergeProfiles, profileWithin, samplesOf, type CpuProfile } from '../../src/profile/cpu-profile.js';

/** (root) → work (node 2) and start (node 3); ten samples 1 ms apart, from 1 ms to 10 ms on the profile's clock. */
function profile(): CpuProfile {
  const frame = (functionName: string) => ({ functionName, scriptId: 1, url: 'file:///w/src/a.js', lineNumber: 0, columnNumber: 0 });
  return {
    nodes: [
      { id: 1, callFrame: { ...frame('(root)'), url: '' }, children: [2, 3] },
      { id: 2, callFrame: frame('work') },
      { id: 3, callFrame: frame('start') },
    ],
    startTime: 0,
    endTime: 11_000,
    samples: [3, 3, 2, 2, 2, 2, 2, 2, 3, 3],
    timeDeltas: Array.from({ length: 10 }, () => 1000),
  };
}

describe('profileWithin', () => {
  it('should leave the samples inside the span on their nodes and put the others on no node', () => {
    // The profile's clock + 100 ms is the shared clock: the span covers its samples at 3 … 8 ms.
    const within = profileWithin({ timed: { profile: profile(), offsetMs: 100 }, start: 103, end: 109 });
    expect(within.samples).toEqual([-1, -1, 2, 2, 2, 2, 2, 2, -1, -1]);
    expect(within.timeDeltas).toEqual(profile().timeDeltas);
  });

  it('should give merged profiles the time outside the span as idle', () => {
    const merged = mergeProfiles([profileWithin({ timed: { profile: profile(), offsetMs: 0 }, start: 3, end: 9 })]);
    const names = new Map(merged.nodes.map((node) => [node.id, node.callFrame.functionName]));
    const busy = samplesOf({ profile: merged, offsetMs: 0 }).filter((sample) => names.get(sample.node) !== '(idle)');
    expect(busy.map((sample) => names.get(sample.node))).toEqual(['work', 'work', 'work', 'work', 'work', 'work']);
  });
});
