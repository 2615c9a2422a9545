import { spawn } from 'node:child_process';
import { chmod, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, type TestContext } from 'vitest';
import { backoffMs, createDelivery, idempotencyKey, type Delivery } from '../../../../src/main/memory/delivery/delivery.js';
import { sessionUri } from '../../../../src/core/memory/memory-format.js';
import { createOutbox } from '../../../../src/main/memory/delivery/outbox.js';
import { createChainStore, type ChainRecord } from '../../../../src/main/memory/delivery/chain-store.js';
import { locateCli } from '../../../../src/main/memory/cli/cli-locator.js';
import { createMaenifoldClient } from '../../../../src/main/memory/cli/maenifold-client.js';
import { createLogger } from '../../../../src/main/shared/logger.js';
import { createDoubleRoot, type DoubleRoot } from '../../../../support/maenifold-double.js';
import { canMount, mountTmpfs, type Mount } from '../../../support/scratch-mount.js';
import { groupGone } from '../../../../support/soak.js';
import { createFakeHost, type FakeHost } from '../../../../support/fake-host.js';
import { fixtureArgv } from '../../../../support/fixture-process.js';
import { scratchFolders } from '../../../support/scratch.js';
import { dateLocksPastStale } from '../../../support/stale-lock.js';

const mountable = await canMount();

/** Where a test registers what to remove when it ends: its own context's, since the tests run concurrently. */
type Cleanup = TestContext['onTestFinished'];

interface Rig {
  double: DoubleRoot;
  stateDir: string;
  host: FakeHost;
  clock: { now: number };
  /** A sender; `cliPath` replaces the double (a wrapper script); `timeoutMs` bounds each CLI call. */
  delivery(env?: Record<string, string>, cliPath?: string, timeoutMs?: number): Delivery;
}

const newStateDir = scratchFolders('delivery');

async function rig(cleanup: Cleanup): Promise<Rig> {
  const double = await createDoubleRoot();
  // Run in reverse order: the state folder goes first, then the double's root.
  cleanup(() => double.cleanup());
  const stateDir = await newStateDir(cleanup);
  const host = createFakeHost();
  const clock = { now: Date.UTC(2026, 10, 22, 12) };
  return {
    double,
    stateDir,
    host,
    clock,
    delivery: (env = {}, cliPath = double.cliPath, timeoutMs = 5_000) =>
      createDelivery({
        memory: createMaenifoldClient(locateCli(cliPath, process.env), { ...process.env, ...double.env, ...env }),
        outbox: createOutbox(join(stateDir, 'outbox'), () => clock.now),
        chains: createChainStore(stateDir, { timing: { staleMs: 2_000 } }),
        logger: createLogger(host.client),
        timeoutMs,
        now: () => clock.now,
        lockTiming: { staleMs: 2_000 },
      }),
  };
}

/** Entries not delivered yet: pending, or claimed by a process (alive or not). */
async function pending(stateDir: string): Promise<string[]> {
  return (await readdir(join(stateDir, 'outbox'))).filter((name) => /\.json(\.claim-[-0-9a-f]+)?$/.test(name));
}

/** Polls `condition` until it holds; fails the test when it never does. */
async function waitFor(condition: () => boolean | Promise<boolean>, what: string, ms = 30_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

async function thoughtFile(double: DoubleRoot, sessionId: string): Promise<string> {
  const uri = sessionUri(sessionId) as string;
  return readFile(join(double.root, 'memory', `${uri.slice('memory://'.length)}.md`), 'utf8');
}

const note = { title: 'Compaction demo 20261122 120000000 ses1', content: '# Note\n\nAbout [[redis]].', folder: 'sessions/compaction/2026/11/22', tags: ['compaction'] };

describe('backoffMs', () => {
  it('should grow fourfold from 30 s and cap at an hour', () => {
    expect([1, 2, 3, 4, 5, 9].map(backoffMs)).toEqual([30_000, 120_000, 480_000, 1_920_000, 3_600_000, 3_600_000]);
  });
});

describe.concurrent('createDelivery', () => {
  it('should keep an undeliverable note and deliver it once the CLI answers, not before its backoff', async ({ onTestFinished }) => {
    const r = await rig(onTestFinished);
    await r.delivery({ MAENIFOLD_DOUBLE_FAULT: 'garbage' }).submitNote('demo', note);
    expect(await pending(r.stateDir)).toHaveLength(1);
    const healthy = r.delivery();
    await healthy.flush();
    expect((await r.double.calls()).filter((call) => call.tool === 'WriteMemory')).toHaveLength(1);
    r.clock.now += 30_000;
    await healthy.flush();
    expect(await pending(r.stateDir)).toEqual([]);
    const writes = (await r.double.calls()).filter((call) => call.tool === 'WriteMemory');
    expect(writes).toHaveLength(2);
    await r.host.client.app.log({ body: { service: 'x', level: 'info', message: 'flush' } });
    expect(r.host.linesWith('(after 1 retries)')).toHaveLength(1);
  });

  it('should park a note maenifold refuses instead of retrying it forever', async ({ onTestFinished }) => {
    const r = await rig(onTestFinished);
    await r.delivery().submitNote('demo', { ...note, content: 'no links, only `[[code]]`' });
    expect(await pending(r.stateDir)).toEqual([]);
    expect(await readdir(join(r.stateDir, 'outbox', 'failed'))).toHaveLength(1);
  });

  it('should add each summary once to one chain, even when submitted twice', async ({ onTestFinished }) => {
    const r = await rig(onTestFinished);
    const delivery = r.delivery();
    const thought = { project: 'demo', response: 'First [[redis]] summary.', source: 'ses_a\u0000one' };
    await delivery.submitThought(thought);
    await delivery.submitThought(thought);
    await delivery.submitThought({ ...thought, response: 'Second [[redis]] summary.', source: 'ses_a\u0000two' });
    const calls = (await r.double.calls()).filter((call) => call.tool === 'SequentialThinking');
    expect(calls.map((call) => (call.payload as { thoughtNumber: number }).thoughtNumber)).toEqual([0, 1]);
    const chain = JSON.parse(await readFile(join(r.stateDir, 'summary-chains.json'), 'utf8'))['demo'];
    expect((await thoughtFile(r.double, chain.sessionId)).match(/^## Thought /gm)).toHaveLength(2);
  });

  it('should deliver directly when the disk refuses the outbox', async ({ onTestFinished }) => {
    const r = await rig(onTestFinished);
    await writeFile(join(r.stateDir, 'outbox'), 'a file where the folder should be');
    await r.delivery().submitNote('demo', note);
    expect((await r.double.calls()).filter((call) => call.tool === 'WriteMemory')).toHaveLength(1);
    expect(r.host.linesWith('delivering without a durable copy')).toHaveLength(1);
  });
});

describe.concurrent('delivery through failures', () => {
  async function script(r: Rig, name: string, body: string): Promise<string> {
    const path = join(r.stateDir, name);
    await writeFile(path, `#!/bin/sh\n${body}\n`);
    await chmod(path, 0o755);
    return path;
  }

  it('should retry an INTERNAL_ERROR envelope (exit 0) with backoff instead of parking it', async ({ onTestFinished }) => {
    const r = await rig(onTestFinished);
    const flaky = await script(r, 'flaky', `printf '%s\\n' '{"success":false,"data":null,"error":{"code":"INTERNAL_ERROR","message":"database is locked"}}'`);
    await r.delivery({}, flaky).submitNote('demo', note);
    expect(await pending(r.stateDir)).toHaveLength(1);
    expect(await readdir(join(r.stateDir, 'outbox', 'failed'))).toEqual([]);
    r.clock.now += 30_000;
    await r.delivery().flush();
    expect(await pending(r.stateDir)).toEqual([]);
    expect((await r.double.calls()).filter((call) => call.tool === 'WriteMemory')).toHaveLength(1);
  });

  it('should start a new chain when maenifold refuses the remembered one for its session id', async ({ onTestFinished }) => {
    const r = await rig(onTestFinished);
    await createChainStore(r.stateDir).set('demo', { sessionId: 'session-abc', thoughtNumber: 4, updatedAt: '' });
    await r.delivery().submitThought({ project: 'demo', response: 'A [[redis]] summary.', source: 'ses_a\u0000one' });
    const calls = (await r.double.calls()).filter((call) => call.tool === 'SequentialThinking').map((call) => call.payload as { sessionId?: string; thoughtNumber: number });
    expect(calls).toEqual([expect.objectContaining({ sessionId: 'session-abc', thoughtNumber: 5 }), expect.objectContaining({ thoughtNumber: 0 })]);
    expect(calls[1]?.sessionId).toBeUndefined();
    const chain = await createChainStore(r.stateDir).get('demo');
    expect(chain).toMatchObject({ thoughtNumber: 0, sessionId: expect.stringMatching(/^session-\d+-\d+$/) });
    expect(await pending(r.stateDir)).toEqual([]);
  });

  it('should write a summary to disk while an earlier delivery is still waiting for the CLI', async ({ onTestFinished }) => {
    const r = await rig(onTestFinished);
    const gate = join(r.stateDir, 'gate');
    const gated = await script(r, 'gated', `while [ ! -f "${gate}" ] && [ -d "${r.stateDir}" ]; do sleep 0.05; done\nexec "${r.double.cliPath}" "$@"`);
    const delivery = r.delivery({}, gated);
    const first = delivery.submitNote('demo', note);
    await waitFor(async () => (await pending(r.stateDir).catch(() => [])).some((name) => name.includes('.claim-')), 'the note to be claimed');
    const second = delivery.submitThought({ project: 'demo', response: 'A [[redis]] summary.', source: 'ses_b\u0000one' });
    await delivery.stored();
    // The CLI has answered nothing yet, and the summary is on disk.
    expect(await r.double.calls()).toEqual([]);
    const names = await pending(r.stateDir);
    expect(names).toHaveLength(2);
    expect(names.filter((name) => name.endsWith('.json'))).toHaveLength(1);
    await writeFile(gate, '');
    await Promise.all([first, second]);
    expect(await pending(r.stateDir)).toEqual([]);
  });

  it('should not let an outbox write that never returns hold the summary or later submissions', async ({ onTestFinished }) => {
    const r = await rig(onTestFinished);
    const real = createOutbox(join(r.stateDir, 'outbox'), () => r.clock.now);
    let hang = true;
    // The first write never returns, as on a home folder whose server went away.
    const outbox = { ...real, add: (fields: Parameters<typeof real.add>[0]) => (hang ? ((hang = false), new Promise<never>(() => undefined)) : real.add(fields)) };
    const delivery = createDelivery({
      memory: createMaenifoldClient(locateCli(r.double.cliPath, process.env), { ...process.env, ...r.double.env }),
      outbox,
      chains: createChainStore(r.stateDir),
      logger: createLogger(r.host.client),
      timeoutMs: 5_000,
      now: () => r.clock.now,
      // Cuts the hung write; the real write after it must finish within it too, with the other cases of
      // the file running at once on a loaded machine: a second, not a tenth.
      storeDeadlineMs: 1_000,
    });
    await delivery.submitThought({ project: 'demo', response: 'A [[redis]] summary.', source: 'ses_a\u0000one' });
    await delivery.submitNote('demo', note);
    expect(r.host.linesWith('delivering without a durable copy')).toHaveLength(1);
    const tools = (await r.double.calls()).map((call) => call.tool);
    expect(tools.filter((tool) => tool === 'SequentialThinking')).toHaveLength(1);
    expect(tools.filter((tool) => tool === 'WriteMemory')).toHaveLength(1);
    expect(await pending(r.stateDir)).toEqual([]);
  });

  it.runIf(mountable)('should keep submissions in memory while the state folder is read-only and write them once it is writable again', async ({ onTestFinished }) => {
    const mount = (await mountTmpfs(1024)) as Mount;
    onTestFinished(() => mount.unmount());
    const r = await rig(onTestFinished);
    const stateDir = join(mount.dir, 'state');
    const delivery = (env: Record<string, string> = {}) =>
      createDelivery({
        memory: createMaenifoldClient(locateCli(r.double.cliPath, process.env), { ...process.env, ...r.double.env, ...env }),
        outbox: createOutbox(join(stateDir, 'outbox'), () => r.clock.now),
        chains: createChainStore(stateDir),
        logger: createLogger(r.host.client),
        timeoutMs: 5_000,
        now: () => r.clock.now,
      });
    mount.remount('ro');
    const refused = delivery({ MAENIFOLD_DOUBLE_FAULT: 'garbage' });
    await refused.submitNote('demo', note);
    expect(r.host.linesWith('the disk refused the note')).toHaveLength(1);
    mount.remount('rw');
    await refused.flush();
    expect(await pending(stateDir)).toHaveLength(1);
    // A restart delivers what was written.
    r.clock.now += 30_000;
    await delivery().flush();
    expect(await pending(stateDir)).toEqual([]);
    expect(await readdir(join(r.double.root, 'memory', 'sessions', 'compaction', '2026', '11', '22'))).toHaveLength(1);
  });
});

describe.concurrent('delivery across a killed process', () => {
  const child = fileURLToPath(new URL('../../../../support/submit-thought.ts', import.meta.url));
  const settled = (): number => Date.now() + 2 * 5_000 + 1;

  /** Starts the sender in its own process group, so the test can tell when every process it started is gone. */
  function startSender(r: Rig, cliPath: string): { pid: number; exited: Promise<void> } {
    const proc = spawn(process.execPath, [...fixtureArgv(child), r.stateDir, cliPath, 'demo'], {
      env: { ...process.env, ...r.double.env, DELIVERY_TIMEOUT_MS: '5000' },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    return { pid: proc.pid as number, exited: new Promise<void>((resolve) => proc.once('exit', () => resolve())) };
  }

  async function chainRecord(r: Rig): Promise<{ inFlight?: unknown; sessionId?: string } | undefined> {
    try {
      return JSON.parse(await readFile(join(r.stateDir, 'summary-chains.json'), 'utf8'))['demo'];
    } catch {
      return undefined;
    }
  }

  it('should not duplicate a thought that landed while its sender was killed', async ({ onTestFinished }) => {
    const r = await rig(onTestFinished);
    // The double writes the thought at once; its answer is held back until the test opens the gate,
    // which it does only after the sender is dead, so the sender never learns the outcome.
    const gate = join(r.stateDir, 'gate');
    const held = join(r.stateDir, 'held-maenifold');
    await writeFile(held, `#!/bin/sh\nout=$("${r.double.cliPath}" "$@")\nwhile [ ! -f "${gate}" ] && [ -d "${r.stateDir}" ]; do sleep 0.02; done\nprintf '%s\\n' "$out"\n`);
    await chmod(held, 0o755);
    const sender = startSender(r, held);
    await waitFor(async () => (await r.double.calls()).some((call) => call.tool === 'SequentialThinking'), 'the call to reach the CLI');
    process.kill(sender.pid, 'SIGKILL');
    await sender.exited;
    expect(await pending(r.stateDir)).toHaveLength(1);
    // The orphaned CLI finishes its write and answers no one.
    await writeFile(gate, '');
    await waitFor(() => groupGone(sender.pid), 'the orphaned CLI to exit');
    // The locks the sender left are dated past their stale threshold, not waited out: what this case is
    // about comes after the takeover.
    await dateLocksPastStale(join(r.stateDir, 'locks'), 2_000);
    r.clock.now = settled();
    await r.delivery().flush();
    expect(await pending(r.stateDir)).toEqual([]);
    const thoughts = (await r.double.calls()).filter((call) => call.tool === 'SequentialThinking');
    expect(thoughts).toHaveLength(1);
    const chain = await chainRecord(r);
    expect(chain?.inFlight).toBeUndefined();
    expect((await thoughtFile(r.double, chain?.sessionId as string)).match(/^## Thought /gm)).toHaveLength(1);
  });

  it('should wait while a killed sender’s call may still land, then deliver the thought once', async ({ onTestFinished }) => {
    const r = await rig(onTestFinished);
    // The wrapper waits for a gate the test never opens: the CLI is not reached before the kill.
    const late = join(r.stateDir, 'late-maenifold');
    // It also gives up once the test's folder is gone: it runs in a process group of its own, which the kill does not reach.
    await writeFile(late, `#!/bin/sh\nwhile [ ! -f "${join(r.stateDir, 'never')}" ] && [ -d "${r.stateDir}" ]; do sleep 0.02; done\n[ -f "${join(r.stateDir, 'never')}" ] || exit 1\nexec "${r.double.cliPath}" "$@"\n`);
    await chmod(late, 0o755);
    const sender = startSender(r, late);
    await waitFor(async () => (await chainRecord(r))?.inFlight !== undefined, 'the thought to be in flight');
    // The whole group: the wrapper dies before it reaches the CLI.
    process.kill(-sender.pid, 'SIGKILL');
    await waitFor(() => groupGone(sender.pid), 'the sender and its CLI to exit');
    // As above: the dead sender's locks, past their stale threshold.
    await dateLocksPastStale(join(r.stateDir, 'locks'), 2_000);
    expect(await pending(r.stateDir)).toHaveLength(1);
    r.clock.now = Date.now();
    await r.delivery().flush();
    // Too early to know whether the call landed: nothing is sent.
    expect((await r.double.calls()).filter((call) => call.tool === 'SequentialThinking')).toEqual([]);
    expect(await pending(r.stateDir)).toHaveLength(1);
    r.clock.now = settled();
    await r.delivery().flush();
    expect(await pending(r.stateDir)).toEqual([]);
    const chain = await chainRecord(r);
    expect((await thoughtFile(r.double, chain?.sessionId as string)).match(/^## Thought /gm)).toHaveLength(1);
  });
});

describe.concurrent('delivery when it cannot learn, or is told wrong times', () => {
  const first = { project: 'demo', response: 'First [[redis]] summary.', source: 'ses_a\u0000one' };
  const second = { project: 'demo', response: 'Second [[redis]] summary.', source: 'ses_b\u0000two' };
  const secondKey = idempotencyKey('thought', second.project, second.source);
  const third = { project: 'demo', response: 'Third [[redis]] summary.', source: 'ses_c\u0000three' };

  /** A chain of one thought, and the second thought pending in the outbox, recorded in flight as a sender that died would leave it. */
  async function interrupted(r: Rig, flight: { chained: boolean; at: number; ended?: boolean }): Promise<void> {
    if (flight.chained) await r.delivery().submitThought(first);
    await createOutbox(join(r.stateDir, 'outbox'), () => r.clock.now).add({ key: secondKey, kind: 'thought', payload: { response: second.response }, project: 'demo' });
    await createChainStore(r.stateDir).update('demo', (record) => {
      const sessionId = record?.sessionId ?? null;
      const inFlight = { key: secondKey, sessionId, thoughtNumber: sessionId ? 1 : 0, at: flight.at, ...(flight.ended ? { ended: true } : {}) };
      return { record: { ...(record ?? {}), inFlight } as ChainRecord, result: undefined };
    });
  }

  const thoughtCalls = async (r: Rig): Promise<number> => (await r.double.calls()).filter((call) => call.tool === 'SequentialThinking').length;
  const inFlightKey = async (r: Rig): Promise<string | undefined> => (await createChainStore(r.stateDir).record('demo'))?.inFlight?.key;

  async function withoutThoughtsLine(r: Rig): Promise<string> {
    const path = join(r.stateDir, 'cut-maenifold');
    const envelope = JSON.stringify({ success: true, data: { content: '# A session\n' }, error: null });
    await writeFile(path, `#!/bin/sh\ncase "$*" in *ReadMemory*) printf '%s\\n' '${envelope}'; exit 0;; esac\nexec "${r.double.cliPath}" "$@"\n`);
    await chmod(path, 0o755);
    return path;
  }

  // A hanging CLI is waited for until the call's deadline: a shorter one than the others' keeps the case from
  // waiting five seconds, and still leaves a loaded machine time to start the calls that answer.
  const cases: { name: string; chained: boolean; timeoutMs?: number; cli: (r: Rig) => Promise<[Record<string, string>, string?]> }[] = [
    { name: 'ReadMemory prints garbage', chained: true, cli: async () => [{ MAENIFOLD_DOUBLE_FAULT: 'garbage', MAENIFOLD_DOUBLE_FAULT_TOOLS: 'ReadMemory' }] },
    { name: 'ReadMemory hangs past its deadline', chained: true, timeoutMs: 2_000, cli: async () => [{ MAENIFOLD_DOUBLE_FAULT: 'hang', MAENIFOLD_DOUBLE_FAULT_TOOLS: 'ReadMemory' }] },
    { name: 'ReadMemory answers an error', chained: true, cli: async () => [{ MAENIFOLD_DOUBLE_FAULT: 'error:INTERNAL_ERROR', MAENIFOLD_DOUBLE_FAULT_TOOLS: 'ReadMemory' }] },
    { name: 'ReadMemory answers a note without the thoughts line', chained: true, cli: async (r) => [{}, await withoutThoughtsLine(r)] },
    { name: 'ListMemories answers an error for a thought that started a chain', chained: false, cli: async () => [{ MAENIFOLD_DOUBLE_FAULT: 'error:INTERNAL_ERROR', MAENIFOLD_DOUBLE_FAULT_TOOLS: 'ListMemories' }] },
    { name: 'ListMemories crashes for a thought that started a chain', chained: false, cli: async () => [{ MAENIFOLD_DOUBLE_FAULT: 'crash', MAENIFOLD_DOUBLE_FAULT_TOOLS: 'ListMemories' }] },
  ];

  it.for(cases)('should keep the entry and ask again later, not send again, when $name', async ({ chained, timeoutMs, cli }, { onTestFinished }) => {
    const r = await rig(onTestFinished);
    await interrupted(r, { chained, at: r.clock.now - 60_000, ended: true });
    const before = await thoughtCalls(r);
    const [env, cliPath] = await cli(r);
    await r.delivery(env, cliPath, timeoutMs).flush();
    expect(await thoughtCalls(r)).toBe(before);
    expect(await pending(r.stateDir)).toHaveLength(1);
    expect(await inFlightKey(r)).toBe(secondKey);
    // maenifold answers again: the thought had not landed, and is sent once.
    r.clock.now += backoffMs(1);
    await r.delivery().flush();
    expect(await thoughtCalls(r)).toBe(before + 1);
    expect(await pending(r.stateDir)).toEqual([]);
    const chain = await createChainStore(r.stateDir).get('demo');
    expect(chain?.recentKeys).toContain(secondKey);
    expect((await thoughtFile(r.double, chain?.sessionId as string)).match(/^## Thought /gm)).toHaveLength(chained ? 2 : 1);
  });

  it('should wait no longer than a call can take for a thought in flight dated a day ahead', async ({ onTestFinished }) => {
    const r = await rig(onTestFinished);
    await interrupted(r, { chained: true, at: r.clock.now + 86_400_000 });
    await r.delivery().flush();
    expect(await thoughtCalls(r)).toBe(1);
    r.clock.now += 2 * 5_000 + 1;
    await r.delivery().flush();
    expect(await thoughtCalls(r)).toBe(2);
    expect(await pending(r.stateDir)).toEqual([]);
  });

  it('should send an entry dated a day ahead within the longest backoff', async ({ onTestFinished }) => {
    const r = await rig(onTestFinished);
    const outbox = createOutbox(join(r.stateDir, 'outbox'), () => r.clock.now);
    await outbox.add({ key: secondKey, kind: 'note', payload: { ...note }, project: 'demo' });
    const claim = (await outbox.claim((await outbox.list())[0]!))!;
    claim.entry.nextAttemptAt = r.clock.now + 86_400_000;
    await outbox.release(claim);
    await r.delivery().flush();
    expect(await pending(r.stateDir)).toHaveLength(1);
    r.clock.now += backoffMs(99);
    await r.delivery().flush();
    expect(await pending(r.stateDir)).toEqual([]);
    expect((await r.double.calls()).filter((call) => call.tool === 'WriteMemory')).toHaveLength(1);
  });

  it('should deliver each summary once, on a chain kept in memory, when the state folder is a file', async ({ onTestFinished }) => {
    const r = await rig(onTestFinished);
    const stateDir = join(r.stateDir, 'state');
    await writeFile(stateDir, 'a file where the folder should be');
    const delivery = createDelivery({
      memory: createMaenifoldClient(locateCli(r.double.cliPath, process.env), { ...process.env, ...r.double.env }),
      outbox: createOutbox(join(stateDir, 'outbox'), () => r.clock.now),
      chains: createChainStore(stateDir),
      logger: createLogger(r.host.client),
      timeoutMs: 5_000,
      now: () => r.clock.now,
    });
    await delivery.submitThought(first);
    await delivery.submitThought(first);
    await delivery.submitThought(second);
    const calls = (await r.double.calls()).filter((call) => call.tool === 'SequentialThinking').map((call) => call.payload as { thoughtNumber: number });
    expect(calls.map((call) => call.thoughtNumber)).toEqual([0, 1]);
    expect(r.host.linesWith('delivering without a durable copy').length).toBeGreaterThan(0);
    expect(r.host.linesWith('the state folder refuses the chain state (ENOTDIR)').length).toBeGreaterThan(0);
  });

  // Settled on the chain kept in memory, also when the disk takes writes again before the retry.
  it.for([{ diskBack: false }, { diskBack: true }])('should not send again a thought whose call on the chain kept in memory landed and then failed (disk back: $diskBack)', async ({ diskBack }, { onTestFinished }) => {
    const r = await rig(onTestFinished);
    const stateDir = join(r.stateDir, 'state');
    await writeFile(stateDir, 'a file where the folder should be');
    // The first thought lands, and its answer comes back unreadable: the call may have landed.
    const once = join(r.stateDir, 'answered-garbage');
    const cli = join(r.stateDir, 'garbled-maenifold');
    await writeFile(cli, `#!/bin/sh\ncase "$*" in *SequentialThinking*) if [ ! -f "${once}" ]; then : > "${once}"; "${r.double.cliPath}" "$@" > /dev/null; echo 'not json'; exit 0; fi;; esac\nexec "${r.double.cliPath}" "$@"\n`);
    await chmod(cli, 0o755);
    const delivery = createDelivery({
      memory: createMaenifoldClient(locateCli(cli, process.env), { ...process.env, ...r.double.env, MAENIFOLD_DOUBLE_NOW: new Date(r.clock.now).toISOString() }),
      outbox: createOutbox(join(stateDir, 'outbox'), () => r.clock.now),
      chains: createChainStore(stateDir),
      logger: createLogger(r.host.client),
      timeoutMs: 5_000,
      now: () => r.clock.now,
    });
    await delivery.submitThought(first);
    expect(await thoughtCalls(r)).toBe(1);
    if (diskBack) await rm(stateDir);
    r.clock.now += backoffMs(1);
    await delivery.flush();
    await delivery.submitThought(second);
    expect(await thoughtCalls(r)).toBe(2);
    const day = join(r.double.root, 'memory', 'thinking', 'sequential', '2026', '11', '22');
    const texts = await Promise.all((await readdir(day)).map((name) => readFile(join(day, name), 'utf8')));
    expect(texts.filter((text) => text.includes(first.response))).toHaveLength(1);
    expect(texts.filter((text) => text.includes(second.response))).toHaveLength(1);
    expect(r.host.linesWith('had landed before the interruption; recorded, not sent again')).toHaveLength(1);
  });

  it('should not send again a thought whose sender lost its lock while the call was out, once another sender settled it as absent', async ({ onTestFinished }) => {
    const r = await rig(onTestFinished);
    const hold = join(r.stateDir, 'hold');
    const go = join(r.stateDir, 'go');
    const held = join(r.stateDir, 'held-maenifold');
    // While `hold` exists, a thought waits for `go` before it reaches the CLI: a sender stopped mid-call.
    await writeFile(held, `#!/bin/sh\ncase "$*" in *SequentialThinking*) if [ -f "${hold}" ]; then while [ ! -f "${go}" ] && [ -d "${r.stateDir}" ]; do sleep 0.02; done; fi;; esac\nexec "${r.double.cliPath}" "$@"\n`);
    await chmod(held, 0o755);
    const stopped = r.delivery({}, held);
    await stopped.submitThought(first);
    await writeFile(hold, '');
    const late = stopped.submitThought(second);
    await waitFor(async () => (await inFlightKey(r)) === secondKey, 'the thought to be in flight');
    // Another process takes the chain over: its lock gone from under the sender, the call's settle time
    // past by the other's clock; it finds the thought absent, and delivers one of its own.
    for (const name of await readdir(join(r.stateDir, 'locks'))) if (name.startsWith('chain-')) await rm(join(r.stateDir, 'locks', name), { recursive: true });
    r.clock.now += 2 * 5_000 + 1;
    await symlink(r.stateDir, join(r.stateDir, 'other'));
    const other = createDelivery({
      memory: createMaenifoldClient(locateCli(r.double.cliPath, process.env), { ...process.env, ...r.double.env }),
      // The same outbox, whose claims this process holds; the chain and its locks under another name, so
      // this process's own queue does not order the two senders.
      outbox: createOutbox(join(r.stateDir, 'outbox'), () => r.clock.now),
      chains: createChainStore(join(r.stateDir, 'other'), { timing: { staleMs: 2_000 } }),
      logger: createLogger(r.host.client),
      timeoutMs: 5_000,
      now: () => r.clock.now,
      lockTiming: { staleMs: 2_000 },
    });
    await other.submitThought(third);
    // The stopped sender resumes: its call lands, and the lock it held is gone.
    await writeFile(go, '');
    await late;
    r.clock.now += backoffMs(1);
    await other.flush();
    expect(await pending(r.stateDir)).toEqual([]);
    const chain = await createChainStore(r.stateDir).get('demo');
    const text = await thoughtFile(r.double, chain?.sessionId as string);
    expect(text.split(second.response)).toHaveLength(2);
    expect(text.split(third.response)).toHaveLength(2);
  });

  it.runIf(mountable)('should deliver a summary once when the state folder is read-only', async ({ onTestFinished }) => {
    const mount = (await mountTmpfs(256)) as Mount;
    onTestFinished(() => mount.unmount());
    const r = await rig(onTestFinished);
    mount.remount('ro');
    const delivery = createDelivery({
      memory: createMaenifoldClient(locateCli(r.double.cliPath, process.env), { ...process.env, ...r.double.env }),
      outbox: createOutbox(join(mount.dir, 'outbox'), () => r.clock.now),
      chains: createChainStore(mount.dir),
      logger: createLogger(r.host.client),
      timeoutMs: 5_000,
      now: () => r.clock.now,
    });
    await delivery.submitThought(first);
    await delivery.flush();
    expect(await thoughtCalls(r)).toBe(1);
    expect(r.host.linesWith('the state folder refuses the chain state (EROFS)').length).toBeGreaterThan(0);
  });

  it('should keep a credential from the CLI\'s error output out of the outbox files', async ({ onTestFinished }) => {
    const r = await rig(onTestFinished);
    const secret = 'sk-ant-api03-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789';
    const leaky = join(r.stateDir, 'leaky-maenifold');
    await writeFile(leaky, `#!/bin/sh\nprintf '%s\\n' '{"success":false,"data":null,"error":{"code":"INTERNAL_ERROR","message":"upstream refused key ${secret}"}}'\n`);
    await chmod(leaky, 0o755);
    await r.delivery({}, leaky).submitNote('demo', note);
    const [name] = await pending(r.stateDir);
    const text = await readFile(join(r.stateDir, 'outbox', name as string), 'utf8');
    expect(text).toContain('[REDACTED:anthropic-key]');
    expect(text).not.toContain(secret);
  });
});
