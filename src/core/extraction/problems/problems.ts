/**
 * Problems in machine output: what compilers, type-checkers, linters, test
 * runners, build tools, package managers and interpreters print when
 * something is wrong, each turned into one informative line — the message
 * and where (file:line, test name, exception type) — with report noise left
 * out and repeats within one output merged. This module holds the reading
 * itself; what each family of tools prints is read in line-readers.ts, and
 * what the reading gathers is kept in reading-state.ts.
 *
 * One pass over the lines, each line read through a bounded prefix, and a
 * lookahead of a few lines at most (a test header waiting for its message,
 * an error waiting for its location): linear on any output.
 */
import { capChars } from '../../text/char-cap.js';
import { NOISE, LEADING_MARKS, FAILED_SUMMARY, SUCCESS } from './output-lines.js';
import { completePending, readCompiler, readLooseError, readTestRunner, readTraceback } from './line-readers.js';
import { ReadingState } from './reading-state.js';
import { readBrowserConsole } from './browser-console.js';
import type { MachineProblem } from './machine-problem.js';

export type { MachineProblem } from './machine-problem.js';

/** What one output says. */
export interface OutputReading {
  problems: MachineProblem[];
  /** The last line that reports success (`BUILD SUCCESS`, `12 passed`), when the output has one and no problem. */
  success: string | null;
  /** Whether the output reports a failure somewhere (a failing summary), even when no line could be named. */
  failed: boolean;
}

/** Characters of a line that are read. */
const LINE_PREFIX_CHARS = 400;

/**
 * Reads one output for problems.
 *
 * @param output - tool output or pasted text, any length; every line is read through a bounded prefix.
 * @param options - `max` problems kept (first ones win; repeats merge); `strict` keeps only what cannot be
 *   prose — tracebacks, qualified exceptions, compiler and test-runner lines — for text a person pasted.
 */
export function readOutput(output: string, options: { max?: number; strict?: boolean } = {}): OutputReading {
  const state = new ReadingState(options.max ?? 8, options.strict === true);
  let start = 0;
  while (start < output.length) {
    let end = output.indexOf('\n', start);
    if (end === -1) end = output.length;
    const raw = capChars(output.slice(start, end), LINE_PREFIX_CHARS).replace(/\r$/, '');
    start = end + 1;
    const line = raw.trim().replace(LEADING_MARKS, '');
    if (state.pending && --state.pending.ttl < 0) state.flush();
    if (line.length === 0) continue;
    state.lineIndex++;
    // Waiting for a location or a message: a matching line completes it.
    if (completePending(line, raw, state)) continue;
    if (NOISE.test(line) || (/^\s+at\s/.test(raw) && !state.traceback)) {
      state.previous = line;
      continue;
    }
    if (readTraceback(line, raw, state) || readTestRunner(line, state) || readCompiler(line, raw, state) || readBrowserConsole(line, state)) continue;
    if (state.strict) {
      state.previous = line;
      continue;
    }
    if (readLooseError(line, state)) continue;
    if (FAILED_SUMMARY.test(line)) {
      state.failed = true;
      state.fallback ??= line;
    } else if (SUCCESS.test(line)) state.success = line;
    state.previous = line;
  }
  state.flush();
  if (state.problems.length === 0 && state.fallback !== null) state.push('problem', state.fallback);
  const grouped = state.grouped();
  const anyProblem = state.problems.some((problem) => problem.type === 'problem');
  return { problems: grouped, success: anyProblem || state.failed ? null : state.success, failed: state.failed || anyProblem };
}
