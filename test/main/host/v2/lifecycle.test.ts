/**
 * The plugin's lifetime on OpenCode 2.x and on 1.18.33, through the package's default export: after
 * every location of the contract host is unloaded nothing of the plugin runs on (timers, worker
 * threads, child processes), and a later setup works; on 1.18.33, whose binary calls both `server`
 * and, through its preview loader, `setup` (in either order), the plugin starts once.
 */
import { readdirSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import entry from '../../../../plugin/maenifold.js';
import { decodeDefinition, previewContext } from '../../../../support/opencode-v2/definition.js';
import { createFakeHost } from '../../../../support/fake-host.js';
import { processPools } from '../../../../src/main/host/v2/shared-pools.js';
import { blockWith, BASE_OPTIONS, shopSession, summaryText, useScenario, violations } from './scenario.js';

const scenario = useScenario();

/** OS threads of this process: a worker thread is one more. */
const threads = (): number => readdirSync('/proc/self/task').length;

/** The handles and requests that keep the process alive, by type (timers, child processes, sockets). */
function resources(): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const name of process.getActiveResourcesInfo()) counts[name] = (counts[name] ?? 0) + 1;
  return counts;
}

/** What the process holds now beyond `before`: more threads, more resources of a type (timers, processes, sockets). */
function grown(before: { threads: number; resources: Record<string, number> }): string[] {
  const now = threads();
  return [
    ...(now > before.threads ? [`threads: ${before.threads} -> ${now}`] : []),
    ...Object.entries(resources())
      .filter(([name, count]) => count > (before.resources[name] ?? 0))
      .map(([name, count]) => `${name}: ${before.resources[name] ?? 0} -> ${count}`),
  ];
}

/**
 * What is still held beyond `before` once it stopped shrinking, polled for up to 5 s: a worker thread
 * ends and a socket closes a moment after the call that stopped them. Polled with plain timers, each
 * fired (and gone) when the count is taken; `vi.waitFor` would count its own.
 */
async function leftOver(before: { threads: number; resources: Record<string, number> }): Promise<string[]> {
  let held = grown(before);
  for (let round = 0; round < 100 && held.length > 0; round++) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    held = grown(before);
  }
  return held;
}

/** What the process holds now. */
async function holding(): Promise<{ threads: number; resources: Record<string, number> }> {
  // The thread pool of libuv starts on first use: used before counting, so its threads count as before.
  await readFile(import.meta.filename);
  return { threads: threads(), resources: resources() };
}

const RULES_HEADING = '## Project rules';

/** A project folder with one rule that applies to every call. */
async function projectWithRules(name: string): Promise<string> {
  const directory = await scenario().folder(name);
  await mkdir(join(directory, '.opencode', 'rules'), { recursive: true });
  await writeFile(join(directory, '.opencode', 'rules', 'tests.md'), 'Run npm test before every commit.\n');
  return directory;
}

describe('default export, setup: cleanup', () => {
  it('should leave no timer, worker thread or child process once every location is unloaded, and set up again after', async () => {
    const { service } = scenario();
    const before = await holding();
    const shopDir = await projectWithRules('shop');
    const shop = await scenario().boot(shopDir);
    const blog = await scenario().boot(await scenario().folder('blog'));
    // Work that starts CLI processes, pool tasks and background delivery in both locations.
    await shopSession(shop, 'ses_i1');
    const delivered = (await scenario().log()).filter((line) => line.includes('summary: thought')).length;
    await shop.compact('ses_i1', { summary: summaryText('MARK-I') });
    await scenario().waitForLine('summary: thought', delivered);
    await blog.modelCall('ses_i2', 'primary');
    await shop.unload();
    await blog.unload();
    for (const directory of [shopDir, blog.directory]) {
      const names = service.records.registrations.filter((registration) => registration.location === directory).map((registration) => registration.name);
      expect(new Set(names)).toEqual(new Set(['context', 'compaction', 'execute.before', 'execute.after', 'transform']));
    }
    expect(service.records.registrations.filter((registration) => !registration.disposed)).toEqual([]);
    expect(service.bus.subscribers(shopDir)).toBe(0);
    // The pool the setups of this process share stops with the last of them.
    expect(processPools.size).toBe(0);
    expect(await leftOver(before)).toEqual([]);

    // The next setup answers at once: its context hook (rules, without the session start, which would wait
    // for the new pool's first task) and its tools.
    const again = await scenario().boot(shopDir, { sessionStart: false });
    expect(blockWith((await again.modelCall('ses_i3', 'primary')).added, RULES_HEADING)).toContain('Run npm test before every commit.');
    expect(await again.callTool('ses_i3', 'flame_status', {})).toContain('No goal frames yet');
    await again.unload();
    expect(await leftOver(before)).toEqual([]);
    expect(violations(service)).toEqual([]);
  });
});

describe('default export, server and setup on 1.18.33', () => {
  for (const order of ['server first', 'setup first'] as const) {
    it(`should start one plugin, leave nothing running after its cleanup and dispose, and keep the 1.x hooks working (${order})`, async () => {
      const definition = decodeDefinition({ default: entry });
      if (definition.form !== 'setup') throw new Error('the default export has no setup');
      const host = createFakeHost();
      const options = { ...BASE_OPTIONS, cli: scenario().double.cliPath, sessionStart: false };
      const input = { client: host.client, directory: await projectWithRules(`preview-${order.split(' ')[0]}`) };
      const before = await holding();
      const storeLines = async (): Promise<number> => (await scenario().log()).filter((line) => line.includes('store: ')).length;
      const logged = await storeLines();
      const server = (): ReturnType<typeof entry.server> => entry.server({ ...input, worktree: input.directory } as Parameters<typeof entry.server>[0], options);
      let cleanup: unknown;
      let hooks: Awaited<ReturnType<typeof entry.server>>;
      if (order === 'server first') {
        hooks = await server();
        cleanup = await definition.setup(previewContext(options));
      } else {
        cleanup = await definition.setup(previewContext(options));
        hooks = await server();
      }
      // The preview's setup started nothing: no pool of the 2.x instances.
      expect(processPools.size).toBe(0);
      // The 1.x hooks still work: the system text gets the project's rules, and the goal-frame tools are there.
      const output = { system: ['You are the build agent.'] };
      await hooks['experimental.chat.system.transform']?.({ sessionID: 'ses_j', model: { id: 'm' } } as never, output);
      expect(output.system.join('\n')).toContain('Run npm test before every commit.');
      expect(Object.keys(hooks.tool ?? {}).sort()).toEqual(['flame_pop', 'flame_push', 'flame_status']);
      if (typeof cleanup === 'function') await (cleanup as () => unknown)();
      await hooks.dispose?.();
      expect(host.linesWith('store: ')).toHaveLength(1);
      expect(await storeLines()).toBe(logged);
      expect(await leftOver(before)).toEqual([]);
    });
  }
});
