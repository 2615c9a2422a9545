import { describe, expect, it } from 'vitest';
import { createSpawnThread } from '../../../../src/main/memory/cli/spawn-thread.js';

const node = process.execPath;

describe('createSpawnThread', () => {
  it('should start programs from its thread and answer with their outcome', async () => {
    const spawner = createSpawnThread();
    try {
      const outcome = await spawner.run(node, ['-e', 'process.stdout.write(process.argv[1])', 'a "b" $(c)'], { timeoutMs: 10_000, maxStdoutBytes: 1024 });
      expect(outcome).toMatchObject({ kind: 'exited', code: 0, stdout: 'a "b" $(c)' });
      expect({ answered: spawner.answered, inline: spawner.inline }).toEqual({ answered: 1, inline: 0 });
    } finally {
      await spawner.close();
    }
  });

  it('should start its thread before any run when asked', async () => {
    const spawner = createSpawnThread();
    try {
      expect(spawner.running).toBe(false);
      spawner.start();
      expect(spawner.running).toBe(true);
      const outcome = await spawner.run(node, ['-e', 'process.stdout.write("ok")'], { timeoutMs: 10_000, maxStdoutBytes: 64 });
      expect(outcome).toMatchObject({ kind: 'exited', stdout: 'ok' });
      expect(spawner.answered).toBe(1);
    } finally {
      await spawner.close();
    }
  });

  it('should keep the deadline, the output cap and the abort from its thread', async () => {
    const spawner = createSpawnThread();
    try {
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 200);
      const [late, flood, aborted] = await Promise.all([
        spawner.run(node, ['-e', 'setInterval(() => {}, 1000)'], { timeoutMs: 300, maxStdoutBytes: 10 }),
        spawner.run(node, ['-e', 'const b = "x".repeat(65536); for (;;) process.stdout.write(b);'], { timeoutMs: 20_000, maxStdoutBytes: 70_000 }),
        spawner.run(node, ['-e', 'setInterval(() => {}, 1000)'], { timeoutMs: 30_000, maxStdoutBytes: 10, signal: controller.signal }),
      ]);
      expect(late.kind).toBe('timeout');
      expect(flood).toMatchObject({ kind: 'output-too-large' });
      expect((flood as { stdout: string }).stdout.length).toBe(70_000);
      expect(aborted.kind).toBe('timeout');
      expect(spawner.answered).toBe(3);
    } finally {
      await spawner.close();
    }
  });

  it("should run programs on the caller's thread when its thread cannot start", async () => {
    const spawner = createSpawnThread({ filename: new URL('file:///nonexistent/spawn-worker.mjs') });
    try {
      const first = await spawner.run(node, ['-e', 'process.stdout.write("one")'], { timeoutMs: 10_000, maxStdoutBytes: 64 });
      const second = await spawner.run(node, ['-e', 'process.stdout.write("two")'], { timeoutMs: 10_000, maxStdoutBytes: 64 });
      expect([first, second]).toMatchObject([{ kind: 'exited', stdout: 'one' }, { kind: 'exited', stdout: 'two' }]);
      expect({ answered: spawner.answered, inline: spawner.inline }).toEqual({ answered: 0, inline: 2 });
    } finally {
      await spawner.close();
    }
  });
});
