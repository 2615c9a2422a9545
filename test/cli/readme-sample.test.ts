import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { describe, expect, inject, it } from 'vitest';
import { BEGIN_MARKER, currentExcerpt, END_MARKER, quickStartExcerpt, runQuickStart, withExcerpt } from '../../src/cli/readme-sample.js';
import { runProcess } from '../../src/main/memory/cli/process-runner.js';

const README = fileURLToPath(new URL('../../README.md', import.meta.url));

describe('quickStartExcerpt', () => {
  it('should keep the summary lines and the first lines of each quoted section, marking what is left out', () => {
    const output = [
      'Session: s', 'Messages: 2', '',
      '── Concepts (1) ──', '', '[[redis]] ×2', '',
      '── Decisions (1) ──', '', 'implementation:', '  - Switched to Redis', '', '── Working set (1) ──', '  src/a.ts', '',
      '── Preservation context: 10 / 500 tokens (exact) ──', '', '## Session knowledge to preserve', '### Decisions', '- Switched to Redis', '',
      '== File store: /tmp/maenifold-preview-Ab12Cd/memory',
    ].join('\n');
    const excerpt = quickStartExcerpt(output);
    expect(excerpt.split('\n').slice(0, 2)).toEqual(['Session: s', 'Messages: 2']);
    expect(excerpt).toContain('── Concepts (1) ──\n\n[[redis]] ×2\n…');
    expect(excerpt).toContain('  - Switched to Redis');
    expect(excerpt).not.toContain('Working set');
    expect(excerpt).not.toContain('/tmp/');
  });
});

describe('withExcerpt', () => {
  it('should replace only what stands between the markers, and refuse a README without them', () => {
    const readme = `before\n${BEGIN_MARKER}\nold\n${END_MARKER}\nafter\n`;
    const next = withExcerpt(readme, 'new lines');
    expect(next).toBe(`before\n${BEGIN_MARKER}\n\`\`\`\nnew lines\n\`\`\`\n${END_MARKER}\nafter\n`);
    expect(currentExcerpt(next)).toBe('new lines');
    expect(() => withExcerpt('no markers', 'x')).toThrow(/quick-start-output/);
  });
});

/**
 * What `npm start` prints: the script's bundle when the global setup built one (test-bundles.ts: the same
 * sources, and a pool whose workers start from a bundle too, where `runQuickStart` starts them through tsx),
 * else the script as `npm run readme:sample` runs it.
 */
async function quickStartOutput(): Promise<string> {
  const bundle = inject('processBundles')?.['src/cli/preview.ts'];
  if (!bundle) return runQuickStart();
  // On one worker thread, not warmed up: the quoted lines do not depend on how the pool ran.
  const run = await runProcess(process.execPath, [bundle, '--threads', '1', '--no-warm-up'], { timeoutMs: 180_000, maxStdoutBytes: 16 * 1024 * 1024 });
  expect(run).toMatchObject({ kind: 'exited', code: 0 });
  return (run as { stdout: string }).stdout;
}

describe('the README Quick start', () => {
  it('should quote what npm start prints today, word for word', async () => {
    const excerpt = quickStartExcerpt(await quickStartOutput());
    const quoted = currentExcerpt(await readFile(README, 'utf8'));
    expect(quoted, 'run `npm run readme:sample` to write the README block again').toBe(excerpt);
  });
});
