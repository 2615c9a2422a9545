import { describe, expect, it } from 'vitest';
import { figuresTable, formatFigure, MAX_WIDTH, sideBySideTable, tasksTable } from '../../bench/format.js';
import { delayChartSvg } from '../../bench/delay-chart.js';

const widest = (text: string): number => Math.max(...text.split('\n').map((line) => line.length));

describe('bench tables', () => {
  it('should turn tinybench rows into median and mean in ms, rounded, within 120 columns', () => {
    const text = tasksTable('extraction, 10MB', [
      {
        'Task name': '10MB pooled, whole session, with a name long enough to need cutting '.repeat(3),
        'Latency avg (ns)': '52571514.999999636 ± 2.345%',
        'Latency med (ns)': '51234567.89 ± 123456.7',
        'Throughput avg (ops/s)': '19 ± 2.3%',
        'Throughput med (ops/s)': '20 ± 1',
        Samples: 10,
      },
    ]);
    expect(widest(text)).toBeLessThanOrEqual(MAX_WIDTH);
    const [, , row] = text.split('\n');
    expect(row).toMatch(/…\s+10\s+51\.2 ms\s+52\.6 ms\s+2\.35 %$/);
  });

  it('should print one figure a line with its unit, and sizes side by side', () => {
    expect(figuresTable('load', { throughput_mb_s: 3.14159, peak_rss_mb: 211.7, hook_p50_ms: 52.571514999999636, session_bytes: 1024 ** 2 }).split('\n').slice(2)).toEqual([
      'throughput  3.14 MB/s',
      'peak rss       212 MB',
      'hook p50      52.6 ms',
      'session          1 MB',
    ]);
    const sizes = Object.fromEntries(['100KB', '1MB', '10MB'].map((label, index) => [label, { compacting_hook_repeat_stall_max_ms: 1.23456 * 10 ** index, naive_p50_ms: null }]));
    const text = sideBySideTable('figure (node 20.20.2)', sizes);
    expect(text.split('\n')[2]).toMatch(/^compacting hook repeat stall max\s+1\.23 ms\s+12\.3 ms\s+123 ms$/);
    expect(text.split('\n')[3]).toMatch(/^naive p50\s+–\s+–\s+–$/);
    expect(formatFigure(12345.678, 'ms')).toBe('12,346 ms');
  });
});

describe('the delay chart', () => {
  it('should draw one line per series in an SVG document, and the longest delay of each', () => {
    const svg = delayChartSvg('delay', [
      {
        title: 'node',
        series: [
          { name: 'worker pool', timeline: { at: [1, 2, 3, 4], delay: [0.1, 2.5, 0, 0.2] } },
          { name: 'inline', timeline: { at: [1, 350, 351], delay: [0, 348.6, 0] } },
        ],
      },
    ]);
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
    expect(svg.match(/<polyline /g)).toHaveLength(2);
    expect(svg).toContain('longest 2.5 ms');
    expect(svg).toContain('longest 349 ms');
  });
});
