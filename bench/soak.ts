/**
 * `npm run soak`: 20 rounds of three plugin processes compacting five sessions
 * each at once on one state folder, killed with SIGKILL and stopped with
 * SIGSTOP (resumed with SIGCONT up to 5 s later) at random points,
 * against the maenifold CLI double (slowed to 100–700 ms a thought) and
 * against the built-in file store. Prints what was lost, duplicated, and how
 * many chains repeat a thought number; exits non-zero unless all are 0.
 *
 * Flags: --rounds N (default 20), --processes N (default 3), --store cli|files|both (default both), --seed N, --json, --help.
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
import { parseCliArgs, positiveInteger, reportFailure, UsageError } from '../src/cli/run-cli.js';

const USAGE = `Usage: npm run soak [-- --rounds N] [--processes N] [--store cli|files|both] [--seed N] [--full-disk] [--chain-length N] [--json]

Several plugin processes compacting at once on one state folder, killed and stopped at random points;
prints what was lost or duplicated and exits 1 unless nothing was.

  --rounds N          rounds of processes (default 20; 8 with --full-disk)
  --processes N       plugin processes at once (default 3)
  --store S           cli (the maenifold CLI double), files (the built-in store) or both (default)
  --seed N            seed of the random kills (default 14)
  --full-disk         the state folder on a 1 MiB tmpfs filled for a few seconds of each round (root)
  --chain-length N    instead: one project compacting N times into one summary chain
  --json              print JSON instead of tables
  --help              show this text`;

/** The flags, or the exit after --help or a mistake in them (one line, exit 2). */
function readFlags() {
  try {
    const values = parseCliArgs(
      process.argv.slice(2),
      {
        rounds: { type: 'string' },
        processes: { type: 'string', default: '3' },
        store: { type: 'string', default: 'both' },
        seed: { type: 'string', default: '14' },
        'full-disk': { type: 'boolean', default: false },
        'chain-length': { type: 'string' },
        json: { type: 'boolean', default: false },
      },
      USAGE,
    );
    if (!values) process.exit(0);
    if (!['cli', 'files', 'both'].includes(values.store)) throw new UsageError(`--store must be cli, files or both (got "${values.store}")`);
    const seed = Number(values.seed);
    if (!Number.isInteger(seed)) throw new UsageError(`--seed must be an integer (got "${values.seed}")`);
    return {
      fullDisk: values['full-disk'],
      rounds: positiveInteger('rounds', values.rounds ?? (values['full-disk'] ? '8' : '20')),
      which: values.store as 'cli' | 'files' | 'both',
      seed,
      processes: positiveInteger('processes', values.processes),
      chainLength: values['chain-length'] === undefined ? undefined : positiveInteger('chain-length', values['chain-length']),
      json: values.json,
    };
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.exit(reportFailure('soak', error));
  }
}

const { fullDisk, rounds, which, seed, processes, chainLength, json } = readFlags();
const stores = which === 'both' ? (['cli', 'files'] as const) : ([which] as ['cli' | 'files']);
if (chainLength !== undefined) {
  const chained = [];
  for (const store of stores) chained.push(await runChainSoak({ compactions: chainLength, store }));
  if (json) process.stdout.write(`${JSON.stringify(chained)}\n`);
  else console.table(chained);
  process.exit(chained.some((result) => result.lost > 0 || result.duplicated > 0 || result.unlinked > 0 || result.chainsWithRepeatedNumbers > 0 || !result.newestReadBack) ? 1 : 0);
}
if (fullDisk && !(await canMount())) {
  console.error('soak --full-disk: cannot mount a tmpfs for the state folder (it needs root and a kernel that allows it here)');
  process.exit(1);
}
const results: SoakResult[] = [];
for (const store of stores) results.push(await runSoak({ rounds, store, seed, processes, stopChance: 0.4, ...(fullDisk ? { fullDisk: {} } : {}) }));
if (json) process.stdout.write(`${JSON.stringify(results)}\n`);
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
