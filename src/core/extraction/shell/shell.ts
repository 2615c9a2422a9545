/**
 * What a shell command line did to files, read with a shell parser rather
 * than patterns: `rm`, `mv`, `cp`, `sed -i`, git's path commands,
 * redirections, `tee`, `touch`, pagers and interpreters' script arguments.
 *
 * Pure and bounded: the command is cut to {@link MAX_COMMAND_CHARS} before it
 * is parsed, and each segment yields at most a few dozen paths. Nothing here
 * looks at the file system.
 */
import { MAX_COMMAND_CHARS, tokenize, type Token } from './shell-tokens.js';

/** How a command touched a file; ranked by the working set (edited > written > deleted > run > read). */
export type FileAction = 'edit' | 'write' | 'delete' | 'run' | 'read' | 'list' | 'cwd';

/** One file (or folder, for `cwd`) a command touched, as written in the command, resolved against `cd`. */
export interface ShellTouch {
  path: string;
  action: FileAction;
}

/** Paths taken from one command at most. */
const MAX_TOUCHES = 48;
/** Longest argument treated as a path. */
const MAX_ARG_CHARS = 512;

const DELETE = new Set(['rm', 'unlink', 'rmdir', 'del', 'remove-item']);
const READERS = new Set(['cat', 'less', 'more', 'head', 'tail', 'bat', 'nl', 'wc', 'stat', 'file', 'diff', 'type', 'get-content', 'code', 'vim', 'nano', 'open']);
const WRITERS = new Set(['touch', 'tee', 'chmod', 'chown', 'truncate', 'new-item', 'set-content', 'out-file']);
const INTERPRETERS = new Set(['python', 'python3', 'py', 'node', 'bash', 'sh', 'zsh', 'ruby', 'perl', 'php', 'tsx', 'ts-node', 'deno', 'bun', 'lua', 'pwsh', 'powershell', 'java', 'dotnet']);
const TEST_RUNNERS = new Set(['pytest', 'jest', 'vitest', 'mocha', 'bats', 'rspec', 'phpunit', 'tsc', 'eslint', 'prettier', 'ruff', 'mypy', 'black', 'flake8', 'pylint', 'shellcheck', 'py_compile', 'go', 'cargo', 'biome']);
/** Commands that only prefix another command. */
const WRAPPERS = new Set(['sudo', 'time', 'nice', 'nohup', 'exec', 'command', 'env', 'timeout', 'npx', 'bunx', 'pnpx', 'xargs', 'watch', 'uv', 'poetry', 'pipenv']);
/** Interpreter flags whose value follows them and is not the script. */
const VALUE_FLAGS = new Set(['-W', '-X', '-r', '--require', '--import', '--loader', '--env-file']);
const GIT_READ = new Set(['diff', 'show', 'blame', 'log']);
const GIT_EDIT = new Set(['checkout', 'restore']);
const GIT_WRITE = new Set(['add']);
const REDIRECT_WRITE = new Set(['>', '>>', '>|', '&>', '&>>']);

/** Something an argument must look like to count as a path: a slash, or a name with an extension. */
const PATH_SHAPE = /^(?:[A-Za-z]:[\\/]|~?[\\/.]|[\w@+-])[^\s"'`$<>|;&*?{}]*$/;
const HAS_EXTENSION = /\.[A-Za-z0-9]{1,10}$/;
const URL_LIKE = /^[a-z][a-z0-9+.-]*:\/\//i;
export const ENV_ASSIGNMENT = /^(?:\$env:)?[A-Za-z_][A-Za-z0-9_]*=/;

/** Whether an argument names a file or folder: not a flag, a URL, an assignment, a number or a bare word. */
export function looksLikePath(arg: string, strict = false): boolean {
  if (arg.length === 0 || arg.length > MAX_ARG_CHARS || arg.startsWith('-') || URL_LIKE.test(arg)) return false;
  if (ENV_ASSIGNMENT.test(arg) || /^\d+$/.test(arg) || !PATH_SHAPE.test(arg)) return false;
  if (arg === '.' || arg === '..' || arg === '/' || arg === '~') return false;
  // A bare word (`main`, `origin`) is a branch, a target or a package; only names with an extension or a folder count.
  return HAS_EXTENSION.test(arg) || (!strict && /[\\/]/.test(arg));
}

/** `dir` joined with `path` unless `path` is absolute; `.` and `..` resolved; slashes unified. */
export function joinPath(dir: string | null, path: string): string {
  const unified = path.replaceAll('\\', '/');
  const absolute = unified.startsWith('/') || /^[A-Za-z]:\//.test(unified) || unified.startsWith('~');
  const full = absolute || dir === null ? unified : `${dir.replaceAll('\\', '/').replace(/\/+$/, '')}/${unified}`;
  const parts: string[] = [];
  for (const part of full.split('/')) {
    if (part === '.' || (part === '' && parts.length > 0)) continue;
    if (part === '..' && parts.length > 0 && parts.at(-1) !== '..' && parts.at(-1) !== '') parts.pop();
    else parts.push(part);
  }
  return parts.join('/') || '/';
}

/** The program's plain name: no folder, no `.exe`, lowercase. */
export function programName(word: string): string {
  const base = word.replaceAll('\\', '/').split('/').pop() ?? word;
  return base.toLowerCase().replace(/\.(?:exe|cmd|bat|ps1)$/, '').replace(/^python\d(?:\.\d+)?$/, 'python3');
}

/** Splits tokens into simple commands at `&&`, `||`, `;`, `|`, `&` and newlines; redirections stay with their command. */
function segments(tokens: readonly Token[]): Token[][] {
  const out: Token[][] = [[]];
  for (const token of tokens) {
    if (typeof token === 'object' && 'op' in token && ['&&', '||', ';', '|', '&', ';;', '(', ')', '|&'].includes(token.op)) {
      out.push([]);
    } else if (!(typeof token === 'object' && 'comment' in token)) {
      out[out.length - 1]?.push(token);
    }
  }
  return out.filter((segment) => segment.length > 0);
}

/** Quoted string literals in inline code (`python -c`, `node -e`) that look like file paths. */
function pathsInInlineCode(code: string): string[] {
  const found: string[] = [];
  for (const match of code.slice(0, MAX_COMMAND_CHARS).matchAll(/(["'])([^"'\n]{1,256})\1/g)) {
    const literal = match[2] ?? '';
    if (looksLikePath(literal) && HAS_EXTENSION.test(literal)) found.push(literal);
    if (found.length >= 16) break;
  }
  return found;
}

/** The touches of one simple command (words only; redirections already taken out). */
function commandTouches(words: string[], add: (path: string, action: FileAction) => void, setCwd: (dir: string) => void): void {
  let index = 0;
  // Leading assignments (`A=1 cmd`, PowerShell `$env:A = "x"`) and wrappers (`sudo`, `timeout 20`, `npx`).
  while (index < words.length) {
    const word = words[index] ?? '';
    if (ENV_ASSIGNMENT.test(word)) index++;
    else if (word.startsWith('$env:')) return;
    else if (WRAPPERS.has(programName(word))) {
      index++;
      while (index < words.length && (/^-/.test(words[index] ?? '') || /^\d+[smhd]?$/.test(words[index] ?? '') || ENV_ASSIGNMENT.test(words[index] ?? ''))) index++;
    } else break;
  }
  const program = programName(words[index] ?? '');
  const args = words.slice(index + 1);
  const positional = (strict = false): string[] => {
    const kept: string[] = [];
    let afterDashes = false;
    for (const arg of args) {
      if (arg === '--') afterDashes = true;
      else if (afterDashes ? arg.length > 0 && arg.length <= MAX_ARG_CHARS && !URL_LIKE.test(arg) : looksLikePath(arg, strict)) kept.push(arg);
    }
    return kept;
  };
  if (program === 'cd' || program === 'pushd' || program === 'set-location') {
    const target = args.find((arg) => !arg.startsWith('-'));
    if (target) setCwd(target);
  } else if (DELETE.has(program)) {
    for (const path of positional()) add(path, 'delete');
  } else if (program === 'mv' || program === 'move-item' || program === 'cp' || program === 'copy-item') {
    const paths = positional();
    const target = paths.pop();
    for (const path of paths) add(path, program.startsWith('m') ? 'delete' : 'read');
    if (target) add(target, 'write');
  } else if (program === 'sed' || program === 'perl') {
    const inPlace = args.some((arg) => /^-[a-zA-Z]*i/.test(arg) || arg.startsWith('--in-place'));
    // The first non-flag argument is the script unless `-e`/`-f` gave it.
    const scriptGiven = args.some((arg) => arg === '-e' || arg === '-f');
    const files = args.filter((arg, position) => !arg.startsWith('-') && args[position - 1] !== '-e' && args[position - 1] !== '-f');
    for (const path of (scriptGiven ? files : files.slice(1)).filter((arg) => looksLikePath(arg))) add(path, inPlace ? 'edit' : 'read');
  } else if (program === 'git') {
    const sub = args.find((arg) => !arg.startsWith('-')) ?? '';
    const afterSub = args.slice(args.indexOf(sub) + 1);
    const dashes = afterSub.indexOf('--');
    const candidates = dashes >= 0 ? afterSub.slice(dashes + 1) : afterSub.filter((arg) => looksLikePath(arg, !GIT_WRITE.has(sub) && sub !== 'rm' && sub !== 'mv'));
    const action: FileAction | null = GIT_WRITE.has(sub) ? 'write' : sub === 'rm' ? 'delete' : sub === 'mv' ? 'write' : GIT_EDIT.has(sub) ? 'edit' : GIT_READ.has(sub) || sub === 'stash' ? 'read' : null;
    if (action) for (const path of candidates.filter((arg) => !arg.startsWith('-') && arg !== '.')) add(path, action);
  } else if (READERS.has(program)) {
    for (const path of positional()) add(path, 'read');
  } else if (program === 'mkdir') {
    // A new folder is where work will go, not work done: it ranks with listed folders.
    for (const path of positional()) add(path, 'list');
  } else if (WRITERS.has(program)) {
    const paths = positional();
    for (const path of program === 'chmod' || program === 'chown' ? paths.filter((arg) => !/^[+\-=]?[0-7rwxXst,ugoa+=-]+$/.test(arg)) : paths) add(path, 'write');
  } else if (INTERPRETERS.has(program)) {
    for (let position = 0; position < args.length; position++) {
      const arg = args[position] ?? '';
      if (arg === '-c' || arg === '-e' || arg === '--eval' || arg === '-Command') {
        for (const path of pathsInInlineCode(args[position + 1] ?? '')) add(path, 'read');
        return;
      }
      if (arg === '-m') {
        // `python -m pytest tests/x.py`, `python -m py_compile a.py b.py`: the module's path arguments.
        for (const rest of args.slice(position + 2)) if (looksLikePath(rest)) add(rest.replace(/::.*$/, ''), 'run');
        return;
      }
      if (VALUE_FLAGS.has(arg)) position++;
      else if (arg === 'run' || arg === 'test' || arg.startsWith('-')) continue;
      else if (looksLikePath(arg)) {
        add(arg, 'run');
        return;
      } else return;
    }
  } else if (TEST_RUNNERS.has(program) || ((program === 'npm' || program === 'pnpm' || program === 'yarn') && args[0] === 'test')) {
    // `go test ./pkg/...` names a package folder; `pytest a.py::test_b` a test inside a file.
    for (const path of positional()) add(path.replace(/\/\.\.\.$/, '').replace(/::.*$/, ''), 'run');
  }
}

/**
 * The files one shell command line touched.
 *
 * @param command - the command as the shell tool received it; only its first {@link MAX_COMMAND_CHARS} are read.
 * @param workdir - the folder the command ran in, when the tool call says so (`workdir`); `cd` inside the line moves it.
 * @returns touched paths, resolved against the working folder when relative, plus one `cwd` entry per folder the
 *   line ran in; at most {@link MAX_TOUCHES}. A line the parser cannot read yields nothing.
 */
export function shellTouches(command: string, workdir: string | null = null): ShellTouch[] {
  const touches: ShellTouch[] = [];
  let tokens: readonly Token[];
  try {
    tokens = tokenize(command);
  } catch {
    return touches;
  }
  let cwd = workdir;
  if (workdir) touches.push({ path: joinPath(null, workdir), action: 'cwd' });
  const add = (raw: string, action: FileAction): void => {
    if (touches.length >= MAX_TOUCHES || raw.includes('$')) return;
    touches.push({ path: joinPath(cwd, raw), action });
  };
  const setCwd = (dir: string): void => {
    if (dir.includes('$') || dir === '-') return;
    cwd = joinPath(cwd, dir);
    if (touches.length < MAX_TOUCHES) touches.push({ path: cwd, action: 'cwd' });
  };
  for (const segment of segments(tokens)) {
    const words: string[] = [];
    for (let index = 0; index < segment.length; index++) {
      const token = segment[index];
      const next = segment[index + 1];
      if (token === undefined) continue;
      if (typeof token === 'string') {
        // `2>&1`, `2> err.log`: the digit before a redirection is a descriptor, not an argument.
        if (/^\d$/.test(token) && typeof next === 'object' && 'op' in next && /[<>]/.test(next.op)) continue;
        words.push(token);
      } else if ('op' in token && token.op !== 'glob') {
        if (typeof next !== 'string') continue;
        index++;
        if (token.op === '>&' || token.op === '<&' || /^\d+$|^-$/.test(next) || next.startsWith('/dev/')) continue;
        if (REDIRECT_WRITE.has(token.op) && looksLikePath(next)) add(next, 'write');
        else if (token.op === '<' && looksLikePath(next)) add(next, 'read');
      }
    }
    commandTouches(words, add, setCwd);
  }
  return touches;
}
