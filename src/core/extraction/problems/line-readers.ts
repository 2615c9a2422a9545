/**
 * How the lines of each family of tools become problems: the line that
 * completes a waiting problem, Python tracebacks, test runners (in
 * test-runner-readers.ts), compilers and linters, and (outside strict reading) the looser error lines of build
 * tools, package managers, hosts and logs. Each reader takes a line, adding
 * to the reading's state, or leaves it to the next one; `readOutput`
 * (problems.ts) calls them in this order.
 */
import {
  PY_TRACEBACK, PY_FRAME, EXCEPTION, JS_FRAME, JAVA_FRAME, MAVEN_LOCATED, PYTEST_E, GO_MESSAGE, TSC, COMPILER, PY_WARNING, PY_WARNING_KEY,
  LIBRARY_PATH, GO_COMPILE, RUST_OR_GENERIC, ARROW_LOCATION, BARE_LOCATION, ESLINT_FILE, ESLINT_ROW, MARKED, MODULE_NOT_FOUND, NPM_ERROR,
  NPM_SECURITY, AUDIT, SHELL, HOST_TIMEOUT, LOG_LEVEL, CURL, GENERIC, NAME_ONLY, MSBUILD, MSBUILD_CODE, MSBUILD_WARNING, DOTNET_MESSAGE_HEADER, LINKER, KOTLIN, LOCATED_LINES,
  compactMessage, keyOf, baseName,
} from './output-lines.js';
import { LOOKAHEAD_LINES, type Pending, type ReadingState } from './reading-state.js';
import { readOpsLine } from './ops-readers.js';
import { isCompatibilityNotice, NOTICE_KEY } from './compatibility-notices.js';

export { readTestRunner } from './test-runner-readers.js';

/**
 * Completes the waiting problem when the line is what it waits for: a location for an error, a
 * message for a failing test.
 *
 * @param line - the line, trimmed and without leading marks.
 * @param raw - the line as printed (indentation kept).
 * @param state - the reading, with a problem waiting.
 * @returns whether the line was taken.
 */
export function completePending(line: string, raw: string, state: ReadingState): boolean {
  const current: Pending | null = state.pending;
  if (!current) return false;
  if (current.wants === 'location') {
    const at = ARROW_LOCATION.exec(raw) ?? BARE_LOCATION.exec(raw) ?? JS_FRAME.exec(raw) ?? JAVA_FRAME.exec(raw);
    if (at && !/node_modules|node:internal|\(internal\//.test(raw)) {
      const where = JS_FRAME.test(raw) || JAVA_FRAME.test(raw) ? `${baseName(at[1] ?? '')}:${at[2] ?? ''}` : baseName(at[1] ?? '');
      state.pending = { ...current, text: `${current.text} (${where})` };
      state.flush();
      return true;
    }
  } else if (DOTNET_MESSAGE_HEADER.test(line)) {
    // `dotnet test` heads the message with a label: whatever follows it is the message.
    state.pending = { ...current, takeNext: true };
    return true;
  } else if (current.takeNext === true || EXCEPTION.test(line) || /^(?:Error|AssertionError|expected|Expected|assert )/.test(line) || PYTEST_E.test(line) || GO_MESSAGE.test(raw)) {
    const message = PYTEST_E.exec(line)?.[1] ?? GO_MESSAGE.exec(raw)?.slice(1).join(': ') ?? line;
    const simple = message.replace(/^(?:[a-z_]\w*\.)+(?=[A-Z])/, '');
    state.pending = { ...current, text: `${current.text}: ${simple}`, message: simple };
    state.flush();
    return true;
  }
  return false;
}

/** A logger's tag before what it logs ("[Plugin Error] menu: ", "[worker] "). */
const LOG_TAG = /^\[[^\]]{1,40}\]\s{0,4}(?:[\w.@/-]{1,40}:\s{1,4})?/;
/** A JavaScript error by its base name ("Error: Cannot find module './x'"), which only a logger's tag marks as one. */
const BARE_ERROR = /^(Error)(?::\s*(.*))?$/;

/**
 * An exception an application's logger printed behind its tag ("[Plugin Error] menu: TypeError: x is not a
 * function"), read as the same exception untagged; behind a tag even a bare `Error: …` is one.
 */
function taggedException(line: string): RegExpExecArray | null {
  const tag = LOG_TAG.exec(line);
  if (!tag || tag[0].length === line.length) return null;
  const rest = line.slice(tag[0].length);
  return EXCEPTION.exec(rest) ?? BARE_ERROR.exec(rest);
}

/**
 * Python tracebacks, and exceptions anywhere: remembers the innermost frame of the project and
 * reports the exception line that ends the traceback; an exception outside one waits for its location.
 *
 * @param line - the line, trimmed and without leading marks.
 * @param raw - the line as printed.
 * @param state - the reading.
 * @returns whether the line was taken (every line inside an open traceback is).
 */
export function readTraceback(line: string, raw: string, state: ReadingState): boolean {
  if (PY_TRACEBACK.test(line)) {
    state.traceback = true;
    state.pyLocation = null;
    return true;
  }
  const frame = PY_FRAME.exec(raw);
  if (frame) {
    if (!/site-packages|[\\/]lib[\\/]python|<frozen/.test(frame[1] ?? '')) state.pyLocation = `${baseName(frame[1] ?? '')}:${frame[2] ?? ''}`;
    return true;
  }
  const exception = EXCEPTION.exec(line) ?? (line.startsWith('[') ? taggedException(line) : null);
  if (exception && (state.traceback || /[.:]/.test(line) || !state.strict)) {
    const name = (exception[1] ?? '').replace(/^(?:[a-z_]\w*\.)+(?=[A-Z])/, '');
    const message = exception[2] ?? '';
    state.flush();
    if (state.traceback) {
      state.push('problem', `${name}${message ? `: ${message}` : ''}${state.pyLocation ? ` (${state.pyLocation})` : ''}`);
      state.traceback = false;
    } else {
      state.pending = { type: 'problem', text: `${name}${message ? `: ${message}` : ''}`, key: keyOf(`${name}: ${message}`), wants: 'location', ttl: LOOKAHEAD_LINES };
    }
    return true;
  }
  return state.traceback;
}

/**
 * Compilers, type-checkers and linters: a message with its file and line (tsc, Python warnings,
 * Maven and C-style compilers, ESLint's blocks, Go's build errors).
 *
 * @param line - the line, trimmed and without leading marks.
 * @param raw - the line as printed.
 * @param state - the reading.
 * @returns whether the line was taken.
 */
export function readCompiler(line: string, raw: string, state: ReadingState): boolean {
  const tsc = TSC.exec(line);
  if (tsc) {
    state.push(tsc[4] === 'warning' ? 'warning' : 'problem', `${tsc[5]}: ${tsc[6]} (${baseName(tsc[1] ?? '')}:${tsc[2] ?? tsc[3]})`);
    return true;
  }
  // A cheap gate first (one simple scan costs less than two substring searches): most lines have no error code.
  const msbuild = MSBUILD_CODE.test(line) ? MSBUILD.exec(line) : null;
  if (msbuild) {
    const where = msbuild[2] ? ` (${baseName(msbuild[1] ?? '')}:${msbuild[2]})` : '';
    state.push(MSBUILD_WARNING.test(msbuild[3] ?? '') ? 'warning' : 'problem', `${msbuild[4]}: ${compactMessage(msbuild[5] ?? '')}${where}`);
    return true;
  }
  const linker = LINKER.exec(line) ?? KOTLIN.exec(line);
  if (linker) {
    const kotlin = linker.length === 5;
    const [file, row, message] = kotlin ? [linker[2], `:${linker[3]}`, linker[4]] : [linker[1], '', linker[2]];
    state.push(kotlin && linker[1] === 'w' ? 'warning' : 'problem', `${message} (${baseName(file ?? '')}${row})`);
    return true;
  }
  for (const { shape, gate } of LOCATED_LINES) {
    const found = gate(line) ? shape.exec(line)?.groups : undefined;
    if (!found) continue;
    const { file, line: row, level = '', code = '', message = '' } = found;
    const warning = /^warn/i.test(level) || /^W\d/.test(code) || (/Warning$/.test(code) && !/^Unhandled/.test(code));
    state.push(warning ? 'warning' : 'problem', `${code ? `${code}: ` : ''}${message}${file ? ` (${baseName(file)}:${row})` : ''}`);
    return true;
  }
  const pyWarning = PY_WARNING.exec(line);
  if (pyWarning) {
    // One per warning and place: a loop warns the same way for every item it touches.
    const [file, row, name] = [baseName(pyWarning[1] ?? '').split('/').pop() ?? '', pyWarning[2] ?? '', pyWarning[3] ?? ''];
    const library = LIBRARY_PATH.test(pyWarning[1] ?? '') ? 'lib:' : '';
    state.push('warning', `${name}: ${pyWarning[4] ?? ''} (${file}:${row})`, `${PY_WARNING_KEY}${library}${name}:${file}:${row}`);
    return true;
  }
  const maven = MAVEN_LOCATED.exec(line);
  const compiler = COMPILER.exec(line);
  if (maven || compiler) {
    const [file, row, level, message] = maven ? [maven[2], maven[3], maven[1], maven[4]] : [compiler?.[1], compiler?.[2], compiler?.[3], compiler?.[4]];
    state.push(/warn/i.test(level ?? '') ? 'warning' : 'problem', `${message} (${baseName(file ?? '')}:${row})`);
    return true;
  }
  const eslintRow = ESLINT_ROW.exec(raw);
  if (eslintRow && state.eslintFile) {
    state.push(eslintRow[2] === 'warning' ? 'warning' : 'problem', `${eslintRow[3]}${eslintRow[4] ? ` [${eslintRow[4]}]` : ''} (${state.eslintFile}:${eslintRow[1]})`);
    return true;
  }
  if (ESLINT_FILE.test(line) && !state.strict) {
    state.eslintFile = baseName(line);
    state.previous = line;
    return true;
  }
  const goCompile = GO_COMPILE.exec(line);
  if (goCompile && !state.strict) {
    state.push('problem', `${goCompile[3]} (${baseName(goCompile[1] ?? '')}:${goCompile[2]})`);
    return true;
  }
  return false;
}

/** How a command the host killed at its timeout is reported: the caller, which knows the command, names it after this. */
export const HUNG_PREFIX = 'hung: ';

/**
 * The looser error lines, read only outside strict reading: errors whose location follows them
 * (rustc, swc, esbuild) or precedes them (webpack's `./app/page.js`), a module not found, a host's
 * timeout, npm's errors and advisories, logged errors and warnings (structured ones, systemd's, a CI's
 * and a server's in ops-readers.ts), curl and shell failures, and generic `error:` lines.
 *
 * @param line - the line, trimmed and without leading marks.
 * @param state - the reading.
 * @returns whether the line was taken.
 */
export function readLooseError(line: string, state: ReadingState): boolean {
  if (readOpsLine(line, state)) return true;
  const marked = MARKED.exec(line);
  const rust = RUST_OR_GENERIC.exec(line);
  if (marked || (rust && rust[2])) {
    state.flush();
    const text = marked ? marked[1] ?? '' : `${rust?.[1]}${rust?.[2]}: ${rust?.[3]}`;
    state.pending = { type: rust?.[1] === 'warning' ? 'warning' : 'problem', text, key: keyOf(text), wants: 'location', ttl: LOOKAHEAD_LINES };
    return true;
  }
  const moduleError = MODULE_NOT_FOUND.exec(line);
  if (moduleError) {
    const where = /^\.{0,2}\/\S+\.\w+(?::\d+(?::\d+)?)?$/.test(state.previous) ? ` (${state.previous})` : '';
    state.push('problem', `${line}${where}`, keyOf(line));
    return true;
  }
  const timeout = HOST_TIMEOUT.exec(line);
  if (timeout) {
    state.push('problem', timeout[1] ? `${HUNG_PREFIX}terminated after exceeding the ${timeout[1]} ms timeout` : line);
    state.failed = true;
    return true;
  }
  const npm = NPM_ERROR.exec(line);
  if (npm) {
    state.push('problem', `npm error: ${npm[1]}`);
    return true;
  }
  const security = NPM_SECURITY.exec(line);
  if (security || AUDIT.test(line)) {
    state.push('warning', security ? `deprecated ${security[1]}` : line);
    return true;
  }
  const logged = LOG_LEVEL.exec(line);
  if (logged && (logged[2] ?? '').length > 3 && !NAME_ONLY.test(logged[2] ?? '')) {
    const warning = /^WARN/.test(logged[1] ?? '');
    // A runtime prints one notice as several WARNING lines (the JVM's dynamically loaded agent): the lines
    // after the first continue it, and when one of them says it is a compatibility notice, so is the first.
    if (warning && state.warningLine === state.lineIndex - 1) {
      state.warningLine = state.lineIndex;
      const first = state.problems.at(-1);
      if (first?.type === 'warning' && isCompatibilityNotice(logged[2] ?? '')) first.key = `${NOTICE_KEY}${first.key}`;
      return true;
    }
    state.push(warning ? 'warning' : 'problem', logged[2] ?? '');
    if (warning) state.warningLine = state.lineIndex;
    return true;
  }
  if (CURL.test(line) || SHELL.test(line)) {
    state.push('problem', line);
    return true;
  }
  const generic = GENERIC.exec(line) ?? RUST_OR_GENERIC.exec(line);
  if (generic && !NAME_ONLY.test((generic.at(-1) ?? '').trim())) {
    state.push(/^warning/.test(line) ? 'warning' : 'problem', line);
    return true;
  }
  return false;
}
