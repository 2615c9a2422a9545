import { cp, mkdir, readFile, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { createFileStore, type FileStore } from '../../../../src/main/memory/files/file-store.js';
import { SEARCH_PART_CHARS } from '../../../../src/main/memory/files/file-store-reads.js';
import { searchEntries } from '../../../../src/core/memory/memory-queries.js';
import { createInlineRunner } from '../../../../src/main/pool/inline-runner.js';
import { createLogger, type Logger } from '../../../../src/main/shared/logger.js';
import { judgeRelations } from '../../../../src/main/graph/graph-context.js';
import { sanitizeTitle } from '../../../../src/core/memory/memory-format.js';
import type { Relation } from '../../../../src/main/memory/memory-port.js';
import { MEMORY_INDEX_VERSION } from '../../../../src/core/memory/index-cache.js';
import { createFakeHost, type FakeHost } from '../../../../support/fake-host.js';
import { buildCompactionNote } from '../../../../src/main/compaction/compaction-note.js';
import type { Extraction } from '../../../../src/main/compaction/extraction-engine.js';
import { scratchFolders } from '../../../support/scratch.js';

const FIXTURES = fileURLToPath(new URL('../../../fixtures/file-store/', import.meta.url));
const CLOCK = Date.parse('2026-03-04T10:05:06.789Z');
const timing = { timeoutMs: 5_000 };

const newRoot = scratchFolders('file-store-root');
const newStateDir = scratchFolders('file-store-state');
let stores: FileStore[] = [];

/** The logger of each store opened, so a test can wait for its lines to reach the host. */
const loggers = new Map<FileStore, Logger>();

async function openStore(root: string, stateDir: string, host?: FakeHost): Promise<FileStore> {
  const logger = createLogger(host?.client);
  const store = createFileStore({
    root,
    stateDir,
    runner: await createInlineRunner(),
    logger,
    now: () => CLOCK,
    agent: 'agent',
    index: { freshForMs: 0, persistDelayMs: 0 },
  });
  stores.push(store);
  loggers.set(store, logger);
  return store;
}

/** The fixture folder in a temp root, mtimes spaced a minute apart in the order given (oldest first). */
async function fixtureRoot(): Promise<string> {
  const root = await newRoot();
  await cp(join(FIXTURES, 'memory'), join(root, 'memory'), { recursive: true });
  const order = ['sessions/gateway.md', 'tech/pool.md', 'tech/cache-streams.md', 'tech/redis-cache.md'];
  for (const [index, file] of order.entries()) {
    const at = new Date(CLOCK - (order.length - index) * 60_000);
    await utimes(join(root, 'memory', file), at, at);
  }
  return root;
}

/** One relation of an answer, by name. */
function relation(result: { ok: true; value: Relation[] } | { ok: false }, name: string): Relation | undefined {
  return result.ok ? result.value.find((found) => found.name === name) : undefined;
}

afterEach(async () => {
  for (const store of stores) await store.close();
  stores = [];
  loggers.clear();
});

describe('createFileStore', () => {
  describe('writes', () => {
    // How a note and a thought session are laid out on disk, and what is refused, is the memory port's
    // contract, held by this store and by maenifold's CLI alike: test/main/memory/memory-port.test.ts.

    it('should write a compaction note under the contract: its frontmatter, its own H1, concepts linked in the body, the plugin and the project in tags', async () => {
      const extraction = { concepts: [{ name: 'websocket', count: 3 }, { name: 'compaction', count: 1 }, { name: 'acme-shop', count: 2 }], decisions: [], files: ['src/feed.ts'] } as unknown as Extraction;
      const note = buildCompactionNote('acme-shop', 'ses_4f2a91c07ffeYb3LqP0aZt2mQw', extraction, new Date(CLOCK));
      const root = await newRoot();
      const store = await openStore(root, await newStateDir());
      const mine = await store.writeNote(note, timing);
      expect(mine.ok).toBe(true);
      const uri = (mine as { value: { uri: string } }).value.uri;
      const title = sanitizeTitle(note.title);
      const slug = uri.slice(uri.lastIndexOf('/') + 1);
      expect(uri).toBe(`memory://${note.folder}/${slug}`);
      const a = await readFile(join(root, 'memory', `${uri.slice('memory://'.length)}.md`), 'utf8');
      // The content starts with '# ', so no H1 is added.
      expect(a).toBe(
        ['---', `title: ${title}`, `permalink: ${slug}`, 'type: memory', 'status: saved', 'created: "2026-03-04T10:05:06.789Z"', 'modified: "2026-03-04T10:05:06.789Z"', 'tags:', '- compaction', '- session', '- acme-shop', `- ${note.tags[3]}`, '---', '', note.content].join('\n'),
      );
      const body = a.slice(a.indexOf('\n---\n') + 5);
      expect([...body.matchAll(/\[\[([^\]]+)\]\]/g)].map((match) => match[1])).toEqual(['websocket']);
      expect(body).toContain('**Session**: ses_4f2a91c07ffeYb3LqP0aZt2mQw');
    });

    it('should keep a damaged session file aside and answer SESSION_MISSING, so the chain starts again', async () => {
      const root = await newRoot();
      const host = createFakeHost();
      const store = await openStore(root, await newStateDir(), host);
      const base = { nextThoughtNeeded: false, conclusion: 'Latest [[compaction]] summary recorded.', thoughtNumber: 0, totalThoughts: 1 };
      const first = (await store.appendThought({ ...base, response: 'First [[compaction]] summary.' }, timing)) as { ok: true; value: { sessionId: string } };
      const folder = join(root, 'memory/thinking/sequential/2026/03/04');
      const file = join(folder, `${first.value.sessionId}.md`);
      // Cut off in the middle of its frontmatter.
      await writeFile(file, (await readFile(file, 'utf8')).slice(0, 40));
      const next = await store.appendThought({ ...base, response: 'Second [[compaction]] summary.', sessionId: first.value.sessionId, thoughtNumber: 1, totalThoughts: 2 }, timing);
      expect(next).toMatchObject({ ok: false, error: { code: 'TOOL_ERROR', toolCode: 'SESSION_MISSING' } });
      const names = await readdir(folder);
      expect(names).toHaveLength(1);
      expect(names[0]).toMatch(new RegExp(`^${first.value.sessionId}\\.md\\.corrupt-`));
      await new Promise((resolve) => setImmediate(resolve));
      expect(host.linesWith('damaged thought session')).toHaveLength(1);
    });

    it('should overwrite a note whose title has the same slug, as maenifold does', async () => {
      const root = await newRoot();
      const store = await openStore(root, await newStateDir());
      await store.writeNote({ title: 'Cache Notes', content: 'first [[redis]]' }, timing);
      await store.writeNote({ title: 'cache notes!', content: 'second [[redis]]' }, timing);
      expect(await readdir(join(root, 'memory'))).toEqual(['cache-notes.md']);
      expect(await readFile(join(root, 'memory/cache-notes.md'), 'utf8')).toContain('second [[redis]]');
    });
  });

  describe('reads', () => {
    it('should rank search hits by title and concepts, then by text', async () => {
      const store = await openStore(await fixtureRoot(), await newStateDir());
      const found = await store.search({ query: 'redis cache', mode: 'Hybrid', pageSize: 5 }, timing);
      const results = found.ok ? found.value : [];
      expect(results.map((hit) => hit.path)).toEqual(['memory://tech/redis-cache', 'memory://tech/cache-streams', 'memory://tech/pool']);
      expect(results[0]?.snippet).toContain('[[redis]]');
      const none = await store.search({ query: 'the and of' }, timing);
      expect(none).toMatchObject({ ok: false, error: { code: 'TOOL_ERROR' } });
    });

    it('should search an index larger than one task carries as one search over all of it', async () => {
      const root = await newRoot();
      const folder = join(root, 'memory', 'notes');
      await mkdir(folder, { recursive: true });
      // 120 notes of about 3 KB of words, a few parts' worth: hits of equal score in every part, told apart by time.
      const filler = Array.from({ length: 450 }, (_, index) => `word${index}`).join(' ');
      for (let index = 0; index < 120; index++) {
        const about = index % 7 === 0 ? 'the [[cache]] queue' : index % 5 === 0 ? 'a cache queue' : 'nothing here';
        const file = join(folder, `note-${index}.md`);
        await writeFile(file, `# Note ${index}\n\nThis note is about ${about}.\n\n${filler}\n`);
        const at = new Date(CLOCK - ((index * 37) % 120) * 60_000);
        await utimes(file, at, at);
      }
      const store = await openStore(root, await newStateDir());
      const found = await store.search({ query: 'cache queue', pageSize: 12 }, timing);
      const snapshot = await store.index.refresh();
      let chars = 0;
      for (const entry of snapshot.entries.values()) chars += entry.words.length;
      expect(chars).toBeGreaterThan(2 * SEARCH_PART_CHARS);
      const whole = searchEntries([...snapshot.entries.values()], 'cache queue', 12);
      expect(whole.ok && whole.results).toHaveLength(12);
      expect(found).toEqual({ ok: true, value: whole.ok ? whole.results : [] });
    });

    it('should list recent activity newest first with first and last H2', async () => {
      const store = await openStore(await fixtureRoot(), await newStateDir());
      const recent = await store.recent({ limit: 2, withinMs: 86_400_000, includeContent: true }, timing);
      expect(recent).toEqual({
        ok: true,
        value: [
          {
            id: 'redis-cache',
            kind: 'memory',
            modified: '2026-03-04 10:04',
            title: 'Redis cache',
            first: { heading: 'Setup', content: '[[redis]] backs the [[cache-layer]] of [[acme-shop]].' },
            last: { heading: 'Limits', content: 'Eviction is LRU.' },
          },
          { id: 'cache-streams', kind: 'memory', modified: '2026-03-04 10:03', title: 'Cache streams' },
        ],
      });
    });

    it('should read a note back and list a folder, as data', async () => {
      const root = await fixtureRoot();
      await writeFile(join(root, 'memory', 'tech', 'damaged.md'), '---\ntitle: a: b\n---\nStill read.\n');
      const store = await openStore(root, await newStateDir());
      // Damaged frontmatter is none: the note's title is its path, its body still reads.
      expect(await store.readNote('memory://tech/damaged', timing)).toMatchObject({ ok: true, value: { title: 'tech/damaged', content: 'Still read.\n' } });
      const read = await store.readNote('memory://tech/redis-cache', timing);
      expect(read).toMatchObject({ ok: true, value: { uri: 'memory://tech/redis-cache', title: 'Redis cache' } });
      expect(read.ok && read.value.content).toContain('[[redis]] backs the [[cache-layer]]');
      expect(await store.readNote('memory://tech/none', timing)).toMatchObject({ ok: false, error: { code: 'TOOL_ERROR', toolCode: 'NOT_FOUND' } });
      // The title is read from the frontmatter when asked for; a copy of the note has it as data.
      expect(read.ok && structuredClone(read.value)).toEqual({ uri: 'memory://tech/redis-cache', title: 'Redis cache', content: read.ok ? read.value.content : '' });
      expect(read.ok && JSON.parse(JSON.stringify(read.value)).title).toBe('Redis cache');
      expect(await store.listNotes('memory://tech', timing)).toEqual({ ok: true, value: ['memory://tech/cache-streams', 'memory://tech/damaged', 'memory://tech/pool', 'memory://tech/redis-cache'] });
      expect(await store.listNotes('../up', timing)).toMatchObject({ ok: false, error: { toolCode: 'PATH_VALIDATION_ERROR' } });
    });

    it('should build context from the files concepts share, with maenifold normalization and no code links', async () => {
      const store = await openStore(await fixtureRoot(), await newStateDir());
      const context = await store.related({ concept: 'Redis', depth: 1, maxEntities: 5 }, timing);
      expect(context).toEqual({
        ok: true,
        value: [
          { name: 'cache-layer', cooccurrence: 3, files: ['memory://tech/redis-cache', 'memory://tech/cache-streams', 'memory://tech/pool'] },
          { name: 'acme-shop', cooccurrence: 1, files: ['memory://tech/redis-cache'] },
          { name: 'api-gateway', cooccurrence: 1, files: ['memory://tech/pool'] },
        ],
      });
      expect(judgeRelations('redis', context).ok).toBe(true);
      expect(await store.related({ concept: 'not-a-concept' }, timing)).toEqual({ ok: true, value: [] });
    });

    it('should see its own writes on the next read and re-read only the changed file', async () => {
      const root = await fixtureRoot();
      const store = await openStore(root, await newStateDir());
      await store.related({ concept: 'redis' }, timing);
      expect(store.index.lastReport()).toMatchObject({ indexed: 4, total: 4 });
      await store.writeNote({ title: 'Fourth', content: '[[redis]] with the [[cache-layer]] again.' }, timing);
      const context = await store.related({ concept: 'redis' }, timing);
      expect(relation(context, 'cache-layer')?.cooccurrence).toBe(4);
      expect(store.index.lastReport()).toMatchObject({ indexed: 1, removed: 0, total: 5 });
      await rm(join(root, 'memory/tech/pool.md'));
      await store.related({ concept: 'redis' }, timing);
      expect(store.index.lastReport()).toMatchObject({ indexed: 0, removed: 1, total: 4 });
    });
  });

  describe('index cache', () => {
    it('should reuse a valid cache and re-read only files whose stamp changed', async () => {
      const root = await fixtureRoot();
      const stateDir = await newStateDir();
      const first = await openStore(root, stateDir);
      await first.related({ concept: 'redis' }, timing);
      await first.close();
      const at = new Date(CLOCK);
      await writeFile(join(root, 'memory/tech/pool.md'), (await readFile(join(root, 'memory/tech/pool.md'), 'utf8')).replace('[[api_gateway]]', '[[billing]]'));
      await utimes(join(root, 'memory/tech/pool.md'), at, at);
      const second = await openStore(root, stateDir);
      const context = await second.related({ concept: 'redis' }, timing);
      expect(second.index.lastReport()).toMatchObject({ cache: 'loaded', indexed: 1, total: 4 });
      expect(relation(context, 'billing')?.cooccurrence).toBe(1);
      expect(relation(context, 'api-gateway')).toBeUndefined();
    });

    it.each([
      ['garbage', 'not json {'],
      ['a wrong version', JSON.stringify({ version: 99, memoryDir: '', entries: [] })],
      ['a damaged entry', null],
    ])('should rebuild from the files when the cache holds %s, and say so once', async (_label, content) => {
      const root = await fixtureRoot();
      const stateDir = await newStateDir();
      const first = await openStore(root, stateDir);
      await first.related({ concept: 'redis' }, timing);
      await first.close();
      const file = first.index.cacheFile;
      if (content === null) {
        const cache = JSON.parse(await readFile(file, 'utf8')) as { entries: Record<string, unknown>[] };
        cache.entries[0] = { ...cache.entries[0], concepts: 'redis' };
        await writeFile(file, JSON.stringify(cache));
      } else {
        await writeFile(file, content);
      }
      const host = createFakeHost();
      const second = await openStore(root, stateDir, host);
      const context = await second.related({ concept: 'redis' }, timing);
      await second.related({ concept: 'redis' }, timing);
      expect(relation(context, 'cache-layer')?.cooccurrence).toBe(3);
      expect(second.index.lastReport()?.total).toBe(4);
      await loggers.get(second)?.flush();
      expect(host.linesWith('rejected')).toHaveLength(1);
      await second.close();
      const rewritten = JSON.parse(await readFile(file, 'utf8')) as { version: number; entries: unknown[] };
      expect(rewritten).toMatchObject({ version: MEMORY_INDEX_VERSION });
      expect(rewritten.entries).toHaveLength(4);
    });
  });
});
