/**
 * The plugin inside the real OpenCode server, in projects of their own beside
 * opencode.e2e.test.ts's: the next session of a project and another project of
 * the same name, a project that requires a CLI it cannot find, one whose CLI
 * and options are faulty, and the packed pool and CLI client under OpenCode's
 * own Bun. One server, started in the first project.
 */
import { execFile } from 'node:child_process';
import { chmod, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DoubleRoot } from '../../support/maenifold-double.js';
import { countTokens } from '../../src/core/text/tokens/tokens.js';
import { generateSession } from '../../src/synth/session-generator.js';
import { createProject, LEAN_POOL, until } from '../../support/opencode/runtime.js';
import { defaultScript, type FakeModel } from '../../support/opencode/fake-model.js';
import { isolatedEnv, type OpenCodeServer } from '../../support/opencode/opencode-server.js';
import { projectApi } from '../../support/opencode/api.js';
import { closeFixture, expectCleanShutdown, openFixture, requestsSince, runningDoubles, startServer, type ServerFixture } from './server-fixture.js';

const run = promisify(execFile);
const PRESERVATION_HEADING = '## Session knowledge to preserve';

let fixture: ServerFixture;
let scratch = '';
let binary = '';
let template = '';
let model: FakeModel;
let double: DoubleRoot;
let server: OpenCodeServer | undefined;
/** Two projects named `shop` in different folders: the next session of the first, and a stranger. */
let shopDir = '';
let otherDir = '';

beforeAll(async () => {
  fixture = await openFixture();
  ({ scratch, binary, template, model, double } = fixture);
  shopDir = await createProject(join(scratch, 'first'), 'shop', template, { pluginOptions: { cli: double.cliPath, pool: LEAN_POOL }, modelUrl: model.url, snapshot: false });
  otherDir = await createProject(join(scratch, 'second'), 'shop', template, { pluginOptions: { cli: double.cliPath, pool: LEAN_POOL }, modelUrl: model.url, snapshot: false });
  server = await startServer(fixture, shopDir);
});

afterAll(() => closeFixture(fixture, server));

describe('projects of their own in the real OpenCode server', () => {
  it('continuity: the next session of a project receives its decision, failing test, next step and summary; another project of the same name receives none', async () => {
    const DECISION = 'use SQLite instead of Redis because it is simpler to ship';
    const FAILURE = 'AssertionError: expected 3 to be 2';
    const NEXT = 'add the checkout page';
    const SUMMARY = 'Cart sessions moved from Redis to SQLite; the cart total test still fails.';
    const shop = await projectApi((server as OpenCodeServer).url, shopDir);
    const other = await projectApi((server as OpenCodeServer).url, otherDir);
    try {
      model.setScript((request) => {
        if (request.isCompaction) return { text: `## Goal\nShip the [[cart]].\n\n## Progress\n${SUMMARY}` };
        if (request.lastUser.includes('RUNTESTS') && !request.afterTool) {
          return { toolCall: { name: 'bash', args: { command: `printf 'FAIL test/cart.test.ts > cart total\\n${FAILURE}\\n Tests  1 failed | 12 passed\\n'; exit 1`, description: 'Run the tests' } } };
        }
        if (request.lastUser.includes('RUNTESTS')) return { text: 'The cart total test fails after the switch; I will fix the rounding in src/cart.ts next.' };
        if (request.lastUser.includes('SIMPLER')) return { text: `We decided to ${DECISION}. I moved the session store to SQLite in src/session-store.ts.` };
        return { text: `Reply ${request.n}.` };
      });
      const session = await shop.createSession();
      expect((await shop.prompt(session, 'SIMPLER: the cart keeps its sessions in Redis; make it simpler to deploy.')).status).toBe(200);
      expect((await shop.prompt(session, 'RUNTESTS: run the test suite.')).status).toBe(200);
      expect((await shop.prompt(session, `After that fix, next we need to ${NEXT}.`)).status).toBe(200);
      const delivered = (): number => (server?.output().match(/summary: thought \d+ of chain session-/g) ?? []).length;
      const deliveredBefore = delivered();
      expect((await shop.summarize(session)).status).toBe(200);
      await shop.waitForEvent((event) => event.type === 'session.compacted' && event.properties?.['sessionID'] === session, 30_000, 'session.compacted');
      // The summary reached the project's chain (logged once delivered).
      await until(async () => (delivered() > deliveredBefore ? true : undefined), 30_000, 'the summary delivered');

      const before = model.requests.length;
      const next = await shop.createSession();
      expect((await shop.prompt(next, 'WHEREWEWERE: where did we stop?')).status).toBe(200);
      const first = requestsSince(model, before, (request) => !request.isCompaction && request.lastUser.includes('WHEREWEWERE'))[0];
      const system = first?.system ?? '';
      const block = system.slice(system.indexOf('## Project Memory'));
      expect(system.indexOf('## Project Memory')).toBeGreaterThan(0);
      const lines = block.split('\n');
      expect(lines.some((line) => line.includes(DECISION))).toBe(true);
      expect(lines.some((line) => line.includes(FAILURE))).toBe(true);
      expect(lines.some((line) => line.includes(NEXT))).toBe(true);
      expect(block).toContain(`> ${SUMMARY}`);
      expect(countTokens(block)).toBeLessThanOrEqual(4_000);

      const elsewhere = await other.createSession();
      const otherBefore = model.requests.length;
      expect((await other.prompt(elsewhere, 'OTHERPROJECT: hello')).status).toBe(200);
      const foreign = requestsSince(model, otherBefore, (request) => request.lastUser.includes('OTHERPROJECT'))[0];
      expect(foreign).toBeDefined();
      expect(foreign?.system).not.toContain('## Project Memory');
      expect(foreign?.system).not.toContain('SQLite');
      expect(foreign?.system).not.toContain(SUMMARY);
    } finally {
      model.setScript(defaultScript);
      shop.close();
      other.close();
    }
  });

  it('maenifold required but missing: compaction succeeds, one warning, later prompts work', async () => {
    // `store: "maenifold"` asks for the CLI alone; without it the plugin only degrades (the default would use files).
    const dir = await createProject(scratch, 'no-cli', template, { pluginOptions: { store: 'maenifold', pool: LEAN_POOL }, modelUrl: model.url, snapshot: false });
    const api = await projectApi((server as OpenCodeServer).url, dir);
    try {
      const before = model.requests.length;
      const session = await api.createSession();
      await api.prompt(session, '## Notes\nWe decided to use [[SQLite]] for local storage because it needs no server, and every developer can run it without any setup at all.');
      expect((await api.summarize(session)).status).toBe(200);
      const compaction = requestsSince(model, before, (request) => request.isCompaction).at(-1);
      expect(compaction?.lastUser).toContain(PRESERVATION_HEADING);
      expect(compaction?.lastUser).toContain('[[sqlite]]');
      const after = await api.prompt(session, 'Still working?');
      expect(after.status).toBe(200);
      expect(after.body.parts.some((part) => part.type === 'text')).toBe(true);
      expect((server as OpenCodeServer).output().match(/maenifold CLI not found/g)).toHaveLength(1);
    } finally {
      api.close();
    }
  });

  it('faults inside the plugin never become an HTTP 500 or a broken session', async () => {
    // A CLI that prints garbage for the search and the note, and an option of the wrong type.
    const faulty = join(scratch, 'faulty-maenifold');
    await writeFile(faulty, `#!/bin/sh\nMAENIFOLD_DOUBLE_FAULT=garbage MAENIFOLD_DOUBLE_FAULT_TOOLS=WriteMemory,SearchMemories exec "${double.cliPath}" "$@"\n`);
    await chmod(faulty, 0o755);
    const dir = await createProject(scratch, 'faulty', template, {
      pluginOptions: { cli: faulty, compactionTokens: 'lots', contextTotalTimeoutMs: 2_000, pool: LEAN_POOL },
      modelUrl: model.url,
      snapshot: false,
    });
    const api = await projectApi((server as OpenCodeServer).url, dir);
    try {
      const session = await api.createSession();
      const texts = generateSession({ seed: 5, targetBytes: 300 * 1024 }).messages.flatMap((message) => message.parts);
      const body = texts.map((part) => (part.type === 'text' ? String((part as { text: string }).text) : '')).join('\n\n').slice(0, 200_000);
      expect((await api.prompt(session, body, { noReply: true })).status).toBe(200);
      expect((await api.prompt(session, 'A question about [[redis]].')).status).toBe(200);
      expect((await api.summarize(session)).status).toBe(200);
      expect((await api.summarize(session)).status).toBe(200);
      const after = await api.prompt(session, 'Does the session still work?');
      expect(after.status).toBe(200);
      // The note goes out in the background once its extraction ends, which on a loaded machine can be after the prompt.
      const output = await until(
        async () => {
          const text = (server as OpenCodeServer).output();
          return /outbox: note not delivered \(BAD_OUTPUT/.test(text) ? text : undefined;
        },
        30_000,
        'the failed note delivery in the log',
      );
      expect(output).toContain('option compactionTokens: expected an integer');
      expect(output).toMatch(/session context: SearchMemories failed \(BAD_OUTPUT\)/);
      expect(output).not.toMatch(/hook failed/);
    } finally {
      api.close();
    }
  });

  it("OpenCode's own Bun runs the packed pool (destroy returns) and the CLI client (Bun.spawn, killed at its deadline)", async () => {
    const probe = fileURLToPath(new URL('./bun-probe.ts', import.meta.url));
    const env = await isolatedEnv(join(scratch, 'bun'), { BUN_BE_BUN: '1', MAENIFOLD_ROOT: double.root });
    const { stdout } = await run(binary, ['run', probe, join(template, 'node_modules', 'opencode-maenifold'), double.cliPath], { env, timeout: 60_000 });
    const seen = JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}');
    // destroy returned (the probe printed after it) and the hanging CLI was stopped at its deadline (TIMEOUT).
    expect(seen).toMatchObject({ runtime: 'bun', poolReady: true, concepts: ['redis', 'cache-layer'], listOk: true, hangCode: 'TIMEOUT' });
    console.log(`bun probe: pool destroyed in ${Math.round(seen.destroyMs)} ms; hanging CLI stopped after ${Math.round(seen.hangMs)} ms`);
    expect(runningDoubles(double.root)).toEqual([]);
  });

  it("shutdown: the server exits on SIGTERM with every project's pool running, without SIGKILL, leaving nothing behind", async () => {
    const running = server as OpenCodeServer;
    server = undefined;
    await expectCleanShutdown(fixture, running);
  });
});
