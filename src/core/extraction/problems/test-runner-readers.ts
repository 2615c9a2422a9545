/**
 * How test runners' lines become problems: a failing test's name, then its
 * message a few lines on (Surefire, pytest, Go, Vitest and Jest, `dotnet test`,
 * Rust's panics, Gradle), or both on one line (Surefire's and pytest's
 * summaries, TAP). One of the line readers `readOutput` (problems.ts) calls;
 * the others are in line-readers.ts.
 */
import {
  SUREFIRE_TEST, SUREFIRE_SUMMARY, TEST_FAIL, PYTEST_FAILED, PYTEST_HEADER, GO_FAIL, TAP_NOT_OK, DOTNET_TEST_FAIL, DOTNET_FAILED_WORD,
  DOTNET_TEST_SUMMARY, TEST_HEADERS, RUST_PANIC, RSPEC_FAILED, keyOf,
} from './output-lines.js';
import { LOOKAHEAD_LINES, type ReadingState } from './reading-state.js';

/** How the headers of {@link TEST_HEADERS} that are not told by their end begin. */
const HEADER_ENDS = /^(?:thread '|● |ERROR in |\d{1,4}\) )/;

/**
 * Test runners: a failing test's name, then its message (Surefire, pytest, Go, Vitest and Jest), or
 * both on one line (Surefire's summary, pytest's short summary, TAP).
 *
 * @param line - the line, trimmed and without leading marks.
 * @param state - the reading.
 * @returns whether the line was taken.
 */
export function readTestRunner(line: string, state: ReadingState): boolean {
  const dotnet = line.endsWith(']') ? DOTNET_TEST_FAIL.exec(line) : null;
  if (dotnet && DOTNET_FAILED_WORD.test(dotnet[1] ?? '')) {
    state.flush();
    const name = (dotnet[2] ?? '').replace(/\(.*$/, '').split('.').slice(-2).join('.');
    state.pending = { type: 'problem', text: name, key: `test:${keyOf(name)}`, wants: 'message', ttl: LOOKAHEAD_LINES };
    state.failed = true;
    return true;
  }
  // One cheap look at both ends before trying each header's shape: most lines are none of them.
  const headed = HEADER_ENDS.test(line) || line.endsWith(' FAILED') || line.endsWith('[FAIL]');
  for (const { shape, next, gate } of headed ? TEST_HEADERS : []) {
    const header = gate(line) ? shape.exec(line) : null;
    if (!header) continue;
    state.flush();
    const name = header[1] ?? '';
    state.pending = { type: 'problem', text: `${name}${header[2] ? ` (${header[2]})` : ''}`, key: `test:${keyOf(name)}`, wants: 'message', ttl: LOOKAHEAD_LINES, takeNext: next };
    state.failed = true;
    return true;
  }
  const panic = RUST_PANIC.exec(line);
  if (panic) {
    state.push('problem', `${panic[1]}: ${panic[2]} (${panic[3]})`, `test:${keyOf(panic[1] ?? '')}`, panic[2]);
    state.failed = true;
    return true;
  }
  const dotnetSummary = line.includes('!') ? DOTNET_TEST_SUMMARY.exec(line) : null;
  if (dotnetSummary) {
    if (Number(dotnetSummary[1]) > 0) {
      state.failed = true;
      state.fallback ??= line;
    } else state.success = line;
    return true;
  }
  const surefire = SUREFIRE_TEST.exec(line);
  const pytestHeader = PYTEST_HEADER.exec(line);
  const goFail = GO_FAIL.exec(line);
  const testFail = TEST_FAIL.exec(line);
  if (surefire || pytestHeader || goFail || (testFail && (testFail[2] || /\.(?:test|spec)\./.test(testFail[1] ?? '')))) {
    state.flush();
    const name = surefire ? (surefire[1] ?? '').split('.').slice(-2).join('.') : pytestHeader ? pytestHeader[1] ?? '' : goFail ? goFail[1] ?? '' : `FAIL ${testFail?.[1] ?? ''}${testFail?.[2] ? ` > ${testFail[2]}` : ''}`;
    state.pending = { type: 'problem', text: name, key: `test:${keyOf(name.replace(/^FAIL /, ''))}`, wants: 'message', ttl: LOOKAHEAD_LINES };
    state.failed = true;
    return true;
  }
  const summary = SUREFIRE_SUMMARY.exec(line);
  if (summary && /\./.test(summary[1] ?? '')) {
    const name = (summary[1] ?? '').split('.').slice(-2).join('.');
    state.push('problem', `${name}: ${summary[2] ?? ''}`, `test:${keyOf(name)}`, summary[2]);
    state.failed = true;
    return true;
  }
  const rspec = RSPEC_FAILED.exec(line);
  if (rspec) {
    state.push('problem', `${rspec[2]} (${rspec[1]})`, `test:${keyOf(rspec[2] ?? '')}`);
    state.failed = true;
    return true;
  }
  const pytest = PYTEST_FAILED.exec(line);
  const tap = TAP_NOT_OK.exec(line);
  if (pytest || tap) {
    const name = pytest ? pytest[2] ?? '' : tap?.[1] ?? '';
    state.push('problem', pytest ? `${pytest[1]} ${name}${pytest[3] ? `: ${pytest[3]}` : ''}` : `not ok: ${name}`, `test:${keyOf(name.split('::').pop() ?? name)}`, pytest?.[3]);
    state.failed = true;
    return true;
  }
  return false;
}
