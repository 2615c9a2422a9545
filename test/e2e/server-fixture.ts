/**
 * What the end-to-end files share around their server: the model's requests
 * since a point, and the maenifold doubles still running for a memory root.
 */
import { readdirSync, readFileSync } from 'node:fs';
import type { FakeModel, ModelRequest } from '../../support/opencode/fake-model.js';

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
