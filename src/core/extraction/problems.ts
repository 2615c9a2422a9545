/**
 * Problems in machine output: what compilers, type-checkers, linters, test
 * runners, build tools, package managers and interpreters print when
 * something is wrong, each turned into one informative line — the message
 * and where (file:line, test name, exception type) — with report noise left
 * out and repeats within one output merged.
 *
 * One pass over the lines, each line read through a bounded prefix, and a
 * lookahead of a few lines at most (a test header waiting for its message,
 * an error waiting for its location): linear on any output.
 */
import { capChars } from '../text/sections.js';
import {
  NOISE, PY_TRACEBACK, PY_FRAME, EXCEPTION, JS_FRAME, JAVA_FRAME, SUREFIRE_TEST, SUREFIRE_SUMMARY, MAVEN_LOCATED, TEST_FAIL, PYTEST_FAILED,
  PYTEST_HEADER, PYTEST_E, GO_FAIL, GO_MESSAGE, TAP_NOT_OK, TSC, COMPILER, PY_WARNING, PY_WARNING_KEY, LIBRARY_PATH, GO_COMPILE,
  RUST_OR_GENERIC, ARROW_LOCATION, BARE_LOCATION, ESLINT_FILE, ESLINT_ROW, MARKED, MODULE_NOT_FOUND, NPM_ERROR, NPM_SECURITY, AUDIT, SHELL,
  HOST_TIMEOUT, LOG_LEVEL, CURL, GENERIC, NAME_ONLY, LEADING_MARKS, FAILED_SUMMARY, SUCCESS, keyOf, baseName,
} from './output-lines.js';
import { groupTestFailures, MAX_PROBLEM_CHARS } from './test-failure-groups.js';

/** One problem or warning found in an output. */
export interface MachineProblem {
  type: 'problem' | 'warning';
  /** One line: message and where. */
  text: string;
  /** Identity for merging repeats: the test or the message, numbers folded. */
  key: string;
}

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
/** Lines a header waits for its message, or an error for its location. */
const LOOKAHEAD_LINES = 6;

interface Pending {
  text: string;
  key: string;
  /** What it waits for: a message after a test header, a location after an error. */
  wants: 'message' | 'location';
  ttl: number;
  type: 'problem' | 'warning';
  /** For a test failure: its message alone, to group tests that fail alike. */
  message?: string;
}

/**
 * Reads one output for problems.
 *
 * @param output - tool output or pasted text, any length; every line is read through a bounded prefix.
 * @param options - `max` problems kept (first ones win; repeats merge); `strict` keeps only what cannot be
 *   prose — tracebacks, qualified exceptions, compiler and test-runner lines — for text a person pasted.
 */
export function readOutput(output: string, options: { max?: number; strict?: boolean } = {}): OutputReading {
  const max = options.max ?? 8;
  const strict = options.strict === true;
  const problems: MachineProblem[] = [];
  const messages = new Map<MachineProblem, string>();
  const keys = new Set<string>();
  let fallback: string | null = null;
  let success: string | null = null;
  let failed = false;
  let pending: Pending | null = null;
  let traceback = false;
  let pyLocation: string | null = null;
  let eslintFile: string | null = null;
  let previous = '';

  const push = (type: 'problem' | 'warning', text: string, key = keyOf(text), message?: string): void => {
    const line = capChars(text.replace(/\s+/g, ' ').trim().replace(/:$/, ''), MAX_PROBLEM_CHARS);
    // Room beyond `max` so failures sharing a message can be counted before they are grouped.
    if (line.length < 4 || keys.has(key) || problems.length >= max * 4) return;
    keys.add(key);
    const problem: MachineProblem = { type, text: line, key };
    problems.push(problem);
    if (message) messages.set(problem, message.trim());
  };
  const flush = (): void => {
    if (pending) push(pending.type, pending.text, pending.key, pending.message);
    pending = null;
  };

  let start = 0;
  while (start < output.length) {
    let end = output.indexOf('\n', start);
    if (end === -1) end = output.length;
    const raw = capChars(output.slice(start, end), LINE_PREFIX_CHARS).replace(/\r$/, '');
    start = end + 1;
    const line = raw.trim().replace(LEADING_MARKS, '');
    if (pending && --pending.ttl < 0) flush();
    if (line.length === 0) continue;

    // Waiting for a location or a message: a matching line completes it.
    if (pending) {
      const current: Pending = pending;
      if (current.wants === 'location') {
        const at = ARROW_LOCATION.exec(raw) ?? BARE_LOCATION.exec(raw) ?? JS_FRAME.exec(raw) ?? JAVA_FRAME.exec(raw);
        if (at && !/node_modules|node:internal|\(internal\//.test(raw)) {
          const where = JS_FRAME.test(raw) || JAVA_FRAME.test(raw) ? `${baseName(at[1] ?? '')}:${at[2] ?? ''}` : baseName(at[1] ?? '');
          pending = { ...current, text: `${current.text} (${where})` };
          flush();
          continue;
        }
      } else if (EXCEPTION.test(line) || /^(?:Error|AssertionError|expected|Expected|assert )/.test(line) || PYTEST_E.test(line) || GO_MESSAGE.test(raw)) {
        const message = PYTEST_E.exec(line)?.[1] ?? GO_MESSAGE.exec(raw)?.slice(1).join(': ') ?? line;
        const simple = message.replace(/^(?:[a-z_]\w*\.)+(?=[A-Z])/, '');
        pending = { ...current, text: `${current.text}: ${simple}`, message: simple };
        flush();
        continue;
      }
    }
    if (NOISE.test(line) || (/^\s+at\s/.test(raw) && !traceback)) {
      previous = line;
      continue;
    }

    // Python: remember the innermost frame of the project, report the exception line that ends the traceback.
    if (PY_TRACEBACK.test(line)) {
      traceback = true;
      pyLocation = null;
      continue;
    }
    const frame = PY_FRAME.exec(raw);
    if (frame) {
      if (!/site-packages|[\\/]lib[\\/]python|<frozen/.test(frame[1] ?? '')) pyLocation = `${baseName(frame[1] ?? '')}:${frame[2] ?? ''}`;
      continue;
    }
    const exception = EXCEPTION.exec(line);
    if (exception && (traceback || /[.:]/.test(line) || !strict)) {
      const name = (exception[1] ?? '').replace(/^(?:[a-z_]\w*\.)+(?=[A-Z])/, '');
      const message = exception[2] ?? '';
      flush();
      if (traceback) {
        push('problem', `${name}${message ? `: ${message}` : ''}${pyLocation ? ` (${pyLocation})` : ''}`);
        traceback = false;
      } else {
        pending = { type: 'problem', text: `${name}${message ? `: ${message}` : ''}`, key: keyOf(`${name}: ${message}`), wants: 'location', ttl: LOOKAHEAD_LINES };
      }
      continue;
    }
    if (traceback) continue;

    // Test runners: a failing test's name, then its message.
    const surefire = SUREFIRE_TEST.exec(line);
    const pytestHeader = PYTEST_HEADER.exec(line);
    const goFail = GO_FAIL.exec(line);
    const testFail = TEST_FAIL.exec(line);
    if (surefire || pytestHeader || goFail || (testFail && (testFail[2] || /\.(?:test|spec)\./.test(testFail[1] ?? '')))) {
      flush();
      const name = surefire ? (surefire[1] ?? '').split('.').slice(-2).join('.') : pytestHeader ? pytestHeader[1] ?? '' : goFail ? goFail[1] ?? '' : `FAIL ${testFail?.[1] ?? ''}${testFail?.[2] ? ` > ${testFail[2]}` : ''}`;
      pending = { type: 'problem', text: name, key: `test:${keyOf(name.replace(/^FAIL /, ''))}`, wants: 'message', ttl: LOOKAHEAD_LINES };
      failed = true;
      continue;
    }
    const summary = SUREFIRE_SUMMARY.exec(line);
    if (summary && /\./.test(summary[1] ?? '')) {
      const name = (summary[1] ?? '').split('.').slice(-2).join('.');
      push('problem', `${name}: ${summary[2] ?? ''}`, `test:${keyOf(name)}`, summary[2]);
      failed = true;
      continue;
    }
    const pytest = PYTEST_FAILED.exec(line);
    const tap = TAP_NOT_OK.exec(line);
    if (pytest || tap) {
      const name = pytest ? pytest[2] ?? '' : tap?.[1] ?? '';
      push('problem', pytest ? `${pytest[1]} ${name}${pytest[3] ? `: ${pytest[3]}` : ''}` : `not ok: ${name}`, `test:${keyOf(name.split('::').pop() ?? name)}`, pytest?.[3]);
      failed = true;
      continue;
    }

    // Compilers, type-checkers and linters: message with file:line.
    const tsc = TSC.exec(line);
    if (tsc) {
      push(tsc[4] === 'warning' ? 'warning' : 'problem', `${tsc[5]}: ${tsc[6]} (${baseName(tsc[1] ?? '')}:${tsc[2] ?? tsc[3]})`);
      continue;
    }
    const pyWarning = PY_WARNING.exec(line);
    if (pyWarning) {
      // One per warning and place: a loop warns the same way for every item it touches.
      const [file, row, name] = [baseName(pyWarning[1] ?? '').split('/').pop() ?? '', pyWarning[2] ?? '', pyWarning[3] ?? ''];
      const library = LIBRARY_PATH.test(pyWarning[1] ?? '') ? 'lib:' : '';
      push('warning', `${name}: ${pyWarning[4] ?? ''} (${file}:${row})`, `${PY_WARNING_KEY}${library}${name}:${file}:${row}`);
      continue;
    }
    const maven = MAVEN_LOCATED.exec(line);
    const compiler = COMPILER.exec(line);
    if (maven || compiler) {
      const [file, row, level, message] = maven ? [maven[2], maven[3], maven[1], maven[4]] : [compiler?.[1], compiler?.[2], compiler?.[3], compiler?.[4]];
      push(/warn/i.test(level ?? '') ? 'warning' : 'problem', `${message} (${baseName(file ?? '')}:${row})`);
      continue;
    }
    const eslintRow = ESLINT_ROW.exec(raw);
    if (eslintRow && eslintFile) {
      push(eslintRow[2] === 'warning' ? 'warning' : 'problem', `${eslintRow[3]}${eslintRow[4] ? ` [${eslintRow[4]}]` : ''} (${eslintFile}:${eslintRow[1]})`);
      continue;
    }
    if (ESLINT_FILE.test(line) && !strict) {
      eslintFile = baseName(line);
      previous = line;
      continue;
    }
    const goCompile = GO_COMPILE.exec(line);
    if (goCompile && !strict) {
      push('problem', `${goCompile[3]} (${baseName(goCompile[1] ?? '')}:${goCompile[2]})`);
      continue;
    }
    if (strict) {
      previous = line;
      continue;
    }

    // Errors whose location follows (rustc, swc, esbuild) or precedes them (webpack's `./app/page.js`).
    const marked = MARKED.exec(line);
    const rust = RUST_OR_GENERIC.exec(line);
    if (marked || (rust && rust[2])) {
      flush();
      const text = marked ? marked[1] ?? '' : `${rust?.[1]}${rust?.[2]}: ${rust?.[3]}`;
      pending = { type: rust?.[1] === 'warning' ? 'warning' : 'problem', text, key: keyOf(text), wants: 'location', ttl: LOOKAHEAD_LINES };
      continue;
    }
    const moduleError = MODULE_NOT_FOUND.exec(line);
    if (moduleError) {
      const where = /^\.{0,2}\/\S+\.\w+(?::\d+(?::\d+)?)?$/.test(previous) ? ` (${previous})` : '';
      push('problem', `${line}${where}`, keyOf(line));
      continue;
    }
    const timeout = HOST_TIMEOUT.exec(line);
    if (timeout) {
      push('problem', timeout[1] ? `hung: terminated after exceeding the ${timeout[1]} ms timeout` : line);
      failed = true;
      continue;
    }
    const npm = NPM_ERROR.exec(line);
    if (npm) {
      push('problem', `npm error: ${npm[1]}`);
      continue;
    }
    const security = NPM_SECURITY.exec(line);
    if (security || AUDIT.test(line)) {
      push('warning', security ? `deprecated ${security[1]}` : line);
      continue;
    }
    const logged = LOG_LEVEL.exec(line);
    if (logged && (logged[2] ?? '').length > 3 && !NAME_ONLY.test(logged[2] ?? '')) {
      push(/^WARN/.test(logged[1] ?? '') ? 'warning' : 'problem', logged[2] ?? '');
      continue;
    }
    if (CURL.test(line) || SHELL.test(line)) {
      push('problem', line);
      continue;
    }
    const generic = GENERIC.exec(line) ?? RUST_OR_GENERIC.exec(line);
    if (generic && !NAME_ONLY.test((generic.at(-1) ?? '').trim())) {
      push(/^warning/.test(line) ? 'warning' : 'problem', line);
      continue;
    }
    if (FAILED_SUMMARY.test(line)) {
      failed = true;
      fallback ??= line;
    } else if (SUCCESS.test(line)) success = line;
    previous = line;
  }
  flush();
  if (problems.length === 0 && fallback !== null) push('problem', fallback);
  const grouped = groupTestFailures(problems, messages).slice(0, max);
  const anyProblem = problems.some((problem) => problem.type === 'problem');
  return { problems: grouped, success: anyProblem || failed ? null : success, failed: failed || anyProblem };
}
