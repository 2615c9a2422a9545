import { readdir, readFile, rm } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, onTestFinished } from 'vitest';
import { buildCompactionNote } from '../../../src/main/compaction/compaction-note.js';
import { createChainStore } from '../../../src/main/memory/delivery/chain-store.js';
import { createOutbox } from '../../../src/main/memory/delivery/outbox.js';
import { sessionUri } from '../../../src/core/memory/memory-format.js';
import { locateCli } from '../../../src/main/memory/cli/cli-locator.js';
import { createMaenifoldClient } from '../../../src/main/memory/cli/maenifold-client.js';
import type { Extraction } from '../../../src/main/compaction/extraction-engine.js';
import { createDoubleRoot } from '../../../support/maenifold-double.js';
import { scratchFolders } from '../../support/scratch.js';
import { filePool } from '../../support/file-pool.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const scratch = scratchFolders('security', 'all');
const pool = filePool();

async function sources(dir: string): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) found.push(...(await sources(path)));
    else if (/\.(ts|mjs|js)$/.test(entry.name)) found.push(path);
  }
  return found;
}

const extraction = { concepts: [{ name: 'redis', count: 1 }], decisions: [], files: [] } as unknown as Extraction;
const HOSTILE = ['../../etc/passwd', '/etc/shadow', 'C:\\Windows\\system32', 'a\u0000b', '..', 'x/../../y', '__proto__', '$(rm -rf ~)', '`id`', "'; DROP TABLE x; --"];

describe('no shell', () => {
  it('should spawn processes only with argv arrays, never through a shell', async () => {
    const offenders: string[] = [];
    for (const file of [...(await sources(join(root, 'src'))), ...(await sources(join(root, 'plugin')))]) {
      const text = await readFile(file, 'utf8');
      for (const pattern of [/shell:\s*true/, /\$`/, /\bBun\.\$/, /import\s*\{[^}]*\b(?:exec|execSync|execFile|execFileSync|spawnSync)\b[^}]*\}\s*from\s*'node:child_process'/]) {
        if (pattern.test(text)) offenders.push(`${relative(root, file)} ${pattern}`);
      }
      // One module starts processes under Node (Bun's spawn is in process-runner.ts).
      if (/from\s*'node:child_process'/.test(text) && !file.endsWith('node-spawn.ts')) offenders.push(`${relative(root, file)} imports node:child_process`);
    }
    expect(offenders).toEqual([]);
  });
});

describe('paths built from names the plugin does not control', () => {
  it('should keep hostile project names and session ids out of note titles, folders and tags', () => {
    for (const name of HOSTILE) {
      const note = buildCompactionNote(name, name, extraction, new Date(2026, 10, 22));
      expect(note.folder).toMatch(/^sessions\/compaction\/[a-z0-9-]+-[0-9a-f]{8}$/);
      expect(note.tags[3]).toMatch(/^[a-z0-9-]+-[0-9a-f]{8}$/);
      expect(note.title).not.toMatch(/\.\.|[/\\\u0000]/);
      expect(note.tags[2]).toMatch(/^[\p{L}\p{N}\p{M}-]+$/u);
    }
  });

  it('should write hostile-named notes inside the memory root', async () => {
    const double = await createDoubleRoot();
    onTestFinished(() => double.cleanup());
    const cli = createMaenifoldClient(locateCli(double.cliPath, process.env), { ...process.env, ...double.env });
    for (const name of HOSTILE) {
      const written = await cli.writeNote(buildCompactionNote(name, name, extraction, new Date()), { timeoutMs: 10_000 });
      expect(written.ok).toBe(true);
      const uri = (written as { value: { uri: string } }).value.uri;
      expect(uri).toMatch(/^memory:\/\/sessions\/compaction\/[a-z0-9-]+-[0-9a-f]{8}\/[a-z0-9-]+$/);
    }
  });

  it('should only derive chain paths from well-formed session ids', () => {
    expect(sessionUri('session-1795386152007-79456')).toBe('memory://thinking/sequential/2026/11/22/session-1795386152007-79456');
    for (const id of ['../../x', 'session-1-1/../../y', 'session-abc-1', 'session-1795386152007-1\u0000', '/abs']) expect(sessionUri(id)).toBeNull();
  });

  it('should keep project names as plain keys of the chain store', async () => {
    const dir = await scratch();
    const store = createChainStore(dir);
    for (const [index, name] of ['__proto__', 'constructor', '../x'].entries()) {
      await store.set(name, { sessionId: `session-1-${index}`, thoughtNumber: index, updatedAt: '' });
    }
    expect(await store.get('__proto__')).toMatchObject({ thoughtNumber: 0 });
    expect(await store.get('constructor')).toMatchObject({ thoughtNumber: 1 });
    expect(await store.get('toString')).toBeNull();
    // The lock folder of the state, emptied when each change ends; nothing named after a project.
    expect((await readdir(dir)).sort()).toEqual(['locks', 'summary-chains.json']);
    expect(await readdir(join(dir, 'locks'))).toEqual([]);
  });

  it('should name outbox files by hex keys only', async () => {
    const dir = await scratch();
    const outbox = createOutbox(join(dir, 'outbox'));
    await expect(outbox.add({ key: '../../escape', kind: 'note', payload: {}, project: 'p' })).rejects.toThrow(/hex/);
    await outbox.add({ key: 'ab'.repeat(16), kind: 'note', payload: {}, project: '../../p' });
    expect((await readdir(join(dir, 'outbox'))).filter((name) => name.endsWith('.json'))).toEqual([expect.stringMatching(/^\d{15}-(ab){16}\.json$/)]);
  });
});

describe('secrets in a conversation', () => {
  it('should reach neither the compaction prompt nor the graph', async () => {
    const { startHarness } = await import('../../support/plugin-harness.js');
    const { message } = await import('../../../support/fake-host.js');
    const { truePositives } = await import('../../fixtures/secrets/corpus.js');
    const cases = truePositives();
    // No session context: it reads the graph at start, and only what the compaction writes is looked at here.
    const harness = await startHarness({ sessionStart: false }, {}, undefined, { pool: pool() });
    try {
      const leaks = cases.map((secretCase) => secretCase.text).join('\n');
      const messages = [
        message('m1', 'user', `## Setup\nWe decided to use [[Redis]] for the [[cache layer]] because every node shares it.\n${leaks}`),
        message('m2', 'assistant', '## Result\nDone: the [[cache layer]] works. We decided to keep OPENAI_API_KEY out of git because it leaked once.', {}, [
          { type: 'tool', tool: 'bash', state: { status: 'completed', input: { command: 'cat .env' }, output: `${leaks}\nError: ${cases[0]?.text}` } },
        ]),
        message('m3', 'user', 'compact', {}, [{ type: 'compaction', auto: false }]),
        message('m4', 'assistant', `## Objective\n- keep the [[cache-layer]] fast\n${leaks}`, { summary: true }),
      ];
      harness.host.setMessages('ses_leaky', messages);
      const output = { context: [] as string[] };
      await harness.plugin.hooks['experimental.session.compacting']?.({ sessionID: 'ses_leaky' }, output);
      await harness.plugin.hooks.event?.({ event: { type: 'session.compacted', properties: { sessionID: 'ses_leaky' } } });
      await harness.plugin.background.idle();
      const persisted = JSON.stringify(await harness.double.calls());
      const injected = output.context.join('\n');
      expect(injected).toContain('[[redis]]');
      expect(persisted).toContain('SequentialThinking');
      const leaked = cases.flatMap((secretCase) => secretCase.secrets).filter((secret) => injected.includes(secret) || persisted.includes(secret));
      expect(leaked).toEqual([]);
    } finally {
      await harness.close();
    }
  });
});
