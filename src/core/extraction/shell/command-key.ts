/**
 * What makes two shell commands "the same run", so a clean run settles the
 * failures of an earlier one: the command's last step that is not set-up,
 * without what only feeds or redirects it.
 */
import { tokenize, type Token } from './shell-tokens.js';
import { ENV_ASSIGNMENT, programName } from './shell.js';
import { redactSecrets } from '../../text/secrets.js';

/** Programs that set up a step rather than being the step a failure belongs to. */
const SETUP = new Set(['cd', 'pushd', 'popd', 'set-location', 'echo', 'export', 'source', '.', 'set', 'which', 'printf', 'true', 'sleep', 'clear']);

/** Shell words that open a clause whose command follows them (`if grep …`, `do npm test`, `! git diff --quiet`). */
const CLAUSE_OPENERS = new Set(['if', 'then', 'elif', 'else', 'while', 'until', 'do', '!', '{', 'time']);
/**
 * Shell words whose step runs no command of its own: a loop's or a case's header, and the words that close a
 * block. Read as programs, every loop of a session would share the key `done`, and a clean loop would settle
 * the failures of any other.
 */
const NO_COMMAND = new Set(['for', 'select', 'case', 'done', 'fi', 'esac', '}', 'function', 'in']);

/**
 * A command line reduced to what identifies "the same command" across runs: the last step that is not
 * set-up (`cd`, `echo`, `export` …), without environment assignments, redirections, or what a pipe
 * feeds (`npx vitest run 2>&1 | tail -20` and `npx vitest run | grep FAIL` are the same run). Wrappers
 * stay: `timeout 60 npm test` failing for want of `timeout` is not settled by a clean `npm test`.
 *
 * @param command - the command as given to the shell tool.
 * @returns at most 160 characters, lowercase, secrets redacted; '' when nothing is left.
 */
export function commandKey(command: string): string {
  let tokens: readonly Token[];
  try {
    tokens = tokenize(command);
  } catch {
    return '';
  }
  let key = '';
  for (const words of firstCommandOfEachStep(tokens)) {
    let index = 0;
    while (index < words.length && CLAUSE_OPENERS.has(words[index] ?? '')) index++;
    if (NO_COMMAND.has(words[index] ?? '')) continue;
    while (index < words.length) {
      const word = words[index] ?? '';
      if (ENV_ASSIGNMENT.test(word) || word.startsWith('$env:') || word === '=') index++;
      else break;
    }
    // PowerShell's `$env:X = "."` is a statement of its own: its value is not a program.
    if (words[index - 1] === '=') continue;
    const program = programName(words[index] ?? '');
    if (!program || SETUP.has(program)) continue;
    key = [program, ...words.slice(index + 1)].join(' ');
  }
  // The key travels with the problems it settles and names a clean run: a token the command passed
  // (`-H "Authorization: Bearer …"`) must not. Redacted before it is lowercased, which the patterns need.
  return redactSecrets(key).text.toLowerCase().slice(0, 160);
}

/** The words of each `&&` / `;` step up to its first pipe, without redirections and their targets. */
function firstCommandOfEachStep(tokens: readonly Token[]): string[][] {
  const steps: string[][] = [[]];
  let piped = false;
  let redirectTarget = false;
  for (const token of tokens) {
    if (typeof token === 'string') {
      if (redirectTarget) redirectTarget = false;
      else if (!piped) steps[steps.length - 1]?.push(token);
    } else if ('op' in token && token.op !== 'glob') {
      if (['&&', '||', ';', '&', '(', ')'].includes(token.op)) {
        steps.push([]);
        piped = false;
      } else if (token.op === '|' || token.op === '|&') piped = true;
      else if (/[<>]/.test(token.op)) {
        redirectTarget = true;
        // `2>&1`: the descriptor before the redirection is not a word of the command.
        const step = steps[steps.length - 1];
        if (step && /^\d$/.test(step.at(-1) ?? '')) step.pop();
      }
    }
  }
  return steps.filter((step) => step.length > 0);
}
