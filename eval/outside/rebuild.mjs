#!/usr/bin/env node
// Rebuilds the outside corpora from their sources (sources.json): each session's transcript is taken from
// its repository at the listed commit with git, its credentials are replaced by fakes of the same shape
// (../rebuild-common.mjs), and it is converted to an export under OUT/<set>/sessions/, with its truth file
// copied to OUT/<set>/truth/. Each set folder is a corpus for `npm run eval -- --continuity --corpus DIR`.
//
//   node eval/outside/rebuild.mjs [--out /tmp/outside] [--mirrors DIR] [--convert FILE]
//
// Sets: OUT/heldout (never opened by anyone writing extraction rules), OUT/rules, and OUT/languages (held out
// as well: sessions in a language the cue tables were written for after the split, never opened while writing them).
// A session of `"layout": "fenced-tools"` is in the older export layout and has its tool calls unwrapped first.
// --mirrors DIR: where the repositories are, as DIR/<owner>+<name>/repo (a bare git directory) or
// DIR/<owner>+<name> (a clone); a repository not found there is cloned from GitHub into DIR.
// --convert FILE: the transcript converter (default ../shared/real-sessions/tools/convert.mjs beside the clone).
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gitDir, passwords, rebuildArgs, redacted, unfencedToolCalls } from '../rebuild-common.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '..', '..');
const { out, mirrors, convert } = rebuildArgs(process.argv.slice(2), { out: '/tmp/outside', mirrors: 'outside-repos' }, root);
const { sessions } = JSON.parse(readFileSync(join(here, 'sources.json'), 'utf8'));

const transcripts = new Map(
  sessions.map((session) => [session.name, execFileSync('git', ['--git-dir', gitDir(mirrors, session.repository), 'show', `${session.commit}:${session.path}`], { maxBuffer: 64 * 1024 * 1024 }).toString('utf8')]),
);
// A password one transcript shows beside its key, another may show alone.
const known = [...new Set([...transcripts.values()].flatMap(passwords))].sort((a, b) => b.length - a.length);
const work = join(tmpdir(), `outside-rebuild-${process.pid}`);
mkdirSync(work, { recursive: true });
try {
  for (const session of sessions) {
    const set = session.set === 'held-out' ? 'heldout' : session.set === 'languages' ? 'languages' : 'rules';
    for (const folder of ['sessions', 'truth']) mkdirSync(join(out, set, folder), { recursive: true });
    const transcript = transcripts.get(session.name);
    const { text, count } = redacted(session.layout === 'fenced-tools' ? unfencedToolCalls(transcript) : transcript, known);
    const markdown = join(work, `${session.name}.md`);
    writeFileSync(markdown, text);
    execFileSync(process.execPath, [convert, markdown, join(out, set, 'sessions', `${session.name}.json`), '--id', session.name], { stdio: 'inherit' });
    copyFileSync(join(here, 'truth', `${session.name}.json`), join(out, set, 'truth', `${session.name}.json`));
    process.stdout.write(`${set}/sessions/${session.name}.json${count ? ` (${count} credentials replaced)` : ''}\n`);
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
