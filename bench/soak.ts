/**
 * `npm run soak`: 20 rounds of three plugin processes compacting five sessions
 * each at once on one state folder, killed with SIGKILL and stopped with
 * SIGSTOP (resumed with SIGCONT up to 5 s later) at random points,
 * against the maenifold CLI double (slowed to 100–700 ms a thought) and
 * against the built-in file store. Prints what was lost, duplicated, and how
 * many chains repeat a thought number; exits non-zero unless all are 0.
 *
 * Flags: --rounds N (default 20), --processes N (default 3), --store cli|files|both (default both), --seed N, --json.
 *
 * `--full-disk` puts the state folder on a 1 MiB tmpfs it mounts (as root; it says so and exits 1 where it
 * cannot) and fills it whole for 3–6 s of each round while the senders deliver, then frees it (8 rounds by
 * default). Besides the soak's figures it prints how many summaries were held in memory, sent on a chain kept
 * in memory, written to the outbox or spilled at shutdown and taken back, and how many a killed process held
 * only in memory (the documented cost of a kill while the disk refuses: not owed).
 *
 * `--chain-length N` runs the long-chain soak instead (support/chain-soak.ts): one project compacting N
 * times into one summary chain, one process, no kills; it prints what was lost, duplicated, how often the
 * chain went on in a new session and whether the newest summary still reads back.
 */
import { runChainSoak } from '../support/chain-soak.js';
import { runSoak, type SoakResult } from '../support/soak.js';
import { canMount } from '../test/support/scratch-mount.js';

function flag(name: string): string | undefined {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? process.argv[at + 1] : undefined;
}

const fullDisk = process.argv.includes('--full-disk');
const rounds = Number(flag('rounds') ?? (fullDisk ? 8 : 20));
const which = flag('store') ?? 'both';
const seed = Number(flag('seed') ?? 14);
const processes = Number(flag('processes') ?? 3);
const stores = which === 'both' ? (['cli', 'files'] as const) : ([which] as ['cli' | 'files']);
const chainLength = flag('chain-length');
if (chainLength !== undefined) {
  const chained = [];
  for (const store of stores) chained.push(await runChainSoak({ compactions: Number(chainLength), store }));
  if (process.argv.includes('--json')) process.stdout.write(`${JSON.stringify(chained)}\n`);
  else console.table(chained);
  process.exit(chained.some((result) => result.lost > 0 || result.duplicated > 0 || result.unlinked > 0 || result.chainsWithRepeatedNumbers > 0 || !result.newestReadBack) ? 1 : 0);
}
if (fullDisk && !(await canMount())) {
  console.error('soak --full-disk: cannot mount a tmpfs for the state folder (it needs root and a kernel that allows it here)');
  process.exit(1);
}
const results: SoakResult[] = [];
for (const store of stores) results.push(await runSoak({ rounds, store, seed, processes, stopChance: 0.4, ...(fullDisk ? { fullDisk: {} } : {}) }));
if (process.argv.includes('--json')) process.stdout.write(`${JSON.stringify(results)}\n`);
else console.table(results.map(({ fullDisk: counts, ...result }) => ({ ...result, ...counts })));
const failed = results.some(
  (result) =>
    result.lost > 0 ||
    result.duplicated > 0 ||
    result.chainsWithRepeatedNumbers > 0 ||
    result.parked > 0 ||
    result.leftInOutbox > 0 ||
    (result.fullDisk !== undefined && (result.fullDisk.lostAtShutdown > 0 || result.fullDisk.leftInSpill > 0)),
);
process.exit(failed ? 1 : 0);
