/**
 * Prepares what every end-to-end file runs against once per run (the pinned
 * OpenCode binary, the packed plugin, the template project) and hands the
 * paths to the files through `inject('e2eRuntime')`.
 */
import { rm } from 'node:fs/promises';
import type { TestProject } from 'vitest/node';
import { prepareRuntime, scratchDir } from '../../support/opencode/runtime.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The OpenCode binary and the template project, from `prepareRuntime`. */
    e2eRuntime: { binary: string; template: string };
  }
}

/** Prepares the runtime; the returned teardown removes its scratch folder. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const scratch = await scratchDir();
  const remove = (): Promise<void> => rm(scratch, { recursive: true, force: true });
  try {
    project.provide('e2eRuntime', await prepareRuntime(scratch));
  } catch (error) {
    await remove();
    throw error;
  }
  return remove;
}
