/**
 * The functions a thread spent its own time in (self time: samples whose
 * innermost frame is the function), summed over its profiles.
 */
import { samplesOf, type CallFrame, type TimedProfile } from './cpu-profile.js';

/** One function and its self time. */
export interface FunctionTime {
  /** The function's name, `(anonymous)` without one; V8's own entries keep theirs: `(garbage collector)`, `(program)`. */
  name: string;
  /** Where it is defined: the file's path (or URL) and 1-based line (the file alone for TypeScript compiled on load); '' for V8's entries. */
  location: string;
  ms: number;
  /** Percent of the thread's sampled time, idle excluded. */
  share: number;
}

/** Where a file is, shortened to its place in the project or in node_modules. */
export function shortUrl(raw: string): string {
  // tsx loads a worker's modules under a query that names its loader's namespace.
  const url = raw.replace(/\?tsx-namespace=[^?#]*$/, '');
  const packaged = url.lastIndexOf('/node_modules/');
  if (packaged !== -1) return url.slice(packaged + 1);
  const source = url.search(/\/(?:src|dist|plugin)\//);
  return source !== -1 ? url.slice(source + 1) : url.replace(/^file:\/\//, '');
}

/**
 * Where a frame's function is defined: the short path and 1-based line, the file alone for TypeScript
 * compiled on load (tsx reports lines of the compiled code, so the file alone says more), '' for V8's entries.
 *
 * @param frame - the profile node's call frame.
 */
export function frameLocation(frame: CallFrame): string {
  if (!frame.url) return '';
  return /\.ts(?:\?|$)/.test(frame.url) ? shortUrl(frame.url) : `${shortUrl(frame.url)}:${frame.lineNumber + 1}`;
}

/**
 * @param profiles - a thread's profiles with the spans to count in each (epoch ms).
 * @param count - how many functions to return.
 */
export function topFunctions(profiles: readonly { timed: TimedProfile; start: number; end: number }[], count = 10): FunctionTime[] {
  const byKey = new Map<string, FunctionTime>();
  let total = 0;
  for (const { timed, start, end } of profiles) {
    const nodes = new Map(timed.profile.nodes.map((node) => [node.id, node]));
    for (const sample of samplesOf(timed)) {
      if (sample.at < start || sample.at >= end) continue;
      const frame = nodes.get(sample.node)?.callFrame;
      if (!frame || frame.functionName === '(idle)' || frame.functionName === '(root)') continue;
      total += sample.ms;
      const location = frameLocation(frame);
      const name = frame.functionName || '(anonymous)';
      const key = `${name}\u0000${location}`;
      const known = byKey.get(key);
      if (known) known.ms += sample.ms;
      else byKey.set(key, { name, location, ms: sample.ms, share: 0 });
    }
  }
  return [...byKey.values()]
    .sort((a, b) => b.ms - a.ms)
    .slice(0, count)
    .map((entry) => ({ ...entry, share: total > 0 ? (entry.ms / total) * 100 : 0 }));
}
