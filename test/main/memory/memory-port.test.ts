/**
 * The memory port's contract, held by both of its stores: the built-in file
 * store, and maenifold's CLI as the tests run it (the double, which follows
 * maenifold-cli.md). Each writes the same notes and thought sessions byte for
 * byte as the golden files lay them out, refuses what maenifold refuses with
 * its codes, and relates the concepts of one memory folder alike.
 */
import { cp, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, onTestFinished } from 'vitest';
import { createFileStore } from '../../../src/main/memory/files/file-store.js';
import { createMaenifoldClient } from '../../../src/main/memory/cli/maenifold-client.js';
import { locateCli } from '../../../src/main/memory/cli/cli-locator.js';
import type { MemoryPort, NoteInput, ThoughtInput } from '../../../src/main/memory/memory-port.js';
import { createInlineRunner } from '../../../src/main/pool/inline-runner.js';
import { createLogger } from '../../../src/main/shared/logger.js';
import { createDoubleRoot, runDouble } from '../../../support/maenifold-double.js';
import { scratchFolders } from '../../support/scratch.js';

const FIXTURES = fileURLToPath(new URL('../../fixtures/file-store/', import.meta.url));
const CLOCK = Date.parse('2026-03-04T10:05:06.789Z');
const timing = { timeoutMs: 10_000 };

/** A store of one kind on a fresh root whose `memory/` may hold the fixture notes. */
interface OpenedStore {
  port: MemoryPort;
  /** The root; notes live under `memory/`. */
  root: string;
}

const newStateDir = scratchFolders('memory-port-state');
const newRoot = scratchFolders('memory-port-root');

/** The two stores, each opened on a root of its own with the clock at {@link CLOCK}, closed when the test ends. */
const STORES: ReadonlyArray<readonly [string, (withFixtures: boolean) => Promise<OpenedStore>]> = [
  [
    'the file store',
    async (withFixtures) => {
      const root = await newRoot();
      if (withFixtures) await cp(join(FIXTURES, 'memory'), join(root, 'memory'), { recursive: true });
      const store = createFileStore({
        root,
        stateDir: await newStateDir(),
        runner: await createInlineRunner(),
        logger: createLogger(undefined),
        now: () => CLOCK,
        agent: 'agent',
        index: { freshForMs: 0, persistDelayMs: 0 },
      });
      onTestFinished(() => store.close());
      return { port: store, root };
    },
  ],
  [
    'maenifold (the double)',
    async (withFixtures) => {
      const double = await createDoubleRoot();
      onTestFinished(() => double.cleanup());
      const env: NodeJS.ProcessEnv = { ...process.env, ...double.env, MAENIFOLD_DOUBLE_NOW: new Date(CLOCK).toISOString() };
      // The agent a thought is signed with comes from the payload or AGENT_ID, as in maenifold.
      delete env['AGENT_ID'];
      if (withFixtures) {
        await cp(join(FIXTURES, 'memory'), join(double.root, 'memory'), { recursive: true });
        // The CLI's graph sees new files only after Sync.
        expect(await runDouble(['--tool', 'Sync', '--payload', '{}'], double.env)).toMatchObject({ code: 0 });
      }
      return { port: createMaenifoldClient(locateCli(double.cliPath, env), env), root: double.root };
    },
  ],
];

const golden = (name: string): Promise<string> => readFile(join(FIXTURES, 'expected', name), 'utf8');

describe.each(STORES)('the memory port: %s', (_name, open) => {
  it.each<[NoteInput, string, string]>([
    [{ title: 'Decisions 2026-03-04 10:05', content: 'We chose [[Redis]] for the [[cache layer]].', folder: 'sessions/compaction', tags: ['compaction', 'acme-shop'] }, 'memory://sessions/compaction/decisions-20260304-1005', 'decisions-2026-03-04.md'],
    [{ title: 'Plan: cache & [queue] #1', content: 'We use [[redis]] here.', folder: 'tech' }, 'memory://tech/plan-cache-queue-1', 'plan-cache-queue-1.md'],
    [{ title: 'Already titled', content: '# Own heading\n\nSee [[api-gateway]].', tags: ['x y', 'true'] }, 'memory://already-titled', 'already-titled.md'],
    [{ title: '  spaces__and_under_scores  ', content: 'A `[[code]]` and [[real-link]].' }, 'memory://spaces-and-under-scores', 'spaces-and-under-scores.md'],
    // '..' is removed before the slashes: what a slash held apart stays.
    [{ title: 'Paths a./.b and c/..d', content: 'Where [[paths]] go.', folder: 'tech' }, 'memory://tech/paths-ab-and-cd', 'paths-ab-and-cd.md'],
  ])('should write %o at its URI, byte for byte as the golden file', async (note, uri, expected) => {
    const { port, root } = await open(false);
    const written = await port.writeNote(note, timing);
    expect(written).toEqual({ ok: true, value: { uri } });
    expect(await readFile(join(root, 'memory', `${uri.slice('memory://'.length)}.md`), 'utf8')).toBe(await golden(expected));
  });

  it('should write a thought session, continued and concluded, byte for byte as the golden file', async () => {
    const { port, root } = await open(false);
    const base = { nextThoughtNeeded: false, conclusion: 'Latest [[compaction]] summary of [[acme-shop]] recorded.', analysisType: 'retrospective' };
    const first = await port.appendThought({ ...base, response: 'First [[compaction]] summary.', thoughts: 'Delivery one.', thoughtNumber: 0, totalThoughts: 1 }, timing);
    expect(first).toMatchObject({ ok: true, value: { sessionId: expect.stringMatching(/^session-1772618706789-\d{5}$/) } });
    const sessionId = (first as { value: { sessionId: string } }).value.sessionId;
    const second = await port.appendThought({ ...base, response: 'Second [[compaction]] summary.', sessionId, thoughtNumber: 1, totalThoughts: 2 }, timing);
    expect(second).toEqual({ ok: true, value: { sessionId, thoughtNumber: 1 } });
    const actual = await readFile(join(root, 'memory/thinking/sequential/2026/03/04', `${sessionId}.md`), 'utf8');
    expect(actual.replaceAll(sessionId, 'session-1772618706789-00042')).toBe(await golden('session.md'));
  });

  it('should refuse what maenifold refuses, with its codes, and write nothing', async () => {
    const { port, root } = await open(false);
    await mkdir(join(root, 'memory'), { recursive: true });
    await writeFile(join(root, 'memory/.wikilink-filter.json'), JSON.stringify({ Secret: 'internal' }));
    const code = async (result: Promise<{ ok: true } | { ok: false; error: { toolCode?: string } }>): Promise<string | undefined> => {
      const settled = await result;
      return settled.ok ? 'ok' : settled.error.toolCode;
    };
    const thought = (input: Record<string, unknown>) => code(port.appendThought(input as unknown as ThoughtInput, timing));
    expect(await code(port.writeNote({ title: 'x', content: 'only `[[code]]` and\n\n    [[indented]]' }, timing))).toBe('VALIDATION_ERROR');
    expect(await code(port.writeNote({ title: 'x', content: 'a [[secret]] link' }, timing))).toBe('FILTERED_WIKILINKS');
    expect(await code(port.writeNote({ title: 'x'.repeat(200), content: '[[a]]' }, timing))).toBe('PATH_TOO_LONG');
    expect(await code(port.writeNote({ title: 'x', content: '[[a]]', folder: '../escape' }, timing))).toBe('PATH_VALIDATION_ERROR');
    expect(await thought({ response: 'no links', thoughtNumber: 0, totalThoughts: 1, nextThoughtNeeded: true })).toBe('WIKILINK_REQUIRED');
    expect(await thought({ response: '[[a]]', sessionId: 'session-1-1', thoughtNumber: 1, totalThoughts: 2, nextThoughtNeeded: true })).toBe('SESSION_MISSING');
    expect(await thought({ response: '[[a]]', thoughtNumber: 0, totalThoughts: 1, nextThoughtNeeded: false })).toBe('CONCLUSION_REQUIRED');
    expect(await readdir(join(root, 'memory'))).toEqual(['.wikilink-filter.json']);
  });

  it('should relate the concepts of the fixture folder by the files they share, code left out', async () => {
    const { port } = await open(true);
    const related = await port.related({ concept: 'Redis', depth: 1, maxEntities: 5 }, timing);
    expect(related.ok).toBe(true);
    const relations = related.ok ? related.value : [];
    expect(relations.map((relation) => [relation.name, relation.cooccurrence])).toEqual([
      ['cache-layer', 3],
      ['acme-shop', 1],
      ['api-gateway', 1],
    ]);
    expect(await port.related({ concept: 'not-a-concept' }, timing)).toEqual({ ok: true, value: [] });
  });
});
