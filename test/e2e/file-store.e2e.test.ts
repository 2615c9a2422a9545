/**
 * The plugin inside the real OpenCode server with no maenifold CLI at all:
 * the built-in file store keeps a first session's compactions under
 * `$MAENIFOLD_ROOT/memory`, and a second session's system text carries graph
 * context built from them, while its title and compaction requests carry
 * none of it. Its log holds the lines the README's "Reading the
 * log" lists, in that order.
 */
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rm } from 'node:fs/promises';
import { delimiter, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createProject, LEAN_POOL, OPENCODE_CACHE_DIR, REPO_ROOT, scratchDir, until } from '../../support/opencode/runtime.js';
import { startFakeModel, type FakeModel, type ModelRequest } from '../../support/opencode/fake-model.js';
import { isolatedEnv, startOpenCode, type OpenCodeServer } from '../../support/opencode/opencode-server.js';
import { projectApi, type ProjectApi } from '../../support/opencode/api.js';

let scratch = '';
let root = '';
let model: FakeModel;
let server: OpenCodeServer | undefined;
let api: ProjectApi;

async function memoryFiles(): Promise<string[]> {
  try {
    return (await readdir(join(root, 'memory'), { recursive: true })).filter((name) => name.endsWith('.md')).sort();
  } catch {
    return [];
  }
}

/** The `message` of every line of an OpenCode log, unquoted. */
function logMessages(log: string): string[] {
  const messages: string[] = [];
  for (const line of log.split('\n')) {
    const found = /(?:^|\s)message=(?:"((?:[^"\\]|\\.)*)"|(\S*))/.exec(line);
    if (found) messages.push(found[1] !== undefined ? found[1].replace(/\\(.)/g, '$1') : (found[2] ?? ''));
  }
  return messages;
}

/**
 * The prefixes of the log lines the README lists between its `log-lines`
 * markers, in the README's order: each item's first code span up to its first colon.
 */
async function documentedPrefixes(): Promise<string[]> {
  const readme = await readFile(join(REPO_ROOT, 'README.md'), 'utf8');
  const block = /<!-- log-lines -->\n([\s\S]*?)<!-- \/log-lines -->/.exec(readme)?.[1] ?? '';
  return [...block.matchAll(/^- `([^`:]+:)/gm)].map((match) => match[1] as string);
}

beforeAll(async () => {
  scratch = await scratchDir();
  root = join(scratch, 'maenifold-root');
  await mkdir(root);
  const { binary, template } = inject('e2eRuntime');
  model = await startFakeModel();
  // No `cli` or `store` option, no MAENIFOLD_CLI, and no folder on PATH that holds a `maenifold`.
  const dir = await createProject(scratch, 'kept-knowledge', template, { pluginOptions: { pool: LEAN_POOL }, modelUrl: model.url, snapshot: false });
  const path = (process.env['PATH'] ?? '/usr/bin:/bin')
    .split(delimiter)
    .filter((folder) => folder !== '' && !existsSync(join(folder, 'maenifold')))
    .join(delimiter);
  const env = await isolatedEnv(scratch, { PATH: path, MAENIFOLD_ROOT: root, XDG_CACHE_HOME: OPENCODE_CACHE_DIR }, template);
  server = await startOpenCode(binary, dir, env);
  api = await projectApi(server.url, dir);
});

afterAll(async () => {
  api?.close();
  await server?.stop(5_000);
  await model?.close();
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

describe('the file store in the real OpenCode server', () => {
  it('keeps a first session’s compactions and returns them as graph context in a second session', async () => {
    const first = await api.createSession();
    // Three compactions: a relation counts as strong (and is injected) only when its concepts share more than two files.
    for (const round of [1, 2, 3]) {
      await api.prompt(first, `## Notes ${round}\nWe decided to use [[SQLite]] for [[local-storage]] because it needs no server, and every developer can run it without any setup at all.`);
      expect((await api.summarize(first)).status).toBe(200);
    }
    const files = await until(
      async () => {
        const listed = await memoryFiles();
        // The project's memory digest sits beside its notes.
        const notes = listed.filter((name) => name.startsWith('sessions/compaction/') && name.includes('/compaction-'));
        const chains = listed.filter((name) => name.startsWith('thinking/sequential/'));
        // The note a summary's items supersede a compaction note with links no topic: only the compaction notes
        // make the relation strong.
        const linking = await Promise.all(notes.map(async (name) => (await readFile(join(root, 'memory', name), 'utf8').catch(() => '')).includes('[[sqlite]]')));
        return linking.filter(Boolean).length >= 3 && chains.length >= 1 ? listed : undefined;
      },
      30_000,
      'three compaction notes and a summary chain on disk',
    );
    const compactionNotes = await Promise.all(files.filter((name) => name.startsWith('sessions/compaction/') && name.includes('/compaction-')).map((name) => readFile(join(root, 'memory', name), 'utf8')));
    const note = compactionNotes.find((text) => text.includes('[[sqlite]]')) ?? '';
    expect(note).toMatch(/^---\ntitle: Compaction kept knowledge [0-9a-f]{8} \d{8} \d{9} /);
    expect(note).toContain('type: memory');
    expect(note).toContain('[[sqlite]]');
    const chain = await readFile(join(root, 'memory', files.find((name) => name.startsWith('thinking/sequential/')) ?? ''), 'utf8');
    expect(chain).toMatch(/## Thought 0\/1 \[agent\]/);
    expect((server as OpenCodeServer).output()).toContain('store: built-in files under');

    const before = model.requests.length;
    // Untitled, as a user's new session is: OpenCode asks the model for its title.
    const second = (await api.call<{ id: string }>('POST', '/session', {})).body.id;
    expect((await api.prompt(second, 'What did we decide before?')).status).toBe(200);
    const ofSecond = (entry: ModelRequest): boolean => entry.lastUser.includes('What did we decide before');
    const request = model.requests.slice(before).find((entry) => ofSecond(entry) && !entry.isCompaction && !entry.isTitle);
    const system = request?.system ?? '';
    // The project's memory first, then the graph context of the concepts its notes link.
    expect(system).toContain('## Project Memory');
    expect(system.slice(system.indexOf('## Project Memory'))).toContain('SQLite');
    expect(system.indexOf('## Knowledge Graph Context')).toBeGreaterThan(system.indexOf('## Project Memory'));
    expect(system).toMatch(/Context for CONCEPT: (kept-knowledge|sqlite|local-storage|compaction)/);
    expect(system).toMatch(/co-occurs in [3-9] files/);

    // The session's hidden calls get none of it: its title (generated beside the first turn, sometimes
    // after it) and its compaction would otherwise restate the earlier sessions' memory as this one's.
    expect((await api.summarize(second)).status).toBe(200);
    const compaction = model.requests.slice(before).find((entry) => ofSecond(entry) && entry.isCompaction);
    const title = await until(async () => model.requests.slice(before).find((entry) => ofSecond(entry) && entry.isTitle), 20_000, 'the title request');
    for (const [what, hidden] of [['compaction', compaction], ['title', title]] as const) {
      expect(hidden, what).toBeDefined();
      expect(hidden?.system, what).not.toContain('## Project Memory');
      expect(hidden?.system, what).not.toContain('## Knowledge Graph Context');
    }
  });

  it('logs the lines the README lists, in its order, to $XDG_DATA_HOME/opencode/log', async () => {
    const prefixes = await documentedPrefixes();
    expect(prefixes).toContain('store:');
    expect(prefixes).toContain('compaction:');
    const messages = logMessages((server as OpenCodeServer).output());
    const first = prefixes.map((prefix) => messages.findIndex((message) => message.startsWith(prefix)));
    for (const [index, prefix] of prefixes.entries()) expect(first[index], `a log line starting "${prefix}"`).toBeGreaterThanOrEqual(0);
    expect(first, `first appearances of ${prefixes.join(' | ')}`).toEqual([...first].sort((a, b) => a - b));
    // OpenCode 1.18.33 calls the 2.x entry too (its preview loader): the plugin still starts once, as 1.x.
    const starts = messages.filter((message) => message.startsWith('store:'));
    expect(starts).toHaveLength(1);
    expect(starts[0]).toContain('; OpenCode 1.x (server plugin API)');
    // OpenCode 1.18.33 does not print the service a plugin logs under: the README says so.
    expect((server as OpenCodeServer).output()).not.toContain('service=maenifold-plugin');
    const file = join(scratch, 'xdg', 'data', 'opencode', 'log', 'opencode.log');
    // The README's own grep, on the file as OpenCode wrote it, finds a line of every listed kind. OpenCode
    // writes the file after it prints the line, so the last lines may still be on their way.
    const readme = await readFile(join(REPO_ROOT, 'README.md'), 'utf8');
    const grep = new RegExp(/^grep -E '([^']+)'/m.exec(readme)?.[1] ?? '^$');
    const grepped = async (): Promise<string[]> => logMessages((await readFile(file, 'utf8')).split('\n').filter((line) => grep.test(line)).join('\n'));
    const everyKind = (messages: string[]): boolean => prefixes.every((prefix) => messages.some((message) => message.startsWith(prefix)));
    const found = await until(async () => {
      const messages = await grepped().catch(() => []);
      return everyKind(messages) ? messages : undefined;
    }, 10_000, 'every listed kind of line in the log file').catch(() => grepped());
    for (const prefix of prefixes) expect(found.some((message) => message.startsWith(prefix)), `the README's grep finds "${prefix}"`).toBe(true);
  });
});
