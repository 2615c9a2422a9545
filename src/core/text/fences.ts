/**
 * Fenced code blocks, by CommonMark's rule. Every line reader of markdown here
 * (the heading scan, the note reader, the prose items, the code stripper) asks
 * these two functions, so a heading or a `[[link]]` inside a block is text to
 * all of them alike.
 *
 * The rule: a fence is a line of at most three spaces, then a run of three or
 * more backticks or of three or more tildes, then an info string, which for a
 * backtick fence may not hold a backtick (so that "```js`" stays inline code).
 * The block ends at a line of at most three spaces, then a run of the same
 * character at least as long as the opening one, then only spaces or tabs; or
 * at the end of the text. A carriage return ending a line belongs to the line
 * ending, not to the line.
 */

/** An open fenced block: the character of its opening run and the run's length. */
export interface Fence {
  readonly marker: '`' | '~';
  readonly length: number;
}

const BACKTICK = 0x60;
const TILDE = 0x7e;
const SPACE = 0x20;
const TAB = 0x09;
const CARRIAGE_RETURN = 0x0d;

/** Where a line's run of fence characters starts and stops, and the index its content ends at. */
interface Run {
  code: number;
  stop: number;
  end: number;
  length: number;
}

// By hand rather than by regex: lines may be megabytes, and this looks at most at the run and what follows it.
function leadingRun(line: string): Run | null {
  const end = line.charCodeAt(line.length - 1) === CARRIAGE_RETURN ? line.length - 1 : line.length;
  let start = 0;
  while (start < 3 && start < end && line.charCodeAt(start) === SPACE) start++;
  const code = line.charCodeAt(start);
  if (start >= end || (code !== BACKTICK && code !== TILDE)) return null;
  let stop = start;
  while (stop < end && line.charCodeAt(stop) === code) stop++;
  return stop - start >= 3 ? { code, stop, end, length: stop - start } : null;
}

/**
 * The fence a line opens, or `null` when it opens none.
 *
 * @param line - one line, without its `\n` (a trailing `\r` is ignored).
 */
export function openingFence(line: string): Fence | null {
  const run = leadingRun(line);
  if (!run) return null;
  if (run.code === BACKTICK) {
    const tick = line.indexOf('`', run.stop);
    if (tick !== -1 && tick < run.end) return null;
  }
  return { marker: run.code === BACKTICK ? '`' : '~', length: run.length };
}

/**
 * Whether a line closes an open fence.
 *
 * @param line - one line inside the block, without its `\n` (a trailing `\r` is ignored).
 * @param fence - what {@link openingFence} returned for the block's first line.
 */
export function closesFence(line: string, fence: Fence): boolean {
  const run = leadingRun(line);
  if (!run || run.code !== fence.marker.charCodeAt(0) || run.length < fence.length) return false;
  for (let index = run.stop; index < run.end; index++) {
    const code = line.charCodeAt(index);
    if (code !== SPACE && code !== TAB) return false;
  }
  return true;
}

/**
 * The text with every fenced code block (fences included) removed; an
 * unclosed fence removes the rest. Linear.
 *
 * @param text - markdown.
 */
export function stripFencedCode(text: string): string {
  const kept: string[] = [];
  let fence: Fence | null = null;
  for (const line of text.split('\n')) {
    if (fence) {
      if (closesFence(line, fence)) fence = null;
      continue;
    }
    fence = openingFence(line);
    if (!fence) kept.push(line);
  }
  return kept.join('\n');
}
