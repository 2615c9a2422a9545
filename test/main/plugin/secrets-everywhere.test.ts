import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../../support/plugin-harness.js';
import { filePool } from '../../support/file-pool.js';
import { message } from '../../../support/fake-host.js';
import { truePositives, type SecretCase } from '../../fixtures/secrets/corpus.js';

const pool = filePool();
let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

type Tool = { execute(args: Record<string, unknown>, context: { sessionID: string }): Promise<string> };

/** Every file under `dir`, as text. */
async function filesUnder(dir: string): Promise<string[]> {
  const texts: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) texts.push(...(await filesUnder(path)));
    else if (entry.isFile()) texts.push(await readFile(path, 'utf8'));
  }
  return texts;
}

/** URL-like tool paths that carry a secret: in the password of a URL, and as a query setting. */
function pathsWith(secret: string): string[] {
  const paths = [`https://api.example.com/v1/export?api_key=${secret}&page=2`];
  if (!/[\s/@]/.test(secret)) paths.push(`https://x-access-token:${secret}@git.example.com/acme/shop.git`);
  return paths;
}

function groups<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let index = 0; index < items.length; index += size) out.push(items.slice(index, index + size));
  return out;
}

describe('secrets in frame goals, results and tool paths', () => {
  it('should reach no file, no log line, no CLI call and no injected text', async () => {
    const cases = truePositives();
    const secrets = cases.flatMap((secretCase) => secretCase.secrets);
    harness = await startHarness({ rules: false }, {}, undefined, { pool: pool() });
    const h = harness;
    const tools = h.plugin.hooks.tool as Record<string, Tool>;
    const seen: string[] = [];
    const record = (text: unknown): void => void seen.push(typeof text === 'string' ? text : JSON.stringify(text));

    // Frame goals, criteria and results that quote secrets, a few cases per frame.
    const frames = groups<SecretCase>(cases, 5);
    for (const [index, group] of frames.entries()) {
      const child = `ses_child_${index + 1}`;
      const [first, second, ...rest] = group;
      record(await tools['flame_push']!.execute({ goal: `Rotate the [[deploy]] credentials: ${first?.text}`, successCriteria: `no more ${second?.text ?? ''}` }, { sessionID: 'ses_root' }));
      // Tools of the frame's session touched URL-like paths with tokens: they become its artifacts.
      for (const secret of group.flatMap((secretCase) => secretCase.secrets)) {
        for (const path of pathsWith(secret)) {
          await h.plugin.hooks['tool.execute.after']?.({ tool: 'read', sessionID: child, callID: 'c', args: { filePath: path } }, { title: 'read', output: 'ok', metadata: {} });
        }
      }
      record(await tools['flame_status']!.execute({}, { sessionID: child }));
      const compacting = { context: [] as string[] };
      await h.plugin.hooks['experimental.session.compacting']?.({ sessionID: child }, compacting);
      record(compacting.context);
      h.host.setMessages(child, []);
      record(await tools['flame_pop']!.execute({ status: 'completed', results: `Rotated. Old values: ${rest.map((secretCase) => secretCase.text).join(' ; ')}` }, { sessionID: 'ses_root' }));
      await h.plugin.background.idle();
    }

    // A session whose tool calls name the same paths is compacted: working set, note and context.
    const toolParts = secrets.flatMap(pathsWith).map((path) => ({ type: 'tool', tool: 'read', state: { status: 'completed', input: { filePath: path }, output: 'ok' } }));
    h.host.setMessages('ses_root', [
      message('m1', 'user', '## Plan\nWe decided to use [[Redis]] for the [[cache layer]] because every node shares it.'),
      message('m2', 'assistant', '## Result\nRead the exports of the [[cache layer]].', {}, toolParts),
      message('m3', 'assistant', '## Summary\n- the [[cache-layer]] is done', { summary: true }),
    ]);
    for (const path of secrets.flatMap(pathsWith)) {
      await h.plugin.hooks['tool.execute.after']?.({ tool: 'read', sessionID: 'ses_root', callID: 'c', args: { filePath: path } }, { title: 'read', output: 'ok', metadata: {} });
    }
    const compaction = { context: [] as string[] };
    await h.plugin.hooks['experimental.session.compacting']?.({ sessionID: 'ses_root' }, compaction);
    record(compaction.context);
    await h.plugin.hooks.event?.({ event: { type: 'session.compacted', properties: { sessionID: 'ses_root' } } });
    const system = { system: ['You are the build agent.'] };
    await h.plugin.hooks['experimental.chat.system.transform']?.({ sessionID: 'ses_root', model: { id: 'gpt-4o' } }, system);
    record(system.system);
    record(await tools['flame_status']!.execute({}, { sessionID: 'ses_root' }));
    await h.plugin.background.idle();
    await h.plugin.logger.flush();

    const injected = seen.join('\n');
    const stored = [...(await filesUnder(h.stateDir)), ...(await filesUnder(h.double.root))].join('\n');
    const logged = JSON.stringify(h.host.logs);
    const titles = JSON.stringify(h.host.created);
    // What was checked is really there: the frames, their results and artifacts, the working set, the note.
    expect(injected).toContain('## Finished sub-goals (summaries)');
    expect(injected).toContain('Results: Rotated. Old values:');
    expect(injected).toMatch(/Artifacts: .*https:\/api\.example\.com\/v1\/export\?api_key=\[REDACTED:/);
    expect(injected).toContain('## Working context');
    expect(stored).toContain('Rotate the [[deploy]] credentials');
    // The compaction note lists the paths, with brackets dropped as the note writes them.
    expect(stored).toMatch(/## Working Set\n\n(?:- .*\n)*- https:\/api\.example\.com\/v1\/export\?api_key=REDACTED:/);
    expect(logged).toContain('frames: pushed frame');
    expect(secrets.length).toBeGreaterThanOrEqual(40);
    const leaks = (where: string, text: string): string[] => secrets.filter((secret) => text.includes(secret)).map((secret) => `${where}: ${secret.slice(0, 12)}…`);
    const leaked = [...leaks('injected', injected), ...leaks('stored', stored), ...leaks('logged', logged), ...leaks('session title', titles)];
    expect(leaked).toEqual([]);
  });
});
