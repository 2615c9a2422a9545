import { describe, expect, it, vi } from 'vitest';
import { runProcess } from '../../../../src/main/memory/cli/process-runner.js';
import { holdSpawnThread, sharedSpawnThread } from '../../../../src/main/memory/cli/spawn-thread.js';
import { alive } from '../../../support/hanging-cli.js';

const node = process.execPath;

describe('runProcess', () => {
  it('should pass arguments without a shell and collect output', async () => {
    const outcome = await runProcess(node, ['-e', 'process.stdout.write(process.argv[1]); process.stderr.write("diag")', '$(touch /tmp/x) "; rm -rf /'], {
      timeoutMs: 10_000,
      maxStdoutBytes: 1024,
    });
    expect(outcome).toMatchObject({ kind: 'exited', code: 0, stdout: '$(touch /tmp/x) "; rm -rf /', stderr: 'diag' });
  });

  it('should start programs from the spawn thread under Node while it is held, and stop the thread at the last release', async () => {
    const release = holdSpawnThread();
    const thread = sharedSpawnThread();
    try {
      const outcome = await runProcess(node, ['-e', 'process.stdout.write("ok")'], { timeoutMs: 10_000, maxStdoutBytes: 64 });
      expect(outcome).toMatchObject({ kind: 'exited', stdout: 'ok' });
      expect({ answered: thread?.answered, inline: thread?.inline }).toEqual({ answered: 1, inline: 0 });
    } finally {
      await release();
    }
    expect(thread?.running).toBe(false);
    expect(sharedSpawnThread()).toBeNull();
  });

  it('should kill a process past its deadline, with what it started, and leave nothing running', async () => {
    const script = 'const { spawn } = require("node:child_process"); const c = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { stdio: "ignore" }); console.log(c.pid); setInterval(() => {}, 1000);';
    const outcome = await runProcess(node, ['-e', script], { timeoutMs: 1_500, maxStdoutBytes: 1024 });
    expect(outcome.kind).toBe('timeout');
    const grandchild = Number((outcome as { stdout: string }).stdout.trim());
    expect(grandchild).toBeGreaterThan(0);
    // The group was killed; the kernel takes a moment to end the grandchild and let it be reaped.
    await vi.waitFor(() => expect(alive(grandchild)).toBe(false), { timeout: 10_000, interval: 10 });
  });

  it('should stop a process that prints more than the cap', async () => {
    const outcome = await runProcess(node, ['-e', 'const b = "x".repeat(65536); for (;;) process.stdout.write(b);'], { timeoutMs: 20_000, maxStdoutBytes: 100_000 });
    expect(outcome.kind).toBe('output-too-large');
    expect((outcome as { stdout: string }).stdout.length).toBe(100_000);
  });

  it('should report a program that cannot start', async () => {
    expect((await runProcess('/nonexistent/maenifold', [], { timeoutMs: 1_000, maxStdoutBytes: 10 })).kind).toBe('spawn-failed');
  });

  it('should stop when the caller aborts', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 300);
    const outcome = await runProcess(node, ['-e', 'setInterval(() => {}, 1000)'], { timeoutMs: 30_000, maxStdoutBytes: 10, signal: controller.signal });
    expect(outcome.kind).toBe('timeout');
  });
});
