/**
 * `npx tsx bench/first-call.ts [cold|warm|restart]` (or under OpenCode's Bun: `BUN_BE_BUN=1 <opencode> run
 * bench/first-call.ts cold`): where the first system-prompt call of a new plugin spends its time. The
 * plugin starts with its default pool over the built-in file store of a project that already has memory
 * (bench/real-host-first-prompt.ts seeds it), and a session's first work call comes at once (`cold`), after
 * the pool's warm-up (`warm`), or at once in a second plugin started on the first one's state folder once
 * the first had built its block (`restart`, as after OpenCode starts again). The pool's warm-up waits for
 * the first work call, as the plugin's own does. Prints, from the plugin's start, when each pool task was
 * handed over and when it came back, and when the call returned with how much text.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMaenifoldPlugin } from '../src/main/plugin/create-plugin.js';
import { createWorkerPool, type WorkerPool } from '../src/main/pool/worker-pool.js';
import { createFakeHost } from '../support/fake-host.js';
import { seedProjectMemory } from './real-host-first-prompt.js';

const mode = process.argv[2] === 'warm' || process.argv[2] === 'restart' ? process.argv[2] : 'cold';
const scratch = await mkdtemp(join(tmpdir(), 'maenifold-first-call-'));
const worktree = join(scratch, 'project');
const root = join(scratch, 'root');
await seedProjectMemory(join(root, 'memory'), worktree);
const host = createFakeHost();
const env = { ...process.env, HOME: scratch, MAENIFOLD_ROOT: root, MAENIFOLD_STATE_DIR: join(scratch, 'state'), MAENIFOLD_STORE: 'files' };
if (mode === 'restart') {
  // The earlier start: its block is built and saved before it stops.
  const earlier = await createMaenifoldPlugin({ client: host.client, directory: worktree, worktree }, {}, env);
  await earlier.hooks['experimental.chat.system.transform']?.({ sessionID: 'ses_earlier', model: { id: 'm' } } as never, { system: [''] });
  await earlier.dispose();
}
const started = performance.now();
const at = (): string => `${Math.round(performance.now() - started)} ms`.padStart(8);
const lines: string[] = [];
let firstCall: () => void = () => undefined;
const pool = createWorkerPool({}, undefined, { after: new Promise<void>((resolve) => (firstCall = resolve)) });
// The pool as the plugin would start it, each task's hand-over and return noted.
const timed: WorkerPool = {
  ...pool,
  ready: pool.ready,
  async run(name, input, controls) {
    lines.push(`${at()}  ${name} handed over`);
    const result = await pool.run(name, input, controls);
    lines.push(`${at()}  ${name} back (${result.ok ? 'ok' : result.error.code})`);
    return result;
  },
};
void pool.ready.then(() => lines.push(`${at()}  pool warmed up`));
const plugin = await createMaenifoldPlugin({ client: host.client, directory: worktree, worktree }, {}, env, { pool: timed });
lines.push(`${at()}  plugin started`);
if (mode === 'warm') await pool.ready;
const output = { system: ['You are the build agent.'] };
lines.push(`${at()}  first work call`);
await plugin.hooks['experimental.chat.system.transform']?.({ sessionID: 'ses_first', model: { id: 'm' } } as never, output);
lines.push(`${at()}  first work call returned, ${(output.system[0]?.length ?? 0) - 'You are the build agent.'.length} characters added`);
firstCall();
await pool.ready;
await plugin.logger.flush();
for (const line of host.linesWith('session context').slice(mode === 'restart' ? 1 : 0)) lines.push(`          ${line.message}`);
await plugin.dispose();
await pool.destroy();
await rm(scratch, { recursive: true, force: true });
console.log(`${mode}, ${typeof (globalThis as { Bun?: unknown }).Bun === 'undefined' ? `node ${process.versions.node}` : 'bun'}:\n${lines.join('\n')}`);
process.exit(0);
