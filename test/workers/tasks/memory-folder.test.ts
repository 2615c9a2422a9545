import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { scanMemoryFolder, type ScanOutput } from '../../../src/workers/tasks/memory-folder.js';
import { forEachStamp } from '../../../src/core/memory/file-stamps.js';
import { scratchFolders } from '../../support/scratch.js';

let root: string;

const scratch = scratchFolders('memory-scan', 'all');
beforeAll(async () => {
  root = await scratch();
  await mkdir(join(root, 'projects', 'shop'), { recursive: true });
  await mkdir(join(root, '.hidden'), { recursive: true });
  for (let index = 0; index < 40; index++) await writeFile(join(root, 'projects', 'shop', `note-${index}.md`), `# Note ${index}\n`);
  await writeFile(join(root, 'top.md'), '# Top\n');
  await writeFile(join(root, 'readme.txt'), 'not a note');
  await writeFile(join(root, '.hidden', 'secret.md'), '# hidden\n');
  await writeFile(join(root, '.wikilink-filter.json'), JSON.stringify({ Noise: 'links to it are filtered' }));
});

function uris(output: ScanOutput): string[] {
  const found: string[] = [];
  forEachStamp(output.files, (uri) => found.push(uri));
  return found;
}

describe('scanMemoryFolder', () => {
  it('should stamp every markdown note outside hidden folders', () => {
    const whole = scanMemoryFolder({ memoryDir: root });
    expect(uris(whole).sort()).toEqual(['memory://top', ...Array.from({ length: 40 }, (_, index) => `memory://projects/shop/note-${index}`)].sort());
    expect(whole.blocked).toEqual(['noise']);
  });
});
