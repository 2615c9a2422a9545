/**
 * The hook thread's delay over time as an SVG chart, written by hand: one
 * panel per runtime, one line per way of running the work (pool, inline).
 * The delay axis is logarithmic so that a 2 ms wait and a 2 s stall both show.
 */
import type { DelayTimeline } from './loop-delay.js';

/** One line of a panel. */
export interface DelaySeries {
  name: string;
  timeline: DelayTimeline;
}

/** One panel: a runtime's series. */
export interface DelayPanel {
  title: string;
  series: DelaySeries[];
}

const WIDTH = 920;
const PANEL_HEIGHT = 260;
const MARGIN = { left: 64, right: 190, top: 34, bottom: 42 };
const COLORS = ['#1f77b4', '#d62728', '#2ca02c', '#9467bd'];

const escape = (text: string): string => text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');
const fixed = (value: number): string => value.toFixed(1);

/** The smallest power of ten at or above `value`, at least 10. */
function ceilingPower(value: number): number {
  return 10 ** Math.max(1, Math.ceil(Math.log10(Math.max(value, 1))));
}

/** Time ticks: about six, at 1, 2 or 5 times a power of ten. */
function timeTicks(maxMs: number): number[] {
  const rough = maxMs / 6;
  const power = 10 ** Math.floor(Math.log10(Math.max(rough, 1e-3)));
  const step = [1, 2, 5, 10].map((factor) => factor * power).find((candidate) => candidate >= rough) ?? power * 10;
  const ticks: number[] = [];
  for (let tick = 0; tick <= maxMs + 1e-9; tick += step) ticks.push(tick);
  return ticks;
}

const timeLabel = (ms: number, maxMs: number): string => (maxMs >= 2000 ? `${Number((ms / 1000).toFixed(2))} s` : `${Math.round(ms)} ms`);

/**
 * For each pixel column, the longest delay of the samples that fall in it: thinning thousands of
 * samples to the plot's width keeps every stall.
 */
function columns(timeline: DelayTimeline, maxMs: number, plotWidth: number): Array<[number, number]> {
  const worst = new Map<number, number>();
  for (let index = 0; index < timeline.at.length; index++) {
    const column = Math.min(plotWidth, Math.round(((timeline.at[index] ?? 0) / maxMs) * plotWidth));
    worst.set(column, Math.max(worst.get(column) ?? 0, timeline.delay[index] ?? 0));
  }
  return [...worst.entries()].sort((a, b) => a[0] - b[0]);
}

function panel(spec: DelayPanel, top: number): string {
  const plotWidth = WIDTH - MARGIN.left - MARGIN.right;
  const plotHeight = PANEL_HEIGHT - MARGIN.top - MARGIN.bottom;
  const maxMs = Math.max(1, ...spec.series.map((series) => series.timeline.at.at(-1) ?? 0));
  const maxDelay = ceilingPower(Math.max(0, ...spec.series.flatMap((series) => series.timeline.delay)));
  const x0 = MARGIN.left;
  const y0 = top + MARGIN.top;
  const y = (delay: number): number => y0 + plotHeight - (Math.log10(1 + Math.max(0, delay)) / Math.log10(1 + maxDelay)) * plotHeight;
  const out: string[] = [`<text x="${x0}" y="${top + 20}" class="title">${escape(spec.title)}</text>`];
  for (let tick = 0; tick <= maxDelay; tick = tick === 0 ? 1 : tick * 10) {
    const at = fixed(y(tick));
    out.push(`<line x1="${x0}" x2="${x0 + plotWidth}" y1="${at}" y2="${at}" class="grid"/>`);
    out.push(`<text x="${x0 - 6}" y="${at}" class="ytick">${tick >= 1000 ? `${tick / 1000} s` : `${tick} ms`}</text>`);
  }
  for (const tick of timeTicks(maxMs)) {
    const at = fixed(x0 + (tick / maxMs) * plotWidth);
    out.push(`<line x1="${at}" x2="${at}" y1="${y0 + plotHeight}" y2="${y0 + plotHeight + 4}" class="axis"/>`);
    out.push(`<text x="${at}" y="${y0 + plotHeight + 16}" class="xtick">${timeLabel(tick, maxMs)}</text>`);
  }
  out.push(`<rect x="${x0}" y="${y0}" width="${plotWidth}" height="${plotHeight}" class="frame"/>`);
  out.push(`<text x="${x0 + plotWidth / 2}" y="${y0 + plotHeight + 34}" class="xlabel">time since the work started</text>`);
  out.push(`<text transform="translate(${x0 - 48} ${y0 + plotHeight / 2}) rotate(-90)" class="ylabel">timer fired late by</text>`);
  spec.series.forEach((series, index) => {
    const color = COLORS[index % COLORS.length] ?? '#000';
    const points = columns(series.timeline, maxMs, plotWidth).map(([column, delay]) => `${fixed(x0 + column)},${fixed(y(delay))}`);
    if (points.length > 0) out.push(`<polyline points="${points.join(' ')}" fill="none" stroke="${color}" stroke-width="1.2" stroke-linejoin="round"/>`);
    const worst = Math.max(0, ...series.timeline.delay);
    const legendY = y0 + 14 + index * 34;
    out.push(`<line x1="${x0 + plotWidth + 14}" x2="${x0 + plotWidth + 34}" y1="${legendY - 4}" y2="${legendY - 4}" stroke="${color}" stroke-width="2"/>`);
    out.push(`<text x="${x0 + plotWidth + 40}" y="${legendY}" class="legend">${escape(series.name)}</text>`);
    out.push(`<text x="${x0 + plotWidth + 40}" y="${legendY + 14}" class="note">longest ${worst >= 100 ? Math.round(worst) : worst.toFixed(1)} ms</text>`);
  });
  return out.join('\n');
}

/**
 * The SVG document: the panels stacked.
 *
 * @param title - the chart's heading.
 * @param panels - one per runtime.
 */
export function delayChartSvg(title: string, panels: readonly DelayPanel[]): string {
  const height = 36 + panels.length * PANEL_HEIGHT;
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${WIDTH} ${height}" width="${WIDTH}" height="${height}" font-family="system-ui, sans-serif" font-size="12">
<style>
.heading { font-size: 15px; font-weight: 600; }
.title { font-size: 13px; font-weight: 600; }
.grid { stroke: #e4e4e4; }
.axis { stroke: #444; }
.frame { fill: none; stroke: #888; }
.ytick { text-anchor: end; dominant-baseline: middle; fill: #444; }
.xtick { text-anchor: middle; fill: #444; }
.xlabel { text-anchor: middle; fill: #222; }
.ylabel { text-anchor: middle; fill: #222; }
.legend { fill: #222; }
.note { fill: #666; font-size: 11px; }
</style>
<rect width="100%" height="100%" fill="#fff"/>
<text x="${MARGIN.left}" y="22" class="heading">${escape(title)}</text>
${panels.map((spec, index) => panel(spec, 36 + index * PANEL_HEIGHT)).join('\n')}
</svg>
`;
}
