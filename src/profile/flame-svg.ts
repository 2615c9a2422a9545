/**
 * A flame graph of one thread as a standalone SVG file: an icicle chart (the
 * root on top, each row the functions the row above called), x the share of
 * the thread's sampled time, boxes labelled where the label fits and coloured
 * by the folder or package of their file. Opens in any browser (each box's
 * tooltip gives its full name and times) and shows as an image on GitHub.
 */
import { DEFAULT_FLAME_BOUNDS, flameFrames, flameTree, type FlameBounds, type FlameFrame } from './flame-tree.js';
import type { CpuProfile } from './cpu-profile.js';

/** What a drawing holds, with the picture. */
export interface FlameGraph {
  svg: string;
  /** Boxes drawn: one per frame of the bounded tree, the root included. */
  frames: number;
  /** The thread's busy time in the profile, in ms. */
  totalMs: number;
}

const WIDTH = 1200;
const MARGIN = 10;
const ROW = 17;
const FONT = 11;
/** Width of one character of the monospace font at `FONT` px, a little over most fonts' 0.6 em. */
const CHAR = 6.7;
const HEADER = 66;

/** Project folders take warm colours, packages cool ones, both light enough for dark labels. */
const WARM = ['#f4a261', '#f6d55c', '#ee7d7d', '#e99ad0', '#d8b98c', '#c9d66b', '#f7c59f', '#e0a458'];
const COOL = ['#8ecae6', '#a3d9b1', '#b3b7ef', '#7fc8b8', '#d0c2ee', '#c4e0a5', '#9cb4d8', '#b9e3e8'];
const FIXED: Record<string, string> = { V8: '#cfcfcf', node: '#b4b4b4' };

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

function isProjectGroup(group: string): boolean {
  return /^(?:src|plugin|dist|bench|test)(?:\/|$)/.test(group);
}

/** A colour per group, the heaviest groups (by own time) first in their palette so they differ most. */
function groupColours(frames: readonly FlameFrame[]): { colours: Map<string, string>; order: { group: string; ms: number }[] } {
  const own = new Map<string, number>();
  for (const frame of frames) if (frame.depth > 0) own.set(frame.group, (own.get(frame.group) ?? 0) + frame.selfMs);
  const order = [...own.entries()].map(([group, ms]) => ({ group, ms })).sort((a, b) => b.ms - a.ms);
  const colours = new Map<string, string>();
  let warm = 0;
  let cool = 0;
  for (const { group } of order) {
    const fixed = FIXED[group];
    if (fixed) colours.set(group, fixed);
    else if (isProjectGroup(group)) colours.set(group, WARM[warm++ % WARM.length] as string);
    else colours.set(group, COOL[cool++ % COOL.length] as string);
  }
  return { colours, order };
}

/**
 * The label that fits `width` px: the name and its file, else the name alone, cut with an ellipsis
 * when needed; '' when not even three characters fit.
 */
function fitted(name: string, location: string, width: number): string {
  const room = Math.floor((width - 6) / CHAR);
  const full = location ? `${name}  ${location}` : name;
  if (full.length <= room) return full;
  if (name.length <= room) return name;
  return room >= 4 ? `${name.slice(0, room - 1)}…` : '';
}

function ms(value: number): string {
  return `${value.toFixed(1)} ms`;
}

function frameBox(frame: FlameFrame, totalMs: number, scale: number, fill: string, rootLabel: string): string {
  const x = MARGIN + frame.offsetMs * scale;
  const width = Math.max(0.1, frame.ms * scale - 0.5);
  const y = HEADER + frame.depth * ROW;
  const share = totalMs > 0 ? (frame.ms / totalMs) * 100 : 0;
  const name = frame.depth === 0 ? rootLabel : frame.name;
  const tip = `${name}${frame.location ? `  ${frame.location}` : ''}\n${ms(frame.ms)} (${share.toFixed(1)}%), self ${ms(frame.selfMs)}`;
  const label = fitted(name, frame.location, width);
  const text = label ? `<text x="${(x + 3).toFixed(1)}" y="${y + 12}">${escapeXml(label)}</text>` : '';
  return `<g><title>${escapeXml(tip)}</title><rect class="frame" x="${x.toFixed(1)}" y="${y}" width="${width.toFixed(1)}" height="${ROW - 1}" fill="${fill}"/>${text}</g>`;
}

/** Swatches and names of the groups, heaviest first, in rows under the chart. */
function legend(order: readonly { group: string; ms: number }[], colours: ReadonlyMap<string, string>, totalMs: number, top: number): { svg: string[]; height: number } {
  const parts: string[] = [`<text x="${MARGIN}" y="${top + 12}" class="note">own time by folder or package:</text>`];
  let x = MARGIN + 32 * CHAR;
  let y = top;
  for (const { group, ms: own } of order) {
    const share = totalMs > 0 ? (own / totalMs) * 100 : 0;
    // Groups under the legend's precision are too thin to find in the chart anyway.
    if (share < 0.05) continue;
    const label = `${group} ${share.toFixed(1)}%`;
    const width = 18 + label.length * CHAR + 14;
    if (x + width > WIDTH - MARGIN) {
      x = MARGIN;
      y += ROW;
    }
    parts.push(`<circle cx="${x + 6}" cy="${y + 8}" r="6" fill="${colours.get(group) ?? '#ccc'}"/>`, `<text x="${x + 16}" y="${y + 12}">${escapeXml(label)}</text>`);
    x += width;
  }
  return { svg: parts, height: y - top + ROW };
}

/**
 * @param profile - one thread's CPU profile.
 * @param title - what it is, e.g. `worker 1 · cold compaction`; the busy time is added.
 * @param bounds - what is folded into callers (see `flameTree`).
 */
export function flameGraphSvg(profile: CpuProfile, title: string, bounds: FlameBounds = DEFAULT_FLAME_BOUNDS): FlameGraph {
  const root = flameTree(profile, bounds);
  const frames = flameFrames(root);
  const totalMs = root.ms;
  const scale = totalMs > 0 ? (WIDTH - 2 * MARGIN) / totalMs : 0;
  const { colours, order } = groupColours(frames);
  const depth = frames.reduce((deepest, frame) => Math.max(deepest, frame.depth), 0);
  const chartBottom = HEADER + (depth + 1) * ROW;
  const key = legend(order, colours, totalMs, chartBottom + 10);
  const height = chartBottom + 10 + key.height + MARGIN;
  const heading = `${title} · ${ms(totalMs)} sampled, idle excluded`;
  const notes = [
    'Width: share of the thread\'s sampled time. Each row: the functions the row above called, heaviest first.',
    `Colour: the folder or package of the function's file. Frames under ${(bounds.minShare * 100).toFixed(1)}% of the time, or deeper than ${bounds.maxDepth} calls, fold into their caller.`,
  ];
  const lines = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${height}" viewBox="0 0 ${WIDTH} ${height}" font-family="DejaVu Sans Mono, Menlo, Consolas, monospace" font-size="${FONT}">`,
    `<style>text { fill: #222; } .title { font-size: 15px; font-weight: bold; } .note { fill: #555; } rect.frame { stroke: #fff; stroke-width: 0.5; }</style>`,
    `<rect x="0" y="0" width="${WIDTH}" height="${height}" fill="#fff"/>`,
    `<text x="${MARGIN}" y="22" class="title">${escapeXml(heading)}</text>`,
    ...notes.map((note, index) => `<text x="${MARGIN}" y="${40 + index * 14}" class="note">${escapeXml(note)}</text>`),
    ...frames.map((frame) => frameBox(frame, totalMs, scale, frame.depth === 0 ? '#e0e0e0' : (colours.get(frame.group) ?? '#ccc'), `all: ${ms(totalMs)}`)),
    ...key.svg,
    '</svg>',
  ];
  return { svg: `${lines.join('\n')}\n`, frames: frames.length, totalMs };
}
