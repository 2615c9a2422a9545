/**
 * A seeded memory folder for the file store's benchmark: `count` notes of
 * about 5 KB each in maenifold's layout, with WikiLinks drawn from a
 * vocabulary whose frequencies fall off (a few common concepts, a long tail),
 * prose, lists and code blocks. Generated once into the temp folder and reused.
 */
import { existsSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPrng } from '../src/synth/prng.js';
import { formatFrontmatter } from '../src/core/memory/memory-format.js';

const WORDS = 'the cache layer stores sessions while the gateway routes each request to a worker pool that keeps state for later reads and writes under load'.split(' ');

/**
 * @param count - notes.
 * @param seed - the generator's seed.
 * @returns the root (its `memory/` holds the notes) and the most common concept.
 */
export async function memoryFolder(count: number, seed = 7): Promise<{ root: string; bytes: number; commonConcept: string }> {
  const root = join(tmpdir(), 'opencode-maenifold-bench', `memory-${count}-s${seed}`);
  const marker = join(root, '.complete');
  const random = createPrng(seed);
  const concepts = Array.from({ length: 2_000 }, (_, index) => `concept-${index}`);
  // Zipf-like: index ~ 2000^u - 1 puts most links on the first concepts.
  const pick = (): string => concepts[Math.min(concepts.length - 1, Math.floor(concepts.length ** random()) - 1)] ?? 'concept-0';
  let bytes = 0;
  if (!existsSync(marker)) {
    await rm(root, { recursive: true, force: true });
    for (let index = 0; index < count; index++) {
      const folder = join(root, 'memory', 'notes', String(index % 100).padStart(2, '0'));
      if (index < 100) await mkdir(folder, { recursive: true });
      const title = `Note ${index}`;
      const sections: string[] = [];
      while (sections.join('\n').length < 4_800) {
        const prose = Array.from({ length: 40 }, () => WORDS[Math.floor(random() * WORDS.length)]).join(' ');
        const links = Array.from({ length: 2 }, () => `[[${pick()}]]`).join(' and ');
        sections.push(`## Section ${sections.length + 1}\n\n${prose} with ${links}.\n\n- item about ${links}\n\n\`\`\`ts\nconst link = "[[in-code]]";\n\`\`\`\n`);
      }
      const text = `${formatFrontmatter({ title, permalink: `note-${index}`, type: 'memory', status: 'saved', created: '2026-01-01T00:00:00.000Z', modified: '2026-01-01T00:00:00.000Z', tags: [] })}# ${title}\n\n${sections.join('\n')}`;
      await writeFile(join(folder, `note-${index}.md`), text);
    }
    await writeFile(marker, '');
  }
  const { stat, readdir } = await import('node:fs/promises');
  for (const name of await readdir(join(root, 'memory'), { recursive: true })) {
    if (name.endsWith('.md')) bytes += (await stat(join(root, 'memory', name))).size;
  }
  return { root, bytes, commonConcept: 'concept-0' };
}
