/**
 * What reading one output has gathered so far: the problems kept (each line
 * cleaned and capped, repeats merged), the one problem that waits a few lines
 * for its message or location, and what earlier lines said (an open Python
 * traceback, the file an ESLint block is about, the previous line, a failing
 * or passing summary). `readOutput` (problems.ts) owns one per output; the
 * line readers (line-readers.ts) add to it.
 */
import { capChars } from '../../text/char-cap.js';
import { keyOf } from './output-lines.js';
import { groupTestFailures, MAX_PROBLEM_CHARS } from './test-failure-groups.js';
import type { MachineProblem } from './machine-problem.js';

/** Lines a header waits for its message, or an error for its location. */
export const LOOKAHEAD_LINES = 6;

/** A problem that waits for the line that completes it. */
export interface Pending {
  text: string;
  key: string;
  /** What it waits for: a message after a test header, a location after an error. */
  wants: 'message' | 'location';
  ttl: number;
  type: 'problem' | 'warning';
  /** Take the next line as the message, whatever it says (it follows a label such as `Error Message:`). */
  takeNext?: boolean;
  /** For a test failure: its message alone, to group tests that fail alike. */
  message?: string;
}

/** The state of reading one output; see the module comment. */
export class ReadingState {
  /** The problems kept, in the order found. */
  readonly problems: MachineProblem[] = [];
  /** A test failure's message alone, by problem, to group tests that fail alike. */
  private readonly messages = new Map<MachineProblem, string>();
  private readonly keys = new Set<string>();
  pending: Pending | null = null;
  /** Inside a Python traceback: its lines belong to the exception that ends it. */
  traceback = false;
  /** The innermost project frame of the open traceback (`file.py:12`). */
  pyLocation: string | null = null;
  /** The file an ESLint block reports on, from its header line. */
  eslintFile: string | null = null;
  /** The last line read that was not taken as a problem. */
  previous = '';
  /** Whether some line reports a failure (a failing test, a failing summary). */
  failed = false;
  /** A failing summary line, reported when nothing more precise is found. */
  fallback: string | null = null;
  /** The last line that reports success. */
  success: string | null = null;
  /** Non-empty lines read so far. */
  lineIndex = 0;
  /** The line of the last logged warning, to tell a warning printed over several lines from several warnings. */
  warningLine = -2;

  /**
   * @param max - problems reported at most.
   * @param strict - keep only what cannot be prose; see `readOutput`.
   */
  constructor(
    readonly max: number,
    readonly strict: boolean,
  ) {}

  /** Keeps one problem unless it is too short, a repeat, or past the room kept. */
  push(type: 'problem' | 'warning', text: string, key = keyOf(text), message?: string): void {
    const line = capChars(text.replace(/\s+/g, ' ').trim().replace(/:$/, ''), MAX_PROBLEM_CHARS);
    // Room beyond `max` so failures sharing a message can be counted before they are grouped.
    if (line.length < 4 || this.keys.has(key) || this.problems.length >= this.max * 4) return;
    this.keys.add(key);
    const problem: MachineProblem = { type, text: line, key };
    this.problems.push(problem);
    if (message) this.messages.set(problem, message.trim());
  }

  /** Keeps the waiting problem as it stands, and waits for nothing more. */
  flush(): void {
    if (this.pending) this.push(this.pending.type, this.pending.text, this.pending.key, this.pending.message);
    this.pending = null;
  }

  /** The problems to report: test failures that fail alike grouped, at most `max`. */
  grouped(): MachineProblem[] {
    return groupTestFailures(this.problems, this.messages).slice(0, this.max);
  }
}
