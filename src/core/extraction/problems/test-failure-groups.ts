/**
 * Many tests failing the same way are one problem: grouping the test
 * failures that `readOutput` (problems.ts) found, so a suite-wide failure
 * does not fill the budget with a line per test.
 */
import { capChars } from '../../text/char-cap.js';
import { keyOf } from './output-lines.js';
import type { MachineProblem } from './machine-problem.js';

/** Longest problem line. */
export const MAX_PROBLEM_CHARS = 200;

/** Test failures with one message, from this many on, become one line naming the tests' files. */
const GROUP_FROM = 3;

/**
 * Many tests failing the same way (a suite-wide timeout, a missing fixture) are one problem: the
 * message once, with how many tests and which files, instead of a line per test eating the budget.
 */
export function groupTestFailures(problems: MachineProblem[], messages: ReadonlyMap<MachineProblem, string>): MachineProblem[] {
  const byMessage = new Map<string, MachineProblem[]>();
  for (const problem of problems) {
    const message = messages.get(problem);
    if (!problem.key.startsWith('test:') || !message) continue;
    const members = byMessage.get(message);
    if (members) members.push(problem);
    else byMessage.set(message, [problem]);
  }
  const replaced = new Map<MachineProblem, MachineProblem | null>();
  for (const [message, members] of byMessage) {
    if (members.length < GROUP_FROM) continue;
    const files = [...new Set(members.map((member) => /(\S+\.\w+)(?: >|::)/.exec(member.text)?.[1] ?? member.text.split(/[.:]/)[0] ?? ''))];
    const text = capChars(`${message} in ${members.length} tests: ${files.join(', ')}`, MAX_PROBLEM_CHARS);
    members.forEach((member, index) => replaced.set(member, index === 0 ? { type: 'problem', text, key: `tests:${keyOf(message)}` } : null));
  }
  if (replaced.size === 0) return problems;
  return problems.map((problem) => (replaced.has(problem) ? replaced.get(problem) ?? null : problem)).filter((problem): problem is MachineProblem => problem !== null);
}
