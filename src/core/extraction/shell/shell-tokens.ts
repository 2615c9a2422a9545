/**
 * Shell command lines as tokens: split into logical lines (newlines outside
 * quotes, comments and heredoc bodies dropped), each read by `shell-quote`,
 * remembered for the commands a session repeats.
 */
import { parse, type ParseEntry } from 'shell-quote';
import { LRUCache } from 'lru-cache';

/** Longest command read; a longer one is cut (heredoc bodies and pasted scripts carry no more paths worth the parse). */
export const MAX_COMMAND_CHARS = 4_096;

/** A token of a command line, as `shell-quote` gives it. */
export type Token = string | { op: string } | { op: 'glob'; pattern: string } | { comment: string };

/**
 * The command's logical lines: split at newlines outside quotes, comments dropped, heredoc bodies
 * skipped. The parser itself reads a newline as a space and a `#` as "comment to the very end", so
 * a multi-line script would otherwise read as one command.
 */
export function logicalLines(command: string): string[] {
  const lines: string[] = [];
  let current = '';
  let quote: '"' | "'" | null = null;
  let comment = false;
  for (let index = 0; index < command.length; index++) {
    const char = command[index] as string;
    if (comment) {
      if (char === '\n') {
        comment = false;
        lines.push(current);
        current = '';
      }
      continue;
    }
    if (quote === null && char === '#' && (current.length === 0 || /\s/.test(current.at(-1) ?? ''))) {
      comment = true;
      continue;
    }
    if (char === '\\' && quote !== "'" && index + 1 < command.length) {
      const next = command[index + 1] as string;
      // A backslash-newline continues the line; any other escape is kept for the parser.
      if (next !== '\n') current += char + next;
      index++;
      continue;
    }
    if (quote === null && (char === '"' || char === "'")) quote = char;
    else if (quote === char) quote = null;
    if (char === '\n' && quote === null) {
      lines.push(current);
      current = '';
    } else current += char;
  }
  lines.push(current);
  const kept: string[] = [];
  let heredocEnd: string | null = null;
  for (const line of lines) {
    if (heredocEnd !== null) {
      if (line.trim() === heredocEnd) heredocEnd = null;
      continue;
    }
    if (line.trim().length > 0) kept.push(line);
    heredocEnd = /<<-?\s*['"]?([A-Za-z_][\w-]*)['"]?/.exec(line)?.[1] ?? null;
  }
  return kept;
}

/** Tokens of every logical line, a `;` between lines. */
function tokenizeLines(command: string): Token[] {
  const tokens: Token[] = [];
  for (const line of logicalLines(command)) {
    if (tokens.length > 0) tokens.push({ op: ';' });
    // Variables stay as written: expanding them would invent paths.
    tokens.push(...(parse(line, (name: string) => `$${name}`) as ParseEntry[] as Token[]));
  }
  return tokens;
}

/**
 * A drive-letter path written with backslashes (`C:\\Users\\…`, not inside a word) or a UNC path: the
 * command was written for PowerShell or cmd, where a backslash separates folders and escapes nothing.
 */
const WINDOWS_PATH = /(?:^|[\s"'=(,;&|>])(?:[A-Za-z]:\\(?=[^\\\s"'])|\\\\[\w.$-]+\\)/;

/**
 * The command as the POSIX reader should see it: a command written for a Windows shell has its
 * backslashes read as the folder separators they are there, or `shell-quote` would take each one as
 * an escape and join the folders (`C:UsersdevAppData…`).
 *
 * @param command - a shell tool's command line.
 */
export function posixView(command: string): string {
  return WINDOWS_PATH.test(command) ? command.replaceAll('\\', '/') : command;
}

/** Commands whose tokens are kept: a call's line is read twice (touches, then its key), and sessions rerun the same commands. */
const TOKEN_CACHE_SIZE = 128;
const tokenCache = new LRUCache<string, { tokens: readonly Token[] | null }>({ max: TOKEN_CACHE_SIZE });

/**
 * {@link tokenizeLines} of the command's first {@link MAX_COMMAND_CHARS}, remembered for the last
 * {@link TOKEN_CACHE_SIZE} commands (callers only read the tokens). Throws when the parser does.
 */
export function tokenize(command: string): readonly Token[] {
  const head = posixView(command.slice(0, MAX_COMMAND_CHARS));
  let known = tokenCache.get(head);
  if (known === undefined) {
    try {
      known = { tokens: tokenizeLines(head) };
    } catch {
      known = { tokens: null };
    }
    tokenCache.set(head, known);
  }
  const { tokens } = known;
  if (tokens === null) throw new Error('unreadable command line');
  return tokens;
}
