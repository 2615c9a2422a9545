/**
 * Decisions the work itself records, whatever the prose says: a commit's
 * message (its author's own account of what was done), the work a stash
 * sets aside, and the project files a message deleted.
 *
 * Bounded: a command is read through the shell parser on its first
 * {@link MAX_COMMAND_CHARS} characters, and a message yields at most one
 * decision of each kind.
 */
import { parse, type ParseEntry } from 'shell-quote';
import type { Decision } from './decisions.js';
import { logicalLines, MAX_COMMAND_CHARS } from '../shell/shell-tokens.js';
import { shorten, MAX_DECISION_TEXT_CHARS, MAX_DECISION_CONTEXT_CHARS } from './prose-decisions.js';
import { capChars } from '../../text/char-cap.js';

/** What a commit is worth: the author's summary of a change the session chose to keep. */
export const COMMIT_SCORE = 4;
/** What setting work aside is worth: a choice of scope, below what was kept. */
export const STASH_SCORE = 3.5;
/** What a deletion is worth on its own: it fills a session with few decisions; a reversal ranks higher (see `rankDecisions`). */
export const DELETION_SCORE = 3;
/** Deleted paths named in one decision. */
const MAX_DELETED_NAMED = 4;

type Token = string | { op: string } | { comment: string } | { op: 'glob'; pattern: string };

/** Simple commands of a command line, as words: split at `&&`, `||`, `;`, `|` and newlines. */
function simpleCommands(command: string): string[][] {
  const commands: string[][] = [[]];
  for (const line of logicalLines(command.slice(0, MAX_COMMAND_CHARS))) {
    let tokens: Token[];
    try {
      tokens = parse(line, (name: string) => `$${name}`) as ParseEntry[] as Token[];
    } catch {
      continue;
    }
    commands.push([]);
    for (const token of tokens) {
      if (typeof token === 'string') commands[commands.length - 1]?.push(token);
      else if ('op' in token && token.op !== 'glob') commands.push([]);
      else if ('pattern' in token) commands[commands.length - 1]?.push(token.pattern);
    }
  }
  return commands.filter((words) => words.length > 0);
}

/** The value of `-m`/`--message` (also `-am`, `--message=…`) among a git command's arguments. */
function messageArgument(args: readonly string[]): string | null {
  for (let index = 0; index < args.length; index++) {
    const arg = args[index] ?? '';
    if (arg.startsWith('--message=')) return arg.slice('--message='.length);
    if (arg === '--message' || /^-[a-z]*m$/.test(arg)) return args[index + 1] ?? null;
  }
  return null;
}

/** A message worth reading: written out, not produced by a substitution the parser left unexpanded. */
function usable(message: string | null): message is string {
  return message !== null && message.trim().length >= 8 && !message.trimStart().startsWith('$');
}

/** A conventional commit's `type(scope)` prefix ("fix(deploy): …"): the line of work the commit belongs to. */
const CONVENTIONAL_SCOPE = /^([\w-]{1,20}\([^()\s]{1,40}\))!?:/;

/** Paths `git add` names in a command: what its commit changed. Options, `.` and pathspec magic say nothing. */
function stagedPaths(command: string): string[] {
  const paths = new Set<string>();
  for (const words of simpleCommands(command)) {
    if (words[0] !== 'git' || words[1] !== 'add') continue;
    for (const arg of words.slice(2)) if (!arg.startsWith('-') && !arg.startsWith(':') && arg !== '.' && paths.size < MAX_DELETED_NAMED * 4) paths.add(arg);
  }
  return [...paths];
}

/** A reference to the commit before the latest one: `HEAD~`, `HEAD~1`, `HEAD^`. */
const PARENT_OF_HEAD = /^(?:HEAD|@)(?:~1?|\^)$/;

/**
 * Whether a git subcommand undoes the latest commit: `git revert HEAD` makes a commit that takes it back,
 * `git reset --hard HEAD~1` (or `--soft`, `--mixed`, or none) drops it from the branch.
 */
function undoesLatestCommit(sub: string, rest: readonly string[]): boolean {
  const targets = rest.filter((arg) => !arg.startsWith('-'));
  if (sub === 'revert') return targets.length === 1 && (targets[0] === 'HEAD' || targets[0] === '@');
  return sub === 'reset' && targets.length === 1 && PARENT_OF_HEAD.test(targets[0] ?? '');
}

/**
 * What a shell command records in version control: a commit (its message's first line), a stash
 * with a message (what it set aside), or the undoing of the latest commit (marked `undoesCommit`, worth
 * nothing itself); `null` when the command does none of these.
 *
 * @param command - the shell command as the tool received it.
 * @param order - the message position.
 */
export function versionControlDecision(command: string, order: number): Decision | null {
  // Most commands are neither: two plain scans spare them the parser.
  const head = command.slice(0, MAX_COMMAND_CHARS);
  if (!/(?<![\w-])git(?![\w-])/.test(head) || !/(?<![\w-])(?:commit|stash|revert|reset)(?![\w-])/.test(head)) return null;
  for (const words of simpleCommands(command)) {
    if (words[0] !== 'git') continue;
    const args = words.slice(1).filter((arg, index, all) => !(index > 0 && all[index - 1] === '-C') && arg !== '-C');
    const sub = args.find((arg) => !arg.startsWith('-')) ?? '';
    const rest = args.slice(args.indexOf(sub) + 1);
    if (sub === 'commit') {
      const message = messageArgument(rest);
      if (!usable(message)) continue;
      const subject = message.split('\n', 1)[0]?.trim() ?? '';
      const staged = stagedPaths(command);
      const scope = CONVENTIONAL_SCOPE.exec(subject)?.[1]?.toLowerCase();
      const line = scope ? `scope:${scope}` : staged.length > 0 ? `files:${[...staged].sort().join(' ')}` : undefined;
      const files = staged.length > 0 ? ` (files: ${staged.slice(0, MAX_DELETED_NAMED).join(', ')})` : '';
      return {
        family: 'change',
        category: 'implementation',
        text: shorten(`committed: ${subject}`, MAX_DECISION_TEXT_CHARS),
        context: capChars(`git commit: ${message.replace(/\s+/g, ' ').trim()}${files}`, MAX_DECISION_CONTEXT_CHARS),
        score: COMMIT_SCORE,
        order,
        ...(line ? { line } : {}),
      };
    }
    if (undoesLatestCommit(sub, rest)) return { family: 'change', category: 'implementation', text: 'undid the latest commit', context: capChars(`git ${sub}: ${rest.join(' ')}`, MAX_DECISION_CONTEXT_CHARS), score: 0, order, undoesCommit: true };
    if (sub === 'stash' && (rest[0] === 'push' || rest[0] === 'save' || rest[0]?.startsWith('-'))) {
      const message = messageArgument(rest);
      if (!usable(message)) continue;
      const dashes = rest.indexOf('--');
      const paths = (dashes >= 0 ? rest.slice(dashes + 1) : rest.slice(1)).filter((arg, index, all) => !arg.startsWith('-') && arg !== message && !/^-[a-z]*m$|^--message$/.test(all[index - 1] ?? ''));
      const what = paths.length > 0 ? paths.slice(0, MAX_DELETED_NAMED).join(', ') : 'uncommitted changes';
      return {
        family: 'change',
        category: 'implementation',
        text: shorten(`stashed ${what} (${message.trim()})`, MAX_DECISION_TEXT_CHARS),
        context: capChars(`git stash: ${message.replace(/\s+/g, ' ').trim()}`, MAX_DECISION_CONTEXT_CHARS),
        score: STASH_SCORE,
        order,
      };
    }
  }
  return null;
}

/** What changing the project's hosted settings is worth: a change like a commit's, made outside the files. */
export const HOST_SCORE = 4;

/**
 * GitHub CLI subcommands that change the hosted project (its settings, secrets, releases, pull requests,
 * workflows) rather than read it: work done only through the shell, which no file edit records.
 */
const HOST_CHANGES: ReadonlyMap<string, ReadonlySet<string>> = new Map([
  ['repo', new Set(['edit', 'create', 'rename', 'archive'])],
  ['secret', new Set(['set', 'delete'])],
  ['variable', new Set(['set', 'delete'])],
  ['release', new Set(['create', 'edit'])],
  ['pr', new Set(['create', 'merge'])],
  ['workflow', new Set(['enable', 'disable'])],
]);

/** The settings a command's options give, `name value` each, one name once with its values in order. */
function settingsOf(args: readonly string[]): string {
  const settings = new Map<string, string[]>();
  const plain: string[] = [];
  for (let index = 0; index < args.length; index++) {
    const arg = args[index] ?? '';
    if (!arg.startsWith('--')) {
      // A bare number is a redirection's file descriptor (`2>&1`), not an argument.
      if (!arg.startsWith('-') && !/^\d+$/.test(arg)) plain.push(arg);
      continue;
    }
    const [flag = '', inline] = arg.slice(2).split('=', 2);
    const name = flag.replace(/^add-/, '');
    const value = inline ?? (args[index + 1]?.startsWith('-') === false ? (args[++index] ?? '') : '');
    settings.set(name, [...(settings.get(name) ?? []), value].filter((entry) => entry !== ''));
  }
  const named = [...settings].map(([name, values]) => (values.length > 0 ? `${name} ${values.join(', ')}` : name));
  return [plain.join(' '), named.join('; ')].filter((part) => part !== '').join(': ');
}

/**
 * What a shell command changed on the project's host (`gh repo edit --description … --homepage …`, a
 * secret set, a release created); `null` when it changed nothing there.
 *
 * @param command - the shell command as the tool received it.
 * @param order - the message position.
 */
export function hostDecision(command: string, order: number): Decision | null {
  const head = command.slice(0, MAX_COMMAND_CHARS);
  if (!/(?<![\w-])gh(?![\w-])/.test(head)) return null;
  for (const words of simpleCommands(command)) {
    if (words[0] !== 'gh' || !HOST_CHANGES.get(words[1] ?? '')?.has(words[2] ?? '')) continue;
    const action = `gh ${words[1]} ${words[2]}`;
    const settings = settingsOf(words.slice(3));
    const text = settings === '' ? action : `${action} ${settings}`;
    return {
      family: 'change',
      category: 'implementation',
      text: shorten(text, MAX_DECISION_TEXT_CHARS),
      context: capChars(text, MAX_DECISION_CONTEXT_CHARS),
      score: HOST_SCORE,
      order,
      line: action,
    };
  }
  return null;
}

/** A path in a scratch folder or a by-product: its deletion is housekeeping, not a decision. */
function scratch(path: string): boolean {
  return /^(?:\/private)?\/(?:tmp|var|dev)\/|(?:^|\/)(?:tmp|temp|\.cache|__pycache__)\//i.test(path) || /\.(?:log|tmp|bak|orig|pyc)$/i.test(path);
}

/** Segments of an absolute path shown: the project root is not known here, the file and its folders are enough. */
const SHOWN_SEGMENTS = 3;

function shown(path: string): string {
  const absolute = path.startsWith('/') || path.startsWith('~') || /^[A-Za-z]:\//.test(path);
  return absolute ? path.split('/').slice(-SHOWN_SEGMENTS).join('/') : path;
}

/**
 * The project files a message deleted, as one decision (`deleted a, b`); `null` when it deleted none.
 * A path in a scratch folder (`/tmp`, a cache) or a by-product (a log, a backup) does not count; an
 * absolute path is shown by its last folders.
 *
 * @param paths - the paths the message's successful calls deleted, relative to the project root.
 * @param order - the message position.
 */
export function deletionDecision(paths: readonly string[], order: number): Decision | null {
  const kept = [...new Set(paths.filter((path) => path.length > 0 && !scratch(path)).map(shown))];
  if (kept.length === 0) return null;
  const named = kept.slice(0, MAX_DELETED_NAMED).join(', ');
  const more = kept.length > MAX_DELETED_NAMED ? ` and ${kept.length - MAX_DELETED_NAMED} more` : '';
  const text = `deleted ${named}${more}`;
  return {
    family: 'deleted',
    category: 'implementation',
    text: shorten(text, MAX_DECISION_TEXT_CHARS),
    context: capChars(text, MAX_DECISION_CONTEXT_CHARS),
    score: DELETION_SCORE,
    order,
  };
}

/** Edited files named in a decision's context. */
const MAX_EDITED_NAMED = 3;

/**
 * A reported change with the files edited for it in its context, when its text names none of them ("Updated
 * the usage notes to document the flag" after edits of README.md): the edits say where the change went,
 * which the sentence leaves out. Scratch files are left out, and at most {@link MAX_EDITED_NAMED} are named.
 *
 * @param decision - a change the prose reports.
 * @param edited - the paths edited or written for it (since the request it answers), latest first.
 */
export function withEditedFiles<D extends Decision>(decision: D, edited: readonly string[]): D {
  if (edited.length === 0 || decision.family !== 'change') return decision;
  const text = decision.text.toLowerCase();
  // A file the text names already says where the change went.
  if (edited.some((path) => text.includes((path.split('/').pop() ?? path).toLowerCase()))) return decision;
  const names = [...new Set(edited.filter((path) => !scratch(path)))].slice(0, MAX_EDITED_NAMED).map(shown);
  if (names.length === 0) return decision;
  // The sentence gives way to the files when the context is full: they are what it lacked.
  const files = capChars(` (edited: ${names.join(', ')})`, MAX_DECISION_CONTEXT_CHARS / 2);
  return { ...decision, context: `${capChars(decision.context, MAX_DECISION_CONTEXT_CHARS - files.length)}${files}` };
}
