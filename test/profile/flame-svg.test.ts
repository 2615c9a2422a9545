import { describe, expect, it } from 'vitest';
import type { CpuProfile } from '../../src/profile/cpu-profile.js';
import { flameGraphSvg } from '../../src/profile/flame-svg.js';
import { xmlElements } from './xml-elements.js';

/** root → `outer` (90 ms: 30 own) → `inner` (60 ms), in a file whose name needs escaping; 1 ms per sample. */
function profile(outer: string, inner: string): CpuProfile {
  const url = 'file:///w/src/core/a&b.ts';
  const nodes = [
    { id: 1, callFrame: { functionName: '(root)', scriptId: 0, url: '', lineNumber: -1, columnNumber: -1 }, children: [2] },
    { id: 2, callFrame: { functionName: outer, scriptId: 1, url, lineNumber: 0, columnNumber: 0 }, children: [3] },
    { id: 3, callFrame: { functionName: inner, scriptId: 1, url, lineNumber: 4, columnNumber: 0 } },
  ];
  const samples = [...Array.from({ length: 30 }, () => 2), ...Array.from({ length: 60 }, () => 3)];
  return { nodes, startTime: 0, endTime: (samples.length + 1) * 1000, samples, timeDeltas: samples.map(() => 1000) };
}

function frameRects(svg: string): { x: number; width: number }[] {
  return xmlElements(svg)
    .filter((element) => element.name === 'rect' && element.attributes['class'] === 'frame')
    .map((element) => ({ x: Number(element.attributes['x']), width: Number(element.attributes['width']) }));
}

describe('flameGraphSvg', () => {
  it('should draw one box per frame, the root included, as wide as its share', () => {
    const graph = flameGraphSvg(profile('outer', 'inner'), 'worker 1 · cold compaction');
    const rects = frameRects(graph.svg);
    expect(graph.frames).toBe(3);
    expect(rects).toHaveLength(3);
    const [root, outer, inner] = rects.map((rect) => rect.width);
    expect((outer ?? 0) / (root ?? 1)).toBeCloseTo(1, 2);
    expect((inner ?? 0) / (root ?? 1)).toBeCloseTo(60 / 90, 2);
  });

  it('should name the thread and its busy time in the title', () => {
    const { svg, totalMs } = flameGraphSvg(profile('outer', 'inner'), 'worker 1 · cold compaction');
    expect(totalMs).toBeCloseTo(90, 6);
    expect(svg).toContain('>worker 1 · cold compaction · 90.0 ms sampled, idle excluded</text>');
  });

  it('should stay well-formed XML when names and files hold markup characters', () => {
    const { svg } = flameGraphSvg(profile('<lambda> & "friends"', 'get #x'), 'hook <main> & co');
    expect(() => xmlElements(svg)).not.toThrow();
    expect(svg).toContain('&lt;lambda&gt; &amp; &quot;friends&quot;');
    expect(frameRects(svg)).toHaveLength(3);
  });
});

describe('xmlElements', () => {
  it('should reject what is not well-formed', () => {
    expect(() => xmlElements('<svg><g></svg>')).toThrow();
    expect(() => xmlElements('<svg/><svg/>')).toThrow();
    expect(() => xmlElements('<svg><text>a & b</text></svg>')).toThrow();
    expect(() => xmlElements('<svg><text>a < b</text></svg>')).toThrow();
    expect(xmlElements('<svg><rect class="frame"/><text>a &amp; b</text></svg>').map((element) => element.name)).toEqual(['svg', 'rect', 'text']);
  });
});
