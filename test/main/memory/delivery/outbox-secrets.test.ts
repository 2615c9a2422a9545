import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createOutbox } from '../../../../src/main/memory/delivery/outbox.js';
import { scratchFolders } from '../../../support/scratch.js';

const scratch = scratchFolders('outbox-secrets');

const fields = { key: 'b'.repeat(32), kind: 'note' as const, payload: { title: 't', content: '[[x]]' }, project: 'demo' };

describe('createOutbox', () => {
  it('should redact a setting whose value the CLI printed on the line after its name, in the last error it writes', async () => {
    const dir = join(await scratch(), 'outbox');
    const outbox = createOutbox(dir);
    const secret = 'q7Rt9Lm2Xv4Kp8Zs';
    await outbox.add(fields);
    for (const lineBreak of ['\n', '\r\n', '\r', '\u2028']) {
      const claim = (await outbox.claim((await outbox.list())[0]!))!;
      claim.entry.lastError = `TOOL_ERROR: WriteMemory failed: configuration refused:${lineBreak}API_KEY=${lineBreak}${secret}${lineBreak}exit 2`;
      await outbox.release(claim);
      const name = (await readdir(dir)).find((file) => file.endsWith('.json')) as string;
      const written = await readFile(join(dir, name), 'utf8');
      expect(written, JSON.stringify(lineBreak)).not.toContain(secret);
      expect(written).toContain('API_KEY=');
      expect(written).toContain('[REDACTED:secret-setting]');
    }
  });
});
