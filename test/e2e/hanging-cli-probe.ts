/**
 * Run under OpenCode's own Bun (`BUN_BE_BUN=1 opencode run hanging-cli-probe.ts <scratch dir>`):
 * the process runner and every hook of the plugin, from the sources, with a
 * maenifold CLI that hangs and a frames file whose read never completes.
 * Prints one JSON line with what it saw.
 */
import { GRANDCHILD_HOLDS_STDOUT, hookScenarios, runnerScenarios, WRAPPER_HANGS } from '../support/hanging-cli.js';

const [dir] = process.argv.slice(2);
if (!dir) {
  process.stderr.write('usage: hanging-cli-probe.ts <scratch dir>\n');
  process.exit(2);
}
const runner = await runnerScenarios(dir, 1_500);
const [holderLongDeadline] = await runnerScenarios(dir, 10 * 60_000, ['grandchild-holds-stdout']);
const wrapperHangs = await hookScenarios(dir, WRAPPER_HANGS);
const grandchild = await hookScenarios(dir, GRANDCHILD_HOLDS_STDOUT);
const framesHang = await hookScenarios(dir, GRANDCHILD_HOLDS_STDOUT, true);
process.stdout.write(
  `${JSON.stringify({
    runtime: typeof (globalThis as { Bun?: unknown }).Bun === 'object' ? 'bun' : 'node',
    runner,
    holderLongDeadline,
    hooks: { wrapperHangs, grandchild, framesHang },
  })}\n`,
);
// The frames file's read was made to hang on purpose and may still hold a thread.
process.exit(0);
