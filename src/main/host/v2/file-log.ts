/**
 * The plugin's own log file on OpenCode 2.x, which gives plugins no logger
 * (`ctx.app` has none). The lines are the ones 1.x's log gets, cleaned the
 * same way by the logger before they arrive here; one line each:
 * `<ISO time> <LEVEL> <message>[ <extra as JSON>]`. Writes are queued one
 * after another, never throw, and the file is rotated once it passes its cap,
 * so a plugin that runs for months keeps at most two files.
 */
import { appendFile, mkdir, rename, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { LogClient, LogLevel } from '../../shared/logger.js';

/** Bytes past which the file is renamed to `<file>.1` (the older `.1` is replaced). */
export const LOG_FILE_MAX_BYTES = 8 * 1024 * 1024;

/** A log client that writes to a file, and a way to wait for what was queued. */
export interface FileLog extends LogClient {
  readonly path: string;
  /** Resolves once every line queued so far is written (or dropped). */
  drain(): Promise<void>;
}

/** One line of the file. */
export function logFileLine(time: Date, level: LogLevel, message: string, extra?: Record<string, unknown>): string {
  const tail = extra && Object.keys(extra).length > 0 ? ` ${JSON.stringify(extra)}` : '';
  return `${time.toISOString()} ${level.toUpperCase()} ${message}${tail}\n`;
}

/**
 * @param path - the log file.
 * @param maxBytes - the rotation cap. @default LOG_FILE_MAX_BYTES
 */
export function createFileLog(path: string, maxBytes = LOG_FILE_MAX_BYTES): FileLog {
  let queue: Promise<void> = Promise.resolve();
  let written = -1;
  async function write(line: string): Promise<void> {
    try {
      if (written < 0) {
        await mkdir(dirname(path), { recursive: true });
        written = await stat(path).then(
          (info) => info.size,
          () => 0,
        );
      }
      if (written + line.length > maxBytes && written > 0) {
        // Another process may have rotated it already: a failed rename only means the file moved.
        await rename(path, `${path}.1`).catch(() => undefined);
        written = 0;
      }
      await appendFile(path, line, 'utf8');
      written += Buffer.byteLength(line);
    } catch {
      // A log that cannot be written is dropped; the hook goes on.
      written = -1;
    }
  }
  return {
    path,
    app: {
      log({ body }) {
        const line = logFileLine(new Date(), body.level, body.message, body.extra);
        queue = queue.then(() => write(line));
        return queue;
      },
    },
    drain: () => queue,
  };
}
