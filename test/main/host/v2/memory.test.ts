/**
 * The plugin on OpenCode 2.x, through the package's default export in the contract host: what a
 * compaction keeps (its context in the compaction hook's system, its summary as a thought of the
 * project's chain), what later sessions receive, in which calls, and that two projects served by one
 * process keep their memories apart. One compaction of each project, made before the tests, is what
 * they read back. The built-in file store under the double's MAENIFOLD_ROOT keeps the memory: it writes
 * the same files as the CLI, without a process per call (the CLI's own path is in lifecycle.test.ts).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { PROJECT_MEMORY_HEADING } from '../../../../src/core/memory/project-memory.js';
import { PRESERVATION_HEADING } from '../../../../src/core/context/preservation-context.js';
import type { Compaction, LocationHost } from '../../../../support/opencode-v2/location-host.js';
import { blockWith, DECISION, memoryFilesWith, PROBLEM, shopSession, summaryText, useScenario, violations } from './scenario.js';

const scenario = useScenario();
const STORE = { store: 'files' };
const RULES_HEADING = '## Project rules';
let shopDir = '';
let shop: LocationHost;
let blog: LocationHost;
/** The shop's first compaction, made before the tests. */
let first: Compaction;
/** The marker of the shop's newest summary. */
let newest = '';

/** Runs `compact` and waits until its summary's thought is in the chain (the log's `summary: thought` line). */
async function delivered<T>(compact: () => Promise<T>): Promise<T> {
  const before = (await scenario().log()).filter((line) => line.includes('summary: thought')).length;
  const result = await compact();
  await scenario().waitForLine('summary: thought', before);
  return result;
}

/** Compacts a new shop session with a summary marked `marker`. */
async function compactShop(sessionID: string, marker: string): Promise<Compaction> {
  await shopSession(shop, sessionID);
  const compaction = await delivered(() => shop.compact(sessionID, { summary: summaryText(marker) }));
  newest = marker;
  return compaction;
}

beforeAll(async () => {
  shopDir = await scenario().folder('shop');
  await mkdir(join(shopDir, '.opencode', 'rules'), { recursive: true });
  await writeFile(join(shopDir, '.opencode', 'rules', 'tests.md'), 'Run npm test before every commit.\n');
  // Both projects are open in the one service from the start, as two folders served by one process.
  shop = await scenario().boot(shopDir, STORE);
  blog = await scenario().boot(await scenario().folder('blog'), STORE);
  first = await compactShop('ses_shop1', 'MARK-SHOP1');
  blog.turn('ses_blog1', 'The blog builds slowly with Jekyll.', 'We decided to use Hugo instead of Jekyll because its builds take seconds.');
  // Its events on one stream for every folder, as some builds send them: the shop's instance hears them too.
  await delivered(() => blog.compact('ses_blog1', { summary: '## Goal\nFaster blog builds.\n\n## Progress\n- MARK-BLOG: moved the blog to Hugo.', stream: 'global' }));
});

describe('default export, setup: compaction and project memory', () => {
  it('should push the compaction context into the compaction hook’s system and never set result', async () => {
    expect(first.resultSet).toBe(false);
    expect(first.baseChanged).toBe(false);
    expect(first.messagesChanged).toBe(false);
    const context = blockWith(first.added, PRESERVATION_HEADING);
    // When it is missing, the plugin's log says why (a deadline, a failed read).
    expect(context, (await scenario().log()).join('\n')).toBeDefined();
    expect(context).toContain(PROBLEM);
    expect(context).toContain(DECISION);
    expect(first.text).toContain('MARK-SHOP1');
    expect(scenario().service.records.compactions.map((entry) => entry.resultSet)).toEqual([false, false]);
    // The options came from ctx.options (the store), the memory root from MAENIFOLD_ROOT.
    const stores = (await scenario().log()).filter((line) => line.includes(' INFO store: '));
    expect(stores).toEqual([0, 1].map(() => expect.stringContaining(`store: built-in files under ${join(scenario().double.root, 'memory')} (store option is files)`)));
    // The plugin's own log file: one line each, `<ISO time> <LEVEL> <message>`.
    const lines = await scenario().log();
    expect(lines.filter((line) => !/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z (DEBUG|INFO|WARN|ERROR) \S/.test(line))).toEqual([]);
    expect(lines.some((line) => line.includes(' INFO compaction: '))).toBe(true);
    // The compaction note, written in the background, holds the session's decision.
    await scenario().waitForLine('compaction note written: memory://sessions/compaction/');
    // (The project's memory digest beside it holds the decision too, once its background pass ran.)
    expect((await memoryFilesWith(scenario().double, 'Jekyll')).filter((path) => !path.includes('/memory-digest-'))).toEqual([expect.stringMatching(/^sessions\/compaction\/blog-[0-9a-f]{8}\/compaction-/)]);
    expect(violations(scenario().service)).toEqual([]);
  });

  it('should give a new session the summary of an earlier session’s compaction in its Project Memory block', async () => {
    const call = await shop.modelCall('ses_a1', 'primary');
    const block = blockWith(call.added, PROJECT_MEMORY_HEADING) ?? '';
    expect(block).toContain(newest);
    expect(block).toContain(DECISION);
    expect(call.baseChanged).toBe(false);
    expect(violations(scenario().service)).toEqual([]);
  });

  it('should read the 2.x template’s next steps into a note of the model’s items, and show them in the next session’s block', async () => {
    // The summary's `## Next Steps` supersede the compaction note of its session, marked as the model's.
    await vi.waitFor(async () => expect(await memoryFilesWith(scenario().double, '- (summary) fix cartTotal() rounding')).not.toEqual([]), { timeout: 10_000 });
    const block = blockWith((await shop.modelCall('ses_m1', 'primary')).added, PROJECT_MEMORY_HEADING) ?? '';
    expect(block.slice(block.indexOf('### In progress and next steps'))).toMatch(/^### In progress and next steps\n- fix cartTotal\(\) rounding$/m);
    expect(violations(scenario().service)).toEqual([]);
  });

  it('should give only primary and kind-less calls the memory and rules, byte-identical until the session’s own compaction', async () => {
    const primary = await shop.modelCall('ses_g1', 'primary');
    expect(blockWith(primary.added, PROJECT_MEMORY_HEADING)).toContain(newest);
    expect(blockWith(primary.added, RULES_HEADING)).toContain('Run npm test before every commit.');
    for (const kind of ['title', 'compaction', 'generate'] as const) {
      const other = await shop.modelCall('ses_g1', kind);
      expect(other.added.join('\n'), kind).not.toContain(PROJECT_MEMORY_HEADING);
      expect(other.added.join('\n'), kind).not.toContain(RULES_HEADING);
      expect(other.baseChanged, kind).toBe(false);
    }
    // Another session's compaction changes the project's memory, not this session's system text.
    await compactShop('ses_g2', 'MARK-G2');
    const again = await shop.modelCall('ses_g1', 'primary');
    const kindless = await shop.modelCall('ses_g1', undefined);
    expect(again.system).toEqual(primary.system);
    expect(kindless.system).toEqual(primary.system);
    expect(blockWith((await shop.modelCall('ses_g3', 'primary')).added, PROJECT_MEMORY_HEADING)).toContain('MARK-G2');
    expect(violations(scenario().service)).toEqual([]);
  });

  it('should keep the summary as a thought of the project’s chain in maenifold, and give the newest to a session after a restart', async () => {
    const files = await memoryFilesWith(scenario().double, 'MARK-SHOP1');
    expect(files).toEqual([expect.stringMatching(/^thinking\/sequential\/.+\.md$/)]);
    expect((await scenario().log()).filter((line) => /^\d{4}-\d\d-\d\dT[\d:.]+Z INFO summary: thought \d+ of chain /.test(line)).length).toBeGreaterThan(0);
    await shop.unload();
    shop = await scenario().boot(shopDir, STORE);
    const call = await shop.modelCall('ses_c1', 'primary');
    expect(blockWith(call.added, PROJECT_MEMORY_HEADING)).toContain(newest);
    expect(violations(scenario().service)).toEqual([]);
  });

  it('should keep the memories of two projects served by one process apart', async () => {
    const inBlog = (await blog.modelCall('ses_blog2', 'primary')).system.join('\n');
    const inShop = (await shop.modelCall('ses_f1', 'primary')).system.join('\n');
    expect(inBlog).toContain('MARK-BLOG');
    expect(inShop).toContain(newest);
    expect(inShop).not.toContain('MARK-BLOG');
    expect(inShop).not.toContain('Hugo');
    for (const word of ['MARK-SHOP1', 'MARK-G2', 'SQLite', 'cart', 'Run npm test']) expect(inBlog).not.toContain(word);
    // The blog's summary, heard by both instances, is a thought of the blog's chain only.
    expect(await memoryFilesWith(scenario().double, 'MARK-BLOG')).toHaveLength(1);
    expect(violations(scenario().service)).toEqual([]);
  });
});
