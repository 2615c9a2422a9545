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
import { gitDir, passwords, rebuildArgs, redacted } from '../rebuild-common.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '..', '..');
const { out, mirrors, convert } = rebuildArgs(process.argv.slice(2), { out: '/tmp/sequence', mirrors: 'sequence-repos' }, root);
const sources = JSON.parse(readFileSync(join(here, 'sources.json'), 'utf8'));

const work = join(tmpdir(), `sequence-rebuild-${process.pid}`);
mkdirSync(work, { recursive: true });
const transcripts = new Map();
for (const project of sources.projects) {
  const git = gitDir(mirrors, project.repository);
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
