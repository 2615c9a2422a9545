/**
 * The programs a shell command runs, read from the command's words: past
 * variable assignments, runners (`npx`, `sudo`, `python -m`), the bodies of
 * here-documents, and into the quoted command `ssh` runs on a host.
 *
 * Each scan is one pass over a command the caller has already capped.
 */
import { GENERIC_COMMANDS } from '../../text/generic-words.js';

const COMMAND_SPLIT = /&&|\|\||[;|\n]|\$\(|`/;
const RUNNERS = new Set(['npx', 'pnpx', 'bunx', 'uvx', 'pipx', 'sudo', 'time', 'timeout', 'nohup', 'exec', 'env', 'xvfb-run', 'watch']);

// `<<EOF`, `<<-'END'`, `<< "PY"`, `<<'\''UNIT'\''` inside a quoted remote command; not a here-string (`<<<`).
const HEREDOC = /(?<!<)<<-?[ \t]*[\\'"]{0,4}([A-Za-z_]\w{0,30})/g;
// The closing word may carry the quote that ends a remote command (`ssh host "…\nEOF"`).
const QUOTES_ONLY = /^[\\'"]*$/;

/**
 * A command without the bodies of its here-documents: their lines are a file's content (an `.env`,
 * a unit file, a script for `python -`), and their closing word (`EOF`) is no program.
 *
 * @param command - a command, capped by the caller.
 */
export function withoutHeredocBodies(command: string): string {
  if (!command.includes('<<')) return command;
  const kept: string[] = [];
  const closing: string[] = [];
  for (const line of command.split('\n')) {
    if (closing.length > 0) {
      const trimmed = line.trim();
      const word = closing[0] ?? '';
      if (trimmed.startsWith(word) && QUOTES_ONLY.test(trimmed.slice(word.length))) closing.shift();
      continue;
    }
    kept.push(line);
    if (line.includes('<<')) for (const match of line.matchAll(HEREDOC)) closing.push(match[1] ?? '');
  }
  return kept.join('\n');
}

/** Index of the program among a segment's words: past variable assignments, runners and options. */
function programIndex(words: readonly string[]): number {
  let index = 0;
  while (index < words.length) {
    const word = words[index] ?? '';
    if (/^[A-Za-z_]\w*=/.test(word) || RUNNERS.has(word) || /^-/.test(word) || /^\d+[smh]?$/.test(word)) index++;
    else if ((word === 'python' || word === 'python3') && words[index + 1] === '-m') index += 2;
    else if ((word === 'npm' || word === 'pnpm' || word === 'yarn' || word === 'bun') && (words[index + 1] === 'exec' || words[index + 1] === 'dlx')) index += 2;
    else break;
  }
  return index;
}

/**
 * Each program a command runs with the two words after it (`['go', 'build', './...']`), past
 * runners such as `npx`, `sudo` and `python -m`, and past here-document bodies. A command `ssh`
 * runs on a host in quotes (`ssh host 'sudo systemctl restart app'`) counts as run.
 *
 * @param command - one command line, capped by the caller.
 */
export function commandsRun(command: string): string[][] {
  const found: string[][] = [];
  for (const segment of withoutHeredocBodies(command).split(COMMAND_SPLIT)) {
    let words = segment.trim().split(/\s+/).filter(Boolean);
    let index = programIndex(words);
    if (words[index] === 'ssh') {
      const remote = words.findIndex((word, at) => at > index && /^['"]/.test(word));
      if (remote !== -1) {
        words = words.slice(remote).map((word, at) => (at === 0 ? word.replace(/^['"]+/, '') : word));
        index = programIndex(words);
      }
    }
    // `./mvnw`, and PowerShell's `.\mvnw.cmd`: the program is the file's name, without a Windows launcher's extension.
    const program = (words[index] ?? '').replace(/^\.[\\/]/, '').split(/[\\/]/).pop()?.replace(/\.(?:cmd|exe|bat)$/i, '') ?? '';
    if (/^[A-Za-z][\w.-]{1,40}$/.test(program)) found.push([program, ...words.slice(index + 1, index + 3)]);
  }
  return found;
}

/**
 * Whether a program run is a program of its own, not one of the shell's everyday commands or a script.
 *
 * @param program - a program as {@link commandsRun} gives it.
 */
export function isOwnProgram(program: string): boolean {
  return !GENERIC_COMMANDS.has(program.toLowerCase()) && !/\.(?:sh|py|js|ts|mjs|cjs|rb|pl|ps1|bat|cmd)$/i.test(program);
}
