#!/usr/bin/env node
// Rebuilds the --sequence corpora from their sources (sources.json): each earlier session's transcript is
// taken from its repository at the listed commit with git, its credentials are replaced by fakes of the
// same shape, and it is converted to an export under OUT/<set>/sessions/; the later session's transcript
// is kept as markdown under OUT/<set>/later/ (it is read to write the truth, never compacted); the truth
// files of the set are copied to OUT/<set>/truth/.
//
//   node eval/sequence/rebuild.mjs [--out /tmp/sequence] [--mirrors DIR] [--convert FILE]
//
// --mirrors DIR: where the repositories are, as DIR/<owner>+<name>/repo (a bare git directory) or
// DIR/<owner>+<name> (a clone); a repository not found there is cloned from GitHub into DIR.
// --convert FILE: the transcript converter (default ../shared/real-sessions/tools/convert.mjs beside the clone).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, copyFileSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '..', '..');
const args = process.argv.slice(2);
const flag = (name, fallback) => {
  const at = args.indexOf(name);
  return at >= 0 && args[at + 1] ? resolve(args[at + 1]) : fallback;
};
const out = flag('--out', '/tmp/sequence');
const mirrors = flag('--mirrors', join(tmpdir(), 'sequence-repos'));
const convert = flag('--convert', resolve(root, '..', 'shared', 'real-sessions', 'tools', 'convert.mjs'));
const sources = JSON.parse(readFileSync(join(here, 'sources.json'), 'utf8'));

function gitDir(repository) {
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

function passwords(text) {
  const found = new Set();
  for (const match of text.matchAll(PASSWORD)) {
    const value = match[1];
    if (value && !NOT_A_PASSWORD.test(value) && /[0-9]/.test(value)) found.add(value);
  }
  // Longest first, so a password that holds another is replaced whole.
  return [...found].sort((a, b) => b.length - a.length);
}

function redacted(text, known) {
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

const work = join(tmpdir(), `sequence-rebuild-${process.pid}`);
mkdirSync(work, { recursive: true });
const transcripts = new Map();
for (const project of sources.projects) {
  const git = gitDir(project.repository);
  for (const session of [...project.earlier, project.later]) {
    transcripts.set(session.name, execFileSync('git', ['--git-dir', git, 'show', `${session.commit}:${session.path}`], { maxBuffer: 64 * 1024 * 1024 }).toString('utf8'));
  }
}
// A password one transcript shows beside its key, another may show alone.
const known = [...new Set([...transcripts.values()].flatMap(passwords))].sort((a, b) => b.length - a.length);
for (const project of sources.projects) {
  const set = project.set === 'held-out' ? 'heldout' : 'dev';
  for (const folder of ['sessions', 'truth', 'later']) mkdirSync(join(out, set, folder), { recursive: true });
  const show = ({ name }) => transcripts.get(name);
  for (const session of project.earlier) {
    const { text, count } = redacted(show(session), known);
    const markdown = join(work, `${session.name}.md`);
    writeFileSync(markdown, text);
    execFileSync(process.execPath, [convert, markdown, join(out, set, 'sessions', `${session.name}.json`), '--id', session.name], { stdio: 'inherit' });
    process.stdout.write(`${set}/sessions/${session.name}.json${count ? ` (${count} credentials replaced)` : ''}\n`);
  }
  writeFileSync(join(out, set, 'later', `${project.later.name}.md`), redacted(show(project.later), known).text);
  const truth = join(here, 'truth', `${project.project}.next.json`);
  if (existsSync(truth)) copyFileSync(truth, join(out, set, 'truth', `${project.project}.next.json`));
}
rmSync(work, { recursive: true, force: true });
