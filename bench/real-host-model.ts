/**
 * The e2e suite's fake model in a process of its own, for `bench/real-host.ts`:
 * it parses the 10 MB compaction request, which must not block the process
 * that times the server's answers. Prints its URL on the first line, then
 * serves until stopped (or until its parent goes away).
 */
import { startFakeModel } from '../support/opencode/fake-model.js';

const model = await startFakeModel();
process.stdout.write(`${model.url}\n`);
const stop = (): void => void model.close().finally(() => process.exit(0));
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
// An orphan has no one to answer: the parent's pipe closing ends it.
process.stdin.once('end', stop).resume();
