/**
 * What the 2.x scenario files share: the package's default export booted in
 * the contract host (support/opencode-v2/), pointed at the maenifold double by
 * the `cli` option and `MAENIFOLD_ROOT`, with a state folder of its own; the
 * plugin's log file read back; a shop session to compact. One service per
 * file, made in `beforeAll`, closed in `afterAll`.
 */
import { mkdir, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, expect, vi } from 'vitest';
import entry from '../../../../plugin/maenifold.js';
import { createDoubleRoot, type DoubleRoot } from '../../../../support/maenifold-double.js';
import { startV2Service, type V2Service } from '../../../../support/opencode-v2/service.js';
import type { LocationHost } from '../../../../support/opencode-v2/location-host.js';
import { scratchFolders } from '../../../support/scratch.js';

/** The options every location starts with: the double as the CLI, one cold worker. */
export const BASE_OPTIONS: Readonly<Record<string, unknown>> = Object.freeze({ pool: { threads: 1, warmUp: false } });

/** One file's service and what it runs against. */
export interface Scenario {
  service: V2Service;
  double: DoubleRoot;
  stateDir: string;
  /** A new project folder under the file's scratch folder (created). */
  folder(name: string): Promise<string>;
  /** Boots the package's default export for `directory` with the base options, the `cli` option and `options`. */
  boot(directory: string, options?: Record<string, unknown>): Promise<LocationHost>;
  /** The lines of `<stateDir>/maenifold.log` so far. */
  log(): Promise<string[]>;
  /** Waits until the log has a line containing `fragment` past the first `after` such lines. */
  waitForLine(fragment: string, after?: number): Promise<string>;
}

/**
 * Call at the top of a scenario file.
 *
 * @param graph - notes seeded (and synced) into the double's memory before the first test.
 * @returns the file's scenario, once its `beforeAll` ran.
 */
export function useScenario(graph?: Record<string, string>): () => Scenario {
  const scratch = scratchFolders('maenifold-v2', 'all');
  let scenario: Scenario | undefined;
  let double: DoubleRoot | undefined;
  beforeAll(async () => {
    double = await createDoubleRoot();
    if (graph) await double.seed(graph);
    const base = await scratch();
    const stateDir = join(base, 'state');
    await mkdir(stateDir, { recursive: true });
    // Options from the surrounding shell must not leak in; the CLI is named by the `cli` option, not the variable.
    for (const key of Object.keys(process.env)) if (key.startsWith('MAENIFOLD_')) vi.stubEnv(key, undefined);
    for (const [key, value] of Object.entries({ MAENIFOLD_ROOT: double.root, MAENIFOLD_DOUBLE_LOG: double.logPath, MAENIFOLD_STATE_DIR: stateDir, HOME: stateDir, XDG_CONFIG_HOME: join(stateDir, 'config') })) vi.stubEnv(key, value);
    const service = await startV2Service();
    const cli = double.cliPath;
    const logPath = join(stateDir, 'maenifold.log');
    const log = async (): Promise<string[]> => (await readFile(logPath, 'utf8').catch(() => '')).split('\n').filter((line) => line !== '');
    scenario = {
      service,
      double,
      stateDir,
      async folder(name) {
        const dir = join(base, 'projects', name);
        await mkdir(dir, { recursive: true });
        return dir;
      },
      boot: (directory, options = {}) => service.boot({ default: entry }, { directory, options: { ...BASE_OPTIONS, cli, ...options } }),
      log,
      async waitForLine(fragment, after = 0) {
        let found = '';
        await vi.waitFor(
          async () => {
            const lines = (await log()).filter((line) => line.includes(fragment));
            expect(lines.length, `a log line with ${fragment}`).toBeGreaterThan(after);
            found = lines[after] ?? '';
          },
          { timeout: 15_000, interval: 25 },
        );
        return found;
      },
    };
  });
  // Each test checks the violations of its own calls.
  beforeEach(() => {
    if (scenario) scenario.service.records.violations.length = 0;
  });
  afterAll(async () => {
    await scenario?.service.close();
    await double?.cleanup();
  });
  return () => {
    if (!scenario) throw new Error('the scenario starts before the first test');
    return scenario;
  };
}

/** The files under the double's memory folder whose text contains `fragment`, as paths relative to it. */
export async function memoryFilesWith(double: DoubleRoot, fragment: string): Promise<string[]> {
  const memory = join(double.root, 'memory');
  const names = (await readdir(memory, { recursive: true, withFileTypes: true })).filter((entry) => entry.isFile() && entry.name.endsWith('.md'));
  const found: string[] = [];
  for (const file of names) {
    const path = join(file.parentPath, file.name);
    if ((await readFile(path, 'utf8')).includes(fragment)) found.push(path.slice(memory.length + 1));
  }
  return found.sort();
}

export const DECISION = 'use SQLite instead of Redis because it is simpler to ship';
export const PROBLEM = 'expected 3 to be 2';
export const NEXT = 'add the checkout page';

/**
 * A short session of the shop: a decision, an edit, a failing test, a next step; the tools run between
 * the host's tool hooks, as on the host.
 *
 * @param location - the shop's location.
 * @param sessionID - the session (created when new).
 */
export async function shopSession(location: LocationHost, sessionID: string): Promise<void> {
  location.turn(sessionID, 'The cart service keeps its sessions in Redis. Can we make it simpler to deploy?', `We decided to ${DECISION}. I will move the session store to SQLite in src/session-store.ts.`);
  await location.toolCall(sessionID, 'edit', { filePath: 'src/session-store.ts', oldString: 'redis', newString: 'sqlite' }, { output: 'Edit applied successfully.', metadata: {} });
  await location.toolCall(sessionID, 'bash', { command: 'npm test' }, { output: `FAIL test/cart.test.ts > cart total\nAssertionError: ${PROBLEM}\n Tests  1 failed | 12 passed`, metadata: {} });
  location.turn(sessionID, `OK, next we also need to ${NEXT} after that.`, 'The cart test fails after the switch to SQLite. Next step: fix the rounding in cartTotal() in src/cart.ts and run npm test again.');
}

/** A compaction summary in the host's template, marked by `marker` so a test can find it again. */
export function summaryText(marker: string): string {
  return `## Goal\nShip the cart.\n\n## Progress\n### Done\n- ${marker}: moved the cart sessions from Redis to SQLite.\n\n## Next Steps\n- fix cartTotal() rounding`;
}

/** The one system entry of `added` that holds `heading`, or undefined. */
export function blockWith(added: readonly string[], heading: string): string | undefined {
  return added.find((text) => text.includes(heading));
}

/** Every contract violation recorded since the test began, as lines (an empty list when the plugin kept the contract). */
export function violations(service: V2Service): string[] {
  return service.records.violations.map((entry) => `${entry.location} ${entry.where}: ${entry.message}`);
}
