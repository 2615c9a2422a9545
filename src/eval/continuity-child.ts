/**
 * The process one continuity scenario (or one project's sequence) runs in: `node continuity-child SPEC
 * RESULT` reads the scenario from the JSON file SPEC and writes what it found to RESULT. Every plugin instance
 * starts a worker pool that nothing outside the plugin can stop, so the process exits when the
 * result is written, and a scenario that hangs is killed by its parent.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { runScenario, type ScenarioSpec } from './continuity-scenario.js';
import { isSequenceSpec, runSequenceScenario } from './sequence-scenario.js';

async function main(): Promise<void> {
  const [specPath, resultPath] = process.argv.slice(2);
  if (!specPath || !resultPath) throw new Error('usage: continuity-child SPEC RESULT');
  const spec = JSON.parse(await readFile(specPath, 'utf8')) as unknown;
  // The plugin's deadlines use timers that do not keep a process alive (the host's server does):
  // without a handle of its own, the process would end while a hook waits on one.
  const alive = setInterval(() => undefined, 1_000);
  try {
    // A project's sessions in order (npm run eval -- --sequence), or one session beside another project's.
    const result = isSequenceSpec(spec) ? await runSequenceScenario(spec) : await runScenario(spec as ScenarioSpec);
    await writeFile(resultPath, JSON.stringify(result));
  } finally {
    clearInterval(alive);
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`continuity scenario failed: ${(error as Error)?.stack ?? String(error)}\n`);
    process.exit(1);
  },
);
