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
 * `--chain-length N` runs the long-chain soak instead (support/chain-soak.ts): one project compacting N
 * times into one summary chain, one process, no kills; it prints what was lost, duplicated, how often the
 * chain went on in a new session and whether the newest summary still reads back.
 */
import { runChainSoak } from '../support/chain-soak.js';
import { runSoak, type SoakResult } from '../support/soak.js';

function flag(name: string): string | undefined {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? process.argv[at + 1] : undefined;
}

const rounds = Number(flag('rounds') ?? 20);
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
const results: SoakResult[] = [];
for (const store of stores) results.push(await runSoak({ rounds, store, seed, processes, stopChance: 0.4 }));
if (process.argv.includes('--json')) process.stdout.write(`${JSON.stringify(results)}\n`);
else console.table(results);
const failed = results.some((result) => result.lost > 0 || result.duplicated > 0 || result.chainsWithRepeatedNumbers > 0 || result.parked > 0 || result.leftInOutbox > 0);
process.exit(failed ? 1 : 0);
