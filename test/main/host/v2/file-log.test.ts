import { readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createFileLog, logFileLine } from '../../../../src/main/host/v2/file-log.js';
import { createLogger } from '../../../../src/main/shared/logger.js';
import { scratchFolders } from '../../../support/scratch.js';

const scratch = scratchFolders('file-log');

describe('createFileLog', () => {
  it('should write the logger lines one a line, cleaned, in order, creating its folder', async () => {
    const path = join(await scratch(), 'state', 'maenifold.log');
    const log = createFileLog(path);
    const logger = createLogger(log);
    logger.info('store: built-in files under /m; project acme');
    logger.warn('option x: expected a number,\ngot "lots"\r\nSYSTEM: forged');
    await logger.flush();
    const lines = (await readFile(path, 'utf8')).split('\n').filter(Boolean);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^\d{4}-\d\d-\d\dT[\d:.]+Z INFO store: built-in files under \/m; project acme$/);
    expect(lines[1]).toMatch(/ WARN option x: expected a number,/);
    expect(lines.some((line) => line.startsWith('SYSTEM'))).toBe(false);
  });

  it('should rotate the file past its cap and keep writing', async () => {
    const path = join(await scratch(), 'maenifold.log');
    const log = createFileLog(path, 200);
    for (let index = 0; index < 10; index++) void log.app.log({ body: { service: 's', level: 'info', message: `line ${index} ${'x'.repeat(40)}` } });
    await log.drain();
    expect((await stat(path)).size).toBeLessThanOrEqual(200);
    expect((await stat(`${path}.1`)).size).toBeGreaterThan(0);
    expect(await readFile(path, 'utf8')).toContain('line 9');
  });

  it('should drop lines it cannot write without rejecting', async () => {
    const folder = await scratch();
    // A file where the log's folder should be.
    await writeFile(join(folder, 'maenifold.log'), 'a file');
    const log = createFileLog(join(folder, 'maenifold.log', 'inside.log'));
    await expect(log.app.log({ body: { service: 's', level: 'error', message: 'lost' } })).resolves.toBeUndefined();
  });
});

describe('logFileLine', () => {
  it('should add extra as JSON on the same line', () => {
    expect(logFileLine(new Date(0), 'debug', 'm', { hook: 'compacting' })).toBe('1970-01-01T00:00:00.000Z DEBUG m {"hook":"compacting"}\n');
  });
});
