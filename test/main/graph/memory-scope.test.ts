import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../../support/plugin-harness.js';
import { filePool } from '../../support/file-pool.js';
import { createDoubleRoot } from '../../../support/maenifold-double.js';
import { projectFilters, readChainSessions, recordSessions } from '../../../src/main/graph/memory-scope.js';
import { printableRelations } from '../../../src/main/graph/graph-context.js';
import { SESSION_CONTEXT_HEADING } from '../../../src/main/graph/session-start.js';
import { TASK_CONTEXT_HEADING } from '../../../src/main/graph/task-augmentation.js';
import { resolveProject } from '../../../src/main/shared/project.js';
import type { ActivityItem, SearchHit } from '../../../src/main/memory/memory-port.js';
import { scratchFolders } from '../../support/scratch.js';

const pool = filePool();
const scratch = scratchFolders('memory-scope', 'all');

/** The harness's project: its folder is `/work/acme-shop`. */
const PROJECT = resolveProject('', '/work/acme-shop');
/** Another project of the same memory root and state folder. */
const OTHER = 'other-shop-0a1b2c3d';
const OTHER_CHAIN = 'session-1764320707042-00001';

/**
 * A person's own notes about the project, where the plugin never writes: the search by the project's
 * name finds them, and they link [[authentication]] with [[jwt]] three times.
 */
const OWN_NOTES: Record<string, string> = {
  'projects/acme-shop/auth-notes': '# Auth notes\n\nacme-shop signs users in with [[authentication]] over [[jwt]] tokens.',
  'projects/acme-shop/login-flow': '# Login flow\n\nThe acme-shop login runs [[authentication]] and checks the [[jwt]] expiry.',
  'projects/acme-shop/session-cookies': '# Session cookies\n\nacme-shop keeps [[authentication]] state in a [[jwt]] cookie.',
};

/**
 * Another project's session memory, each piece naming this project: five compaction notes, the
 * digest and the summary chain (more than a page of search hits), all linking [[authentication]] with [[kafka]] and [[billing-queue]].
 */
const OTHER_MEMORY: Record<string, string> = Object.fromEntries([
  ...[1, 2, 3, 4, 5].map((n) => [
    `sessions/compaction/${OTHER}/compaction-${OTHER}-20261128-09050704${n}-sesother${n}`,
    `# Compaction Summary\n\n**Project**: other-shop\n\n## Decisions Made\n\n- Like acme-shop, route [[authentication]] events through [[kafka]] into the [[billing-queue]]; ORCHID-NOTE-${n}\n`,
  ]),
  [`sessions/compaction/${OTHER}/memory-digest-${OTHER}`, `# Memory digest other shop\n\n## Decisions\n\n- acme-shop style [[authentication]] on [[kafka]] with the [[billing-queue]]; ORCHID-DIGEST\n`],
  [
    `thinking/sequential/2025/11/28/${OTHER_CHAIN}`,
    `---\ntitle: Sequential Thinking Session ${OTHER_CHAIN}\npermalink: ${OTHER_CHAIN}\ntype: sequential\nstatus: completed\n---\n# Sequential Thinking Session\n\n## Thought 0/0 [agent]\n\nacme-shop and [[authentication]] over [[kafka]] feeding the [[billing-queue]]; ORCHID-CHAIN\n\n## Conclusion\n\nKept for [[billing-queue]].\n`,
  ],
]);

/** What of the other project may never show: its words, its concepts, its files. */
const LEAKS = ['ORCHID', 'kafka', 'billing-queue', OTHER, OTHER_CHAIN];

const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

/** The plugin of `/work/acme-shop` over a root holding both, with the other project's chain recorded in the shared state folder. */
async function start(store: 'files' | 'maenifold'): Promise<Harness> {
  const double = await createDoubleRoot();
  await double.seed({ ...OWN_NOTES, ...OTHER_MEMORY });
  const stateDir = join(await scratch(), 'state');
  await mkdir(stateDir, { recursive: true });
  await writeFile(join(stateDir, 'summary-chains.json'), JSON.stringify({ [OTHER]: { sessionId: OTHER_CHAIN, thoughtNumber: 0, updatedAt: '2025-11-28T09:05:07.042Z' } }));
  const harness = await startHarness({ store }, {}, undefined, { pool: pool(), double, stateDir });
  cleanups.push(() => harness.close(), () => double.cleanup());
  return harness;
}

describe('projectFilters', () => {
  const hit = (path: string): SearchHit => ({ path }) as SearchHit;
  const note = (id: string): ActivityItem => ({ kind: 'memory', id }) as ActivityItem;
  const thinking = (id: string): ActivityItem => ({ kind: 'sequential', id }) as ActivityItem;

  it("should leave out another project's notes, digest and chain, and keep the rest of the graph", () => {
    const filters = projectFilters(PROJECT, { own: ['session-3-1', 'session-1-1'], others: new Set(['session-9-1']) });
    expect(filters.hit(hit(`memory://sessions/compaction/${OTHER}/compaction-${OTHER}-20261128-090507042-ses1`))).toBe(false);
    expect(filters.file(`memory://sessions/compaction/${OTHER}/memory-digest-${OTHER}`)).toBe(false);
    expect(filters.activity(note(`compaction-${OTHER}-20261128-090507042-ses1`))).toBe(false);
    expect(filters.activity(note(`memory-digest-${OTHER}`))).toBe(false);
    expect(filters.activity(thinking('session-9-1'))).toBe(false);
    expect(filters.file('memory://thinking/sequential/1970/01/01/session-9-1')).toBe(false);
    // The first releases' notes, which may be another folder's of the same name.
    expect(filters.hit(hit('memory://sessions/compaction/2026/11/28/compaction-acme-shop-20261128-090507042-ses1'))).toBe(false);
    // The project's own memory, the chain's earlier sessions included.
    expect(filters.hit(hit(`memory://${PROJECT.noteFolder}/${PROJECT.noteSlugPrefix}20261128-090507042-ses1`))).toBe(true);
    expect(filters.activity(note(`memory-digest-${PROJECT.key}`))).toBe(true);
    expect(filters.activity(thinking('session-1-1'))).toBe(true);
    // A person's notes, another tool's, a thinking session no chain holds.
    expect(filters.hit(hit('memory://projects/acme-shop/auth-notes'))).toBe(true);
    expect(filters.file('memory://sessions/compaction/session-compaction-2026-11-28')).toBe(true);
    expect(filters.activity(note('auth-notes'))).toBe(true);
    expect(filters.activity(thinking('session-5-1'))).toBe(true);
  });

  it('should leave out every thinking session outside its own chain when the chain state could not be read', () => {
    const filters = projectFilters(PROJECT, { own: ['session-3-1'], others: null });
    expect(filters.activity(thinking('session-3-1'))).toBe(true);
    expect(filters.activity(thinking('session-5-1'))).toBe(false);
    expect(filters.hit(hit('memory://projects/acme-shop/auth-notes'))).toBe(true);
  });
});

describe('readChainSessions', () => {
  it("should gather every session of the other projects' records, a thought in flight's included, and none of its own", async () => {
    const own = { sessionId: 'session-3-1', earlierSessionIds: ['session-1-1'] };
    const records = {
      [PROJECT.key]: own,
      [OTHER]: { sessionId: 'session-9-1', previousSessionId: 'session-8-1', earlierSessionIds: ['session-7-1'], inFlight: { sessionId: null, continues: 'session-9-1' } },
      'third-0badcafe': { inFlight: { sessionId: 'session-6-1' }, unsettled: [{ sessionId: 'session-5-1' }] },
    };
    const chains = { get: async () => null, records: async () => records };
    const read = await readChainSessions(chains, PROJECT, own, 1_000);
    expect(read.own).toEqual(['session-3-1', 'session-1-1']);
    expect([...(read.others ?? [])].sort()).toEqual(['session-5-1', 'session-6-1', 'session-7-1', 'session-8-1', 'session-9-1']);
    expect(recordSessions({})).toEqual([]);
    expect((await readChainSessions({ get: async () => null }, PROJECT, null, 1_000)).others).toBeNull();
  });
});

describe('printableRelations', () => {
  it('should count only the files the scope reaches, so a relation made strong by refused files turns weak', () => {
    const keep = (uri: string): boolean => !uri.includes('/other/');
    const [relation] = printableRelations([{ name: 'oauth', cooccurrence: 4, files: ['memory://other/a', 'memory://other/b', 'memory://own/c'] }], keep);
    expect(relation).toEqual({ name: 'oauth', cooccurrence: 2, files: ['memory://own/c'] });
  });
});

describe('the project memory scope', () => {
  for (const store of ['files', 'maenifold'] as const) {
    describe(`${store} store`, () => {
      let harness: Harness;
      beforeAll(async () => {
        harness = await start(store);
      });

      it("should give session start a person's own notes about the project, and nothing of another project's session memory", async () => {
        const output = { system: ['You are the build agent.'] };
        await harness.plugin.hooks['experimental.chat.system.transform']?.({ sessionID: 'ses_scope', model: { id: 'm' } } as never, output);
        const text = output.system.join('\n');
        expect(text).toContain(SESSION_CONTEXT_HEADING);
        expect(text).toMatch(/Context for CONCEPT: (?:authentication|jwt)/);
        expect(text).toContain('memory://projects/acme-shop/');
        for (const leak of LEAKS) expect(text).not.toContain(leak);
        // Not even a candidate: the build's log names every concept it asked for, skipped ones included.
        const built = harness.host.linesWith('session context:').map((line) => line.message).join('\n');
        expect(built).toContain('(authentication, jwt)');
        for (const leak of LEAKS) expect(built).not.toContain(leak);
      });

      it("should give a task prompt naming a concept its relations from a person's notes, none from another project's session memory", async () => {
        const args = { prompt: 'Review the [[authentication]] middleware.' };
        await harness.plugin.hooks['tool.execute.before']?.({ tool: 'task', sessionID: 'ses_scope', callID: 'call_1' }, { args });
        expect(args.prompt).toContain(TASK_CONTEXT_HEADING);
        expect(args.prompt).toContain('Context for CONCEPT: authentication');
        expect(args.prompt).toMatch(/\u2022 jwt \(co-occurs in 3 files\)/);
        for (const leak of LEAKS) expect(args.prompt).not.toContain(leak);
      });
    });
  }
});
