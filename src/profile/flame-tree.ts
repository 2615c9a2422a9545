/**
 * A CPU profile's call tree weighed by sampled time, the shape a flame graph
 * draws: each frame as wide as the time spent in it and in what it called.
 * Bounded so a picture stays readable: frames with a small share of the time,
 * and frames deeper than a cap, are folded into their caller.
 */
import { samplesOf, type CpuProfile } from './cpu-profile.js';
import { frameLocation, shortUrl } from './top-functions.js';

/** One frame of the bounded tree. */
export interface FlameFrame {
  /** The function's name, `(anonymous)` without one; the root is `(root)`. */
  name: string;
  /** Where it is defined (see `frameLocation`); '' for V8's entries and the root. */
  location: string;
  /** What colours it: the project folder, the package, `node` (Node's own code) or `V8`. */
  group: string;
  /** Time in the frame and in everything it called, in ms. */
  ms: number;
  /** Time in the frame itself, including the frames folded into it, in ms. */
  selfMs: number;
  /** 0 for the root. */
  depth: number;
  /** Time of the frames left of it at its depth, in ms: where it starts on the x axis. */
  offsetMs: number;
  children: FlameFrame[];
}

/** How far the tree is bounded. */
export interface FlameBounds {
  /**
   * Smallest share of the total time (0–1) a frame keeps a box of its own.
   * @default 0.002
   */
  minShare: number;
  /**
   * Deepest frame drawn (the root is depth 0); deeper frames fold into their caller at this depth.
   * @default 30
   */
  maxDepth: number;
}

/** The bounds `npm run profile --svg` draws with. */
export const DEFAULT_FLAME_BOUNDS: Readonly<FlameBounds> = Object.freeze({ minShare: 0.002, maxDepth: 30 });

/** Names of V8's pseudo-frames whose time is no work of the thread. */
const NOT_BUSY = new Set(['(idle)']);

/**
 * The group a frame is coloured by: for the project's files their folder (`src/core/text`), for a
 * dependency its package, `node` for Node's own modules, `V8` for V8's entries (GC, program).
 *
 * @param url - the frame's script URL.
 */
export function frameGroup(url: string): string {
  if (!url) return 'V8';
  if (url.startsWith('node:')) return 'node';
  const short = shortUrl(url).replace(/\?.*$/, '');
  const packaged = /^node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(short);
  if (packaged) return packaged[1] as string;
  const slash = short.lastIndexOf('/');
  return slash > 0 ? short.slice(0, slash) : short;
}

interface Building {
  frame: FlameFrame;
  byKey: Map<string, Building>;
}

/**
 * The profile's busy time as a bounded tree: `(idle)` left out; siblings of the same function and
 * place merged; a frame under `minShare` of the total, or deeper than `maxDepth`, is not drawn and
 * its time counts as its caller's own. Children are ordered heaviest first.
 *
 * @param profile - a CPU profile (one thread, possibly merged from several).
 * @param bounds - what is folded away.
 * @returns the root, whose `ms` is the thread's busy time in the profile.
 */
export function flameTree(profile: CpuProfile, bounds: FlameBounds = DEFAULT_FLAME_BOUNDS): FlameFrame {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parents = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parents.set(child, node.id);
  const selfMs = new Map<number, number>();
  for (const sample of samplesOf({ profile, offsetMs: 0 })) selfMs.set(sample.node, (selfMs.get(sample.node) ?? 0) + sample.ms);

  const root: Building = { frame: { name: '(root)', location: '', group: 'V8', ms: 0, selfMs: 0, depth: 0, offsetMs: 0, children: [] }, byKey: new Map() };
  const pathOf = (id: number): number[] => {
    const path: number[] = [];
    for (let at: number | undefined = id; at !== undefined; at = parents.get(at)) path.push(at);
    return path.reverse();
  };
  for (const [id, ms] of selfMs) {
    if (ms <= 0) continue;
    const path = pathOf(id).slice(1); // the profile's own root is ours
    if (path.some((step) => NOT_BUSY.has(byId.get(step)?.callFrame.functionName ?? ''))) continue;
    root.frame.ms += ms;
    let at = root;
    for (const step of path) {
      const frame = byId.get(step)?.callFrame;
      if (!frame) break;
      const name = frame.functionName || '(anonymous)';
      const location = frameLocation(frame);
      const key = `${name}\u0000${location}`;
      let next = at.byKey.get(key);
      if (!next) {
        next = { frame: { name, location, group: frameGroup(frame.url), ms: 0, selfMs: 0, depth: at.frame.depth + 1, offsetMs: 0, children: [] }, byKey: new Map() };
        at.byKey.set(key, next);
      }
      next.frame.ms += ms;
      at = next;
    }
    at.frame.selfMs += ms;
  }

  const floor = root.frame.ms * bounds.minShare;
  const bound = (node: Building, offsetMs: number): FlameFrame => {
    const { frame } = node;
    frame.offsetMs = offsetMs;
    let cursor = offsetMs;
    for (const child of [...node.byKey.values()].sort((a, b) => b.frame.ms - a.frame.ms)) {
      if (child.frame.depth > bounds.maxDepth || child.frame.ms < floor) {
        frame.selfMs += child.frame.ms;
        continue;
      }
      frame.children.push(bound(child, cursor));
      cursor += child.frame.ms;
    }
    return frame;
  };
  return bound(root, 0);
}

/**
 * Every frame of a tree, callers before the functions they call.
 *
 * @param root - a tree from `flameTree`.
 */
export function flameFrames(root: FlameFrame): FlameFrame[] {
  const frames: FlameFrame[] = [];
  const visit = (frame: FlameFrame): void => {
    frames.push(frame);
    frame.children.forEach(visit);
  };
  visit(root);
  return frames;
}
