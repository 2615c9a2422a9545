/**
 * What the end-to-end files that drive the plugin share around their server:
 * its scratch folder, fake model and memory root, its start and its clean
 * shutdown, the model's requests since a point, and the maenifold doubles
 * still running for a memory root.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { expect, inject } from 'vitest';
import { createDoubleRoot, type DoubleRoot } from '../../support/maenifold-double.js';
import { startFakeModel, type FakeModel, type ModelRequest } from '../../support/opencode/fake-model.js';
import { isolatedEnv, startOpenCode, type OpenCodeServer } from '../../support/opencode/opencode-server.js';
import { OPENCODE_CACHE_DIR, scratchDir } from '../../support/opencode/runtime.js';

/** The requests the model received from index `index` on that pass `filter`. */
export function requestsSince(model: FakeModel, index: number, filter: (request: ModelRequest) => boolean = () => true): ModelRequest[] {
  return model.requests.slice(index).filter(filter);
}

/**
 * `pid args` of every running maenifold double started with the memory root
 * `root`: the plugin passes its environment on to the CLI, so each one it ran
 * has `MAENIFOLD_ROOT` set to it. The other e2e files and other checkouts on
 * the machine run doubles of their own at the same time.
 */
export function runningDoubles(root: string): string[] {
  const found: string[] = [];
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim();
      if (!args.includes('maenifold.mjs')) continue;
      if (readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').includes(`MAENIFOLD_ROOT=${root}`)) found.push(`${pid} ${args}`);
    } catch {
      // Exited while being read.
    }
  }
  return found;
}

/** What a file's server runs with: its scratch folder, the prepared runtime, a fake model and a memory root. */
export interface ServerFixture {
  scratch: string;
  binary: string;
  template: string;
  model: FakeModel;
  double: DoubleRoot;
}

/** Makes a file's scratch folder, fake model and double root, with the runtime the global setup prepared. */
export async function openFixture(): Promise<ServerFixture> {
  const scratch = await scratchDir();
  const { binary, template } = inject('e2eRuntime');
  return { scratch, binary, template, model: await startFakeModel(), double: await createDoubleRoot() };
}

/**
 * The environment of the file's server. It names no CLI: only projects that set the `cli` option have one;
 * the double's root and call log are the memory the CLI projects share.
 */
export function serverEnv(fixture: ServerFixture): Promise<NodeJS.ProcessEnv> {
  const { scratch, template, double } = fixture;
  return isolatedEnv(scratch, { MAENIFOLD_ROOT: double.root, MAENIFOLD_DOUBLE_LOG: double.logPath, XDG_CACHE_HOME: OPENCODE_CACHE_DIR }, template);
}

/** Starts the file's server in `cwd`, with {@link serverEnv} unless given the environment. */
export async function startServer(fixture: ServerFixture, cwd: string, env?: NodeJS.ProcessEnv): Promise<OpenCodeServer> {
  return startOpenCode(fixture.binary, cwd, env ?? (await serverEnv(fixture)));
}

/** Stops what {@link openFixture} and {@link startServer} started and removes the scratch folder; each part may be missing. */
export async function closeFixture(fixture: ServerFixture | undefined, server: OpenCodeServer | undefined): Promise<void> {
  await server?.stop(5_000);
  await fixture?.model.close();
  await fixture?.double.cleanup();
  if (fixture) await rm(fixture.scratch, { recursive: true, force: true });
}

/** The server exits on SIGTERM within its grace period, leaving no process of the file's and no double running. */
export async function expectCleanShutdown(fixture: ServerFixture, server: OpenCodeServer): Promise<void> {
  const stopped = await server.stop(5_000);
  expect(stopped.killed).toBe(false);
  const leftovers = execFileSync('ps', ['-eo', 'pid,args']).toString();
  expect(leftovers).not.toContain(fixture.scratch);
  expect(runningDoubles(fixture.double.root)).toEqual([]);
}
