import { describe, expect, it } from 'vitest';
import type { CpuProfile, ProfileNode } from '../../src/profile/cpu-profile.js';
import { flameFrames, flameTree, frameGroup, type FlameFrame } from '../../src/profile/flame-tree.js';

const SOURCE = 'file:///home/dev/maenifold/src/core/text/markdown.ts?tsx-namespace=1';

function node(id: number, functionName: string, url: string, children: number[] = [], columnNumber = 0): ProfileNode {
  return { id, callFrame: { functionName, scriptId: 1, url, lineNumber: 0, columnNumber }, children };
}

/**
 * A profile whose samples each last 1 ms: `weights` maps a node id to its samples. Busy time: 1,050 ms.
 *
 *   (root) ─ (idle) 200
 *          ─ parse 100 ─ scan 200 ─ step ─ walk ─ visit ─ leaf 599    (depths 1 … 6)
 *                      ─ scan 100 (another closure of the same file)
 *                      ─ tiny 1 (0.1%)
 *          ─ encode 50 (a dependency)
 */
function sampleProfile(): CpuProfile {
  const nodes = [
    node(1, '(root)', '', [2, 3, 11]),
    node(2, '(idle)', ''),
    node(3, 'parse', SOURCE, [4, 10, 5]),
    node(4, 'scan', SOURCE, [6]),
    node(5, 'tiny', SOURCE),
    node(6, 'step', SOURCE, [7]),
    node(7, 'walk', SOURCE, [8]),
    node(8, 'visit', SOURCE, [9]),
    node(9, 'leaf', SOURCE),
    node(10, 'scan', SOURCE, [], 40),
    node(11, 'encode', 'file:///home/dev/maenifold/node_modules/gpt-tokenizer/esm/encode.js'),
  ];
  const weights: [number, number][] = [[2, 200], [3, 100], [4, 200], [10, 100], [5, 1], [9, 599], [11, 50]];
  const samples = weights.flatMap(([id, count]) => Array.from({ length: count }, () => id));
  return { nodes, startTime: 0, endTime: (samples.length + 1) * 1000, samples, timeDeltas: samples.map(() => 1000) };
}

function named(root: FlameFrame, name: string): FlameFrame | undefined {
  return flameFrames(root).find((frame) => frame.name === name);
}

describe('flameTree', () => {
  it('should weigh each frame by its busy time and leave idle time out', () => {
    const root = flameTree(sampleProfile(), { minShare: 0, maxDepth: 100 });
    expect(root.ms).toBeCloseTo(1050, 6);
    expect(root.children.map((frame) => [frame.name, frame.ms])).toEqual([['parse', 1000], ['encode', 50]]);
    expect(named(root, '(idle)')).toBeUndefined();
  });

  it('should merge sibling frames of the same function and file, and order siblings heaviest first with their x offsets', () => {
    const root = flameTree(sampleProfile(), { minShare: 0, maxDepth: 100 });
    const parse = root.children[0] as FlameFrame;
    expect(parse.children.map((frame) => [frame.name, frame.ms, frame.offsetMs])).toEqual([['scan', 899, 0], ['tiny', 1, 899]]);
    expect(root.children[1]?.offsetMs).toBe(1000);
  });

  it('should fold frames under the smallest share into their caller, with their time as its own', () => {
    const root = flameTree(sampleProfile(), { minShare: 0.002, maxDepth: 100 });
    const parse = named(root, 'parse');
    expect(named(root, 'tiny')).toBeUndefined();
    expect(parse?.ms).toBe(1000);
    expect(parse?.selfMs).toBe(101);
    expect(named(root, 'encode')?.ms).toBe(50);
  });

  it('should fold frames deeper than the cap into their caller at the cap', () => {
    const root = flameTree(sampleProfile(), { minShare: 0, maxDepth: 4 });
    const frames = flameFrames(root);
    expect(Math.max(...frames.map((frame) => frame.depth))).toBe(4);
    expect(frames.map((frame) => frame.name)).not.toContain('visit');
    expect(named(root, 'walk')).toMatchObject({ depth: 4, ms: 599, selfMs: 599, children: [] });
  });

  it('should keep every drawn frame at least as wide as the smallest share and its children within it', () => {
    const root = flameTree(sampleProfile());
    for (const frame of flameFrames(root)) {
      expect(frame.ms).toBeGreaterThanOrEqual(root.ms * 0.002);
      const inside = frame.children.reduce((sum, child) => sum + child.ms, 0) + frame.selfMs;
      expect(inside).toBeCloseTo(frame.ms, 6);
    }
  });
});

describe('frameGroup', () => {
  it('should group the project\'s files by folder, dependencies by package, and Node\'s and V8\'s own code apart', () => {
    expect(frameGroup(SOURCE)).toBe('src/core/text');
    expect(frameGroup('file:///x/node_modules/@scope/pkg/lib/a.js')).toBe('@scope/pkg');
    expect(frameGroup('file:///x/node_modules/micromark/lib/parse.js')).toBe('micromark');
    expect(frameGroup('node:internal/worker/io')).toBe('node');
    expect(frameGroup('')).toBe('V8');
  });
});
