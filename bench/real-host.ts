/**
 * `npm run bench:host [-- --json] [--size 10MB] [--rounds 3] [--interval-ms 5] [--tail-ms 1000] [--grow 100KB]`:
 * the stall the plugin adds to the real host. The pinned `opencode serve` runs on 127.0.0.1
 * with the e2e suite's fake model, in its own HOME and XDG folders, twice: once with the packed
 * plugin in the project and once without. Each time it imports the same synthetic session
 * (`opencode import`), asks for a compaction (`POST /session/{id}/summarize`) and, while it runs
 * and for `--tail-ms` after, requests `GET /path` one after another every `--interval-ms`,
 * keeping the slowest answer. `real_host_added_stall_ms` is the slowest answer with the plugin
 * less the slowest without (the median over rounds of each round's slowest). Target: ≤ 10 ms. A
 * first compaction of one more session warms the host up; it is reported (`first`) and left out.
 * Then each session gets `--grow` more of user messages and is compacted again, measured the same
 * way (`again_…`): the compaction a long session meets most often.
 *
 * First, `--first-prompts` rounds (default 3; 0 skips them) of the first prompt of a new server whose
 * project already has memory, with the plugin and without in alternation (real-host-first-prompt.ts):
 * `first_prompt_added_ms` is the median with less the median without. Target: ≤ 300 ms. `--rounds 0`
 * measures only those. `--plugin PATH` measures a packed plugin (a tarball of another checkout)
 * instead of packing this one.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { asUsageError, parseCliArgs, reportFailure, UsageError } from '../src/cli/run-cli.js';
import { createProject, OPENCODE_CACHE_DIR, openCodeVersion, prepareRuntime, scratchDir } from '../support/opencode/runtime.js';
import { isolatedEnv, startOpenCode, type OpenCodeServer } from '../support/opencode/opencode-server.js';
import { parseSize } from '../src/synth/session-size.js';
import { importableSession } from './real-host-session.js';
import { generatedProse, proseInPieces } from '../src/synth/session-prose.js';
import { MODEL } from '../support/opencode/api.js';
import { measureCompaction, median, probe, round1, type RoundFigures } from './real-host-probe.js';
import { measureFirstPrompt, seedProjectMemory, type FirstPromptFigures } from './real-host-first-prompt.js';
import { HOST_START_LATEST_MS } from '../src/main/plugin/host-start.js';

/** The stall the plugin may add. */
const TARGET_MS = 10;
/** The time the plugin may add to the first prompt of a new server. */
const FIRST_PROMPT_TARGET_MS = 300;
/**
 * Idle probing after the server is ready, before the first compaction, and the idle worst recorded. The
 * plugin's workers start and warm up once the host's start is over, which without a work call is
 * {@link HOST_START_LATEST_MS} after the plugin loads; a compaction in use follows work calls, so it meets
 * warm workers, and the probing lasts until the warm-up is done (about 10 s more on the 2-core machine).
 */
const SETTLE_MS = HOST_START_LATEST_MS + 10_000;
/** Characters of one message added before the second compaction. */
const GROWTH_MESSAGE_CHARS = 25_000;

type Variant = 'without' | 'with';

interface VariantFigures {
  /** The host's first compaction after its start, on a session of its own: measured, reported, left out of the medians. */
  first: RoundFigures;
  rounds: RoundFigures[];
  /** The second compaction of each session, after it grew. */
  again: RoundFigures[];
  idle_worst_ms: number;
  /** The plugin's own line about the compaction (messages read, time), when it logged one. */
  plugin_log: string[];
}

/** The fake model in a child process; resolves with its URL and a way to stop it. */
async function startModel(): Promise<{ url: string; stop(): void }> {
  const script = fileURLToPath(new URL('./real-host-model.ts', import.meta.url));
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', script], { stdio: ['pipe', 'pipe', 'inherit'] });
  const stop = (): void => void (child.exitCode === null && child.signalCode === null && child.kill('SIGTERM'));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the fake model did not start within 30 s')), 30_000);
    let printed = '';
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      printed += chunk;
      const line = printed.split('\n')[0];
      if (printed.includes('\n') && line) (clearTimeout(timer), resolve(line.trim()));
    });
    child.once('exit', (code) => (clearTimeout(timer), reject(new Error(`the fake model exited with ${code}`))));
  }).catch((error: unknown) => (stop(), Promise.reject(error)));
  return { url, stop };
}

/** Everything to stop on the way out, newest first; run once whatever ends the bench. */
const cleanups: (() => Promise<void> | void)[] = [];
async function cleanUp(): Promise<void> {
  for (const cleanup of cleanups.splice(0).reverse()) {
    try {
      await cleanup();
    } catch {
      // Best effort: the next one still runs.
    }
  }
}

/** User messages of about `bytes` in all, in {@link GROWTH_MESSAGE_CHARS} pieces: the generator's prose, seeded. */
function growthMessages(bytes: number, seed: number): string[] {
  return proseInPieces(generatedProse(1_000 + seed, Math.max(64 * 1024, bytes * 4)), GROWTH_MESSAGE_CHARS, bytes);
}

/** Stores `texts` as user messages of the session without running the model. */
async function addMessages(base: string, query: string, sessionID: string, texts: readonly string[]): Promise<void> {
  for (const text of texts) {
    const answer = await fetch(`${base}/session/${sessionID}/message${query}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: MODEL, parts: [{ type: 'text', text }], noReply: true }),
      signal: AbortSignal.timeout(60_000),
    });
    await answer.text();
    if (!answer.ok) throw new Error(`POST /session/${sessionID}/message answered ${answer.status}`);
  }
}

/** A project with the packed plugin (the built-in file store), or the same project without it. */
async function variantProject(variant: Variant, root: string, template: string, modelUrl: string): Promise<string> {
  const dir = await createProject(root, 'project', template, { pluginOptions: { store: 'files' }, modelUrl });
  if (variant === 'without') {
    const config = JSON.parse(await readFile(join(dir, 'opencode.json'), 'utf8')) as Record<string, unknown>;
    delete config['plugin'];
    await writeFile(join(dir, 'opencode.json'), `${JSON.stringify(config, null, 2)}\n`);
  }
  return dir;
}

/** What the first prompts of new servers gave, per variant: one unmeasured start each, then the rounds. */
interface FirstPrompts {
  with: FirstPromptFigures[];
  without: FirstPromptFigures[];
}

/**
 * The first prompt of a new server, with the plugin and without, in alternation. Each variant's folders
 * (OpenCode's database, the plugin's state) are kept from round to round, as a user's are between two
 * starts; a first start of each, whose one-time work (the database's creation) is no start's but the
 * first's, is left out.
 */
async function measureFirstPrompts(setup: { scratch: string; binary: string; template: string; modelUrl: string }, rounds: number, log: (text: string) => void): Promise<FirstPrompts> {
  const { scratch, binary, template, modelUrl } = setup;
  const variants = await Promise.all(
    (['without', 'with'] as const).map(async (variant) => {
      const dir = await variantProject(variant, join(scratch, `first-${variant}`), template, modelUrl);
      const memoryRoot = join(scratch, `first-memory-${variant}`);
      await seedProjectMemory(join(memoryRoot, 'memory'), dir);
      const env = await isolatedEnv(join(scratch, `first-host-${variant}`), { MAENIFOLD_ROOT: memoryRoot, XDG_CACHE_HOME: OPENCODE_CACHE_DIR });
      return { variant, dir, env };
    }),
  );
  const figures: FirstPrompts = { with: [], without: [] };
  for (let round = 0; round <= rounds; round++) {
    for (const { variant, dir, env } of variants) {
      log(`${variant}: first prompt of a new server${round === 0 ? ' (first start, left out)' : `, round ${round}`} …`);
      const measured = await measureFirstPrompt(binary, dir, env);
      if (round > 0) figures[variant].push(measured);
    }
  }
  return figures;
}

async function measureVariant(variant: Variant, setup: { scratch: string; binary: string; template: string; modelUrl: string }, sessions: readonly { bytes: number; seed: number }[], growBytes: number, intervalMs: number, tailMs: number, log: (text: string) => void): Promise<VariantFigures> {
  const { scratch, binary, template, modelUrl } = setup;
  // Folders of one length: the generated session's content depends on its project path.
  const dir = await variantProject(variant, join(scratch, variant === 'with' ? 'plugged' : 'vanilla'), template, modelUrl);
  const env = await isolatedEnv(join(scratch, `host-${variant}`), { MAENIFOLD_ROOT: join(scratch, `memory-${variant}`), XDG_CACHE_HOME: OPENCODE_CACHE_DIR });
  const ids: string[] = [];
  for (const { bytes, seed } of sessions) {
    const session = importableSession(bytes, seed, dir);
    const file = join(scratch, `session-${variant}-${seed}.json`);
    await writeFile(file, session.json);
    log(`${variant}: importing a ${(session.json.length / 1024 ** 2).toFixed(1)} MB session of ${session.messages} messages …`);
    await promisify(execFile)(binary, ['import', file], { cwd: dir, env, timeout: 180_000, maxBuffer: 16 * 1024 * 1024 });
    await rm(file);
    ids.push(session.id);
  }
  const server: OpenCodeServer = await startOpenCode(binary, dir, env);
  cleanups.push(async () => void (await server.stop(5_000)));
  try {
    const query = `?directory=${encodeURIComponent(dir)}`;
    // The first instance-scoped request loads the project, and with it the plugin.
    const ready = await fetch(`${server.url}/config${query}`, { signal: AbortSignal.timeout(120_000) });
    if (!ready.ok) throw new Error(`GET /config answered ${ready.status}`);
    const settleEnd = performance.now() + SETTLE_MS;
    const idle = await probe(`${server.url}/path${query}`, intervalMs, () => performance.now() > settleEnd, SETTLE_MS);
    const rounds: RoundFigures[] = [];
    let first: RoundFigures | null = null;
    for (const id of ids) {
      log(`${variant}: compacting ${id} …`);
      const figures = await measureCompaction(server.url, query, id, intervalMs, tailMs);
      if (first === null) first = figures;
      else rounds.push(figures);
    }
    const again: RoundFigures[] = [];
    for (const [index, id] of ids.entries()) {
      // The first session only warmed the host up.
      if (growBytes === 0 || index === 0) continue;
      log(`${variant}: adding ${Math.round(growBytes / 1024)} KB to ${id} and compacting it again …`);
      await addMessages(server.url, query, id, growthMessages(growBytes, sessions[index]?.seed ?? index));
      again.push(await measureCompaction(server.url, query, id, intervalMs, tailMs));
    }
    const pluginLog = server.output().split('\n').filter((line) => /message="?compaction: /.test(line)).map((line) => line.replace(/^.*message="?/, '').replace(/"?\s*$/, ''));
    if (first === null) throw new Error('no compaction was measured');
    return { first, rounds, again, idle_worst_ms: round1(Math.max(...idle)), plugin_log: pluginLog };
  } finally {
    await server.stop(5_000);
  }
}

/** The first prompts' figures of the report: each variant's median, and what the plugin added. */
function firstPromptReport(first: FirstPrompts): Record<string, number> {
  const total = (figures: readonly FirstPromptFigures[]): number => round1(median(figures.map((entry) => entry.total_ms)));
  const prompt = (figures: readonly FirstPromptFigures[]): number => round1(median(figures.map((entry) => entry.prompt_ms)));
  return {
    first_prompt_added_ms: round1(total(first.with) - total(first.without)),
    first_prompt_ms_with: total(first.with),
    first_prompt_ms_without: total(first.without),
    first_prompt_request_ms_with: prompt(first.with),
    first_prompt_request_ms_without: prompt(first.without),
    first_prompt_target_ms: FIRST_PROMPT_TARGET_MS,
    first_prompt_cpu_ms_with: round1(median(first.with.map((entry) => entry.cpu_ms?.total ?? Number.NaN))),
    first_prompt_cpu_ms_without: round1(median(first.without.map((entry) => entry.cpu_ms?.total ?? Number.NaN))),
  };
}

function printFirstPrompts(first: FirstPrompts): void {
  const rows = (variant: 'with' | 'without') =>
    first[variant].map((entry, index) => ({ plugin: variant, round: index + 1, total_ms: entry.total_ms, prompt_ms: entry.prompt_ms, cpu_ms: entry.cpu_ms?.total ?? null, worker_cpu_ms: entry.cpu_ms?.workers ?? null, status: entry.status }));
  console.table([...rows('without'), ...rows('with')]);
  for (const entry of first.with) if (entry.plugin_log) console.log(`plugin: ${entry.plugin_log}`);
  const figures = firstPromptReport(first);
  console.log(`first_prompt_added_ms: ${figures['first_prompt_added_ms']} (${figures['first_prompt_ms_with']} ms with the plugin, ${figures['first_prompt_ms_without']} ms without; target ≤ ${FIRST_PROMPT_TARGET_MS} ms)`);
}

const USAGE = `Usage: npm run bench:host [-- --json] [--size 10MB] [--rounds 3] [--interval-ms 5] [--tail-ms 1000] [--grow 100KB] [--first-prompts 3] [--plugin TGZ]

The stall and the time the plugin adds to the real OpenCode server (pinned, on 127.0.0.1 with a fake
model): a compaction of a synthetic session with the plugin and without, then again after it grew,
and the first prompt of a new server. See docs/benchmarks.md.

  --json              print one JSON object instead of tables
  --size SIZE         size of each synthetic session (default 10MB)
  --rounds N          compactions measured with the plugin and without, 0 to 10 (default 3)
  --interval-ms MS    how often the host is asked while a compaction runs (default 5)
  --tail-ms MS        how long it is asked after the compaction ends (default 1000)
  --grow SIZE         what each session grows by before its second compaction (default 100KB)
  --first-prompts N   first prompts of a new server with the plugin and without, 0 to 10 (default 3)
  --plugin TGZ        a packed plugin (another checkout's npm pack) instead of this one
  --help              show this text`;

async function main(): Promise<number> {
  const values = parseCliArgs(
    process.argv.slice(2),
    {
      json: { type: 'boolean', default: false },
      size: { type: 'string', default: '10MB' },
      rounds: { type: 'string', default: '3' },
      'interval-ms': { type: 'string', default: '5' },
      'tail-ms': { type: 'string', default: '1000' },
      grow: { type: 'string', default: '100KB' },
      'first-prompts': { type: 'string', default: '3' },
      plugin: { type: 'string' },
    },
    USAGE,
  );
  if (!values) return 0;
  const bytes = asUsageError(() => parseSize(values.size));
  const rounds = Number(values.rounds);
  const intervalMs = Number(values['interval-ms']);
  const tailMs = Number(values['tail-ms']);
  const growBytes = asUsageError(() => parseSize(values.grow));
  const firstPrompts = Number(values['first-prompts']);
  if (!Number.isInteger(rounds) || rounds < 0 || rounds > 10) throw new UsageError(`--rounds must be an integer from 0 to 10 (got "${values.rounds}")`);
  if (!Number.isInteger(firstPrompts) || firstPrompts < 0 || firstPrompts > 10) throw new UsageError(`--first-prompts must be an integer from 0 to 10 (got "${values['first-prompts']}")`);
  if (rounds === 0 && firstPrompts === 0) throw new UsageError('--rounds 0 with --first-prompts 0 measures nothing');
  if (!Number.isFinite(intervalMs) || intervalMs < 0 || intervalMs > 1_000) throw new UsageError(`--interval-ms must be 0 to 1000 (got "${values['interval-ms']}")`);
  if (!Number.isFinite(tailMs) || tailMs < 0 || tailMs > 60_000) throw new UsageError(`--tail-ms must be 0 to 60000 (got "${values['tail-ms']}")`);
  const log = (text: string): void => void process.stderr.write(`${text}\n`);
  const scratch = await scratchDir();
  cleanups.push(() => rm(scratch, { recursive: true, force: true }));
  log('installing the pinned OpenCode and packing the plugin …');
  // --plugin: a packed plugin (`npm pack` of another checkout) measured instead of this one, for a before-and-after pair.
  const { binary, template } = await prepareRuntime(scratch, values.plugin);
  const model = await startModel();
  cleanups.push(() => model.stop());
  // One more session than rounds: the host's first compaction after its start is its slowest by far (its own
  // code still cold, about 0.7–1.3 s without an answer in both variants), so it warms the host up and the
  // rounds are the compactions after it.
  const sessions = Array.from({ length: rounds + 1 }, (_, index) => ({ bytes, seed: index === 0 ? rounds + 1 : index }));
  const setup = { scratch, binary, template, modelUrl: model.url };
  const first = firstPrompts > 0 ? await measureFirstPrompts(setup, firstPrompts, log) : null;
  const firstFigures = first ? firstPromptReport(first) : {};
  if (rounds === 0) {
    const failed = first !== null && [...first.with, ...first.without].some((entry) => entry.status !== 200);
    if (values.json) process.stdout.write(`${JSON.stringify({ opencode: await openCodeVersion(), ...firstFigures, first_prompts: first })}\n`);
    else if (first) printFirstPrompts(first);
    return failed ? 1 : 0;
  }
  const without = await measureVariant('without', setup, sessions, growBytes, intervalMs, tailMs, log);
  const withPlugin = await measureVariant('with', setup, sessions, growBytes, intervalMs, tailMs, log);
  const worst = (figures: VariantFigures, of: 'rounds' | 'again' = 'rounds'): number => round1(median(figures[of].map((entry) => entry.worst_ms)));
  const compaction = (figures: VariantFigures, of: 'rounds' | 'again' = 'rounds'): number => round1(median(figures[of].map((entry) => entry.compaction_ms)));
  const grown = growBytes > 0;
  const report = {
    opencode: await openCodeVersion(),
    session_bytes: bytes,
    rounds,
    probe_interval_ms: intervalMs,
    tail_ms: tailMs,
    target_ms: TARGET_MS,
    real_host_added_stall_ms: round1(worst(withPlugin) - worst(without)),
    worst_ms_with: worst(withPlugin),
    worst_ms_without: worst(without),
    compaction_ms_with: compaction(withPlugin),
    compaction_ms_without: compaction(without),
    slow_total_ms_with: round1(median(withPlugin.rounds.map((entry) => entry.slow_total_ms))),
    slow_total_ms_without: round1(median(without.rounds.map((entry) => entry.slow_total_ms))),
    first_worst_ms_with: withPlugin.first.worst_ms,
    first_worst_ms_without: without.first.worst_ms,
    grow_bytes: growBytes,
    ...(grown
      ? {
          again_added_stall_ms: round1(worst(withPlugin, 'again') - worst(without, 'again')),
          again_worst_ms_with: worst(withPlugin, 'again'),
          again_worst_ms_without: worst(without, 'again'),
          again_compaction_ms_with: compaction(withPlugin, 'again'),
          again_compaction_ms_without: compaction(without, 'again'),
        }
      : {}),
    ...firstFigures,
    with: withPlugin,
    without,
    ...(first ? { first_prompts: first } : {}),
  };
  const failed = [withPlugin.first, without.first, ...withPlugin.rounds, ...without.rounds, ...withPlugin.again, ...without.again, ...(first ? [...first.with, ...first.without] : [])].some((entry) => entry.status !== 200);
  if (values.json) process.stdout.write(`${JSON.stringify(report)}\n`);
  else {
    console.table([
      { plugin: 'without', round: 'first', ...without.first, slowest_ms: without.first.slowest_ms.join(' '), idle_worst_ms: without.idle_worst_ms },
      { plugin: 'with', round: 'first', ...withPlugin.first, slowest_ms: withPlugin.first.slowest_ms.join(' '), idle_worst_ms: withPlugin.idle_worst_ms },
      ...without.rounds.map((entry, index) => ({ plugin: 'without', round: index + 1, ...entry, slowest_ms: entry.slowest_ms.join(' '), idle_worst_ms: without.idle_worst_ms })),
      ...withPlugin.rounds.map((entry, index) => ({ plugin: 'with', round: index + 1, ...entry, slowest_ms: entry.slowest_ms.join(' '), idle_worst_ms: withPlugin.idle_worst_ms })),
      ...without.again.map((entry, index) => ({ plugin: 'without', round: `${index + 1} again`, ...entry, slowest_ms: entry.slowest_ms.join(' '), idle_worst_ms: without.idle_worst_ms })),
      ...withPlugin.again.map((entry, index) => ({ plugin: 'with', round: `${index + 1} again`, ...entry, slowest_ms: entry.slowest_ms.join(' '), idle_worst_ms: withPlugin.idle_worst_ms })),
    ]);
    for (const line of withPlugin.plugin_log) console.log(`plugin: ${line}`);
    console.log(`real_host_added_stall_ms: ${report.real_host_added_stall_ms} (target ≤ ${TARGET_MS} ms)`);
    if (grown) console.log(`again, after ${Math.round(growBytes / 1024)} KB more: added stall ${report.again_added_stall_ms} ms; compaction ${report.again_compaction_ms_with} ms with the plugin, ${report.again_compaction_ms_without} ms without`);
    if (first) printFirstPrompts(first);
  }
  return failed ? 1 : 0;
}

let exiting = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    if (exiting) return;
    exiting = true;
    void cleanUp().finally(() => process.exit(130));
  });
}
main()
  .then(async (code) => {
    await cleanUp();
    process.exit(code);
  })
  .catch(async (error: unknown) => {
    const code = reportFailure('bench:host', error, true);
    await cleanUp();
    process.exit(code);
  });
