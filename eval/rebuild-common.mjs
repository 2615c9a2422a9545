// What the corpus rebuild scripts share (eval/sequence/rebuild.mjs, eval/outside/rebuild.mjs): their
// arguments, where a repository's git directory is, and the credentials of a public transcript, replaced by
// fakes of the same shape before it is converted: the corpus stays on the machine, and what it shows of a key
// is its kind, never its value.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

/**
 * The arguments of a rebuild script: `--out DIR`, `--mirrors DIR` and `--convert FILE`, each resolved.
 *
 * @param args - the script's arguments.
 * @param defaults - `out` and the name of the default mirrors folder under the system's temporary folder.
 * @param root - the repository root (the converter defaults to ../shared/real-sessions/tools/convert.mjs beside it).
 */
export function rebuildArgs(args, defaults, root) {
  const flag = (name, fallback) => {
    const at = args.indexOf(name);
    return at >= 0 && args[at + 1] ? resolve(args[at + 1]) : fallback;
  };
  return {
    out: flag('--out', defaults.out),
    mirrors: flag('--mirrors', join(tmpdir(), defaults.mirrors)),
    convert: flag('--convert', resolve(root, '..', 'shared', 'real-sessions', 'tools', 'convert.mjs')),
  };
}

/**
 * A repository's git directory under `mirrors`: `<owner>+<name>/repo` (a bare git directory) or
 * `<owner>+<name>` (a clone); one not found there is cloned from GitHub into it.
 */
export function gitDir(mirrors, repository) {
  const base = join(mirrors, repository.replace('/', '+'));
  for (const candidate of [join(base, 'repo'), join(base, '.git'), base]) {
    if (existsSync(join(candidate, 'HEAD'))) return candidate;
  }
  mkdirSync(mirrors, { recursive: true });
  execFileSync('git', ['clone', '--bare', '--quiet', `https://github.com/${repository}.git`, base], { stdio: 'inherit' });
  return base;
}

// Shapes of credentials a transcript may show: each match keeps its prefix and its length, every other
// letter becoming x and every digit 0, so a reader still sees a key of that kind.
const CREDENTIALS = [
  /\b(?:sk|pk|rk)-(?:proj-|ant-)?[A-Za-z0-9_-]{20,}/g,
  /\bnvapi-[A-Za-z0-9_-]{20,}/g,
  /\bgh[pousr]_[A-Za-z0-9]{30,}/g,
  /\bgithub_pat_[A-Za-z0-9_]{30,}/g,
  /\bAKIA[0-9A-Z]{16}\b/g,
  /\bAIza[0-9A-Za-z_-]{35}\b/g,
  /\bxox[abprs]-[A-Za-z0-9-]{10,}/g,
  /\beyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}/g,
  /\b(?:postgres(?:ql)?|mysql|mongodb(?:\+srv)?|redis):\/\/[^:\s/]+:[^@\s]+@/g,
];
const PREFIX = /^(?:(?:sk|pk|rk)-(?:proj-|ant-)?|nvapi-|gh[pousr]_|github_pat_|AKIA|AIza|xox[abprs]-|eyJ|(?:postgres(?:ql)?|mysql|mongodb(?:\+srv)?|redis):\/\/[^:\s/]+:)/;

function fake(match) {
  const prefix = PREFIX.exec(match)?.[0] ?? '';
  const tail = match.slice(prefix.length).replace(/[A-Za-z]/g, 'x').replace(/[0-9]/g, '0');
  return prefix + (match.endsWith('@') ? `${tail.slice(0, -1)}@` : tail);
}

// A password written as a literal (`password=…`, `"password": "…"`, `PASSWORD: …`): every occurrence of
// the value is replaced, wherever else the transcript repeats it (a summary, a login command).
const PASSWORD = /(?<![A-Za-z])(?:password|passwd|pwd)["']?\s*[=:]\s*["'`]?([^\s"'`,;)\\]{6,})/gi;
const NOT_A_PASSWORD = /^(?:process\.env|isProduction|\$\{|change-me|your[_-]|<|\*+$|string$|null$|undefined$|true$|false$|encrypted$|password$)/i;

export function passwords(text) {
  const found = new Set();
  for (const match of text.matchAll(PASSWORD)) {
    const value = match[1];
    if (value && !NOT_A_PASSWORD.test(value) && /[0-9]/.test(value)) found.add(value);
  }
  // Longest first, so a password that holds another is replaced whole.
  return [...found].sort((a, b) => b.length - a.length);
}

export function redacted(text, known) {
  let count = 0;
  let result = text;
  for (const value of known) {
    const fakeValue = value.replace(/[A-Za-z]/g, 'x').replace(/[0-9]/g, '0');
    result = result.replace(new RegExp(value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'g'), () => {
      count += 1;
      return fakeValue;
    });
  }
  for (const pattern of CREDENTIALS) {
    result = result.replace(pattern, (match) => {
      count += 1;
      return fake(match);
    });
  }
  return { text: result, count };
}

// The older export layout wraps each tool call in a code fence whose first line is `Tool: X`, with its
// input and output fences inside (each after an `**Input:**`, `**Output:**` or `**Error:**` label). The
// converter reads the current layout, where the call opens with a `**Tool: X**` line: the wrapper's two
// fence lines become that one line, and nothing else changes.
const INNER_LABEL = /^\*\*(?:Input|Output|Error):\*\*\s*$/;

export function unfencedToolCalls(text) {
  const lines = text.split('\n');
  const kept = [];
  let wrapped = false;
  let inner = false;
  let label = false;
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index];
    const fence = /^```/.test(line);
    if (!wrapped) {
      if (line === '```' && /^Tool: \S/.test(lines[index + 1] ?? '')) {
        kept.push(`**${lines[index + 1]}**`);
        index++;
        wrapped = true;
        continue;
      }
    } else if (inner) {
      if (line === '```') inner = false;
    } else if (fence && label) {
      inner = true;
    } else if (line === '```') {
      wrapped = false;
      continue;
    }
    if (line.trim() !== '') label = INNER_LABEL.test(line);
    kept.push(line);
  }
  return kept.join('\n');
}
