/**
 * Log lines through the host (`client.app.log`, service `maenifold-plugin`),
 * never awaited by a hook and never thrown from: a log that fails is dropped.
 * Lines leave the plugin, so each is one line, capped, and without secrets
 * (a CLI error, an option's value or a goal may quote one, and a line break
 * in any of them would forge a line of its own); strings in `extra` too.
 */
import { redactedLine } from '../../core/text/secrets.js';

/** The levels `client.app.log` takes. */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

/** What the plugin needs of the host client to log. */
export interface LogClient {
  app: {
    log(options: { body: { service: string; level: LogLevel; message: string; extra?: Record<string, unknown> } }): Promise<unknown>;
  };
}

/** The plugin's logger. */
export interface Logger {
  log(level: LogLevel, message: string, extra?: Record<string, unknown>): void;
  debug(message: string, extra?: Record<string, unknown>): void;
  info(message: string, extra?: Record<string, unknown>): void;
  warn(message: string, extra?: Record<string, unknown>): void;
  error(message: string, extra?: Record<string, unknown>): void;
  /** Resolves when every line sent so far has been handed to the host. */
  flush(): Promise<void>;
  /** A logger whose lines carry `extra` too (`{ hook: "compacting" }`: a log view can keep one hook's lines). */
  with(extra: Record<string, unknown>): Logger;
}

/**
 * What a caught value says, for a log line: an error's message, or the value as text.
 *
 * @param error - anything thrown or rejected.
 */
export function errorText(error: unknown): string {
  return (error as Error)?.message ?? String(error);
}

/** The service name every line carries. */
export const LOG_SERVICE = 'maenifold-plugin';

/** Longest line sent; past it the line is cut. */
export const MAX_LOG_LINE_CHARS = 4_000;

function clean(text: string): string {
  return redactedLine(text, MAX_LOG_LINE_CHARS);
}

/** How deep `extra` is cleaned; anything deeper is left out. */
const MAX_EXTRA_DEPTH = 4;

function cleanValue(value: unknown, depth: number): unknown {
  if (typeof value === 'string') return clean(value);
  if (typeof value !== 'object' || value === null) return value;
  if (depth >= MAX_EXTRA_DEPTH) return '[...]';
  if (Array.isArray(value)) return value.map((item) => cleanValue(item, depth + 1));
  return cleanExtra(value as Record<string, unknown>, depth + 1);
}

function cleanExtra(extra: Record<string, unknown>, depth = 0): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(extra)) out[clean(key)] = cleanValue(value, depth);
  return out;
}

/**
 * @param client - the host client; `undefined` logs nowhere.
 */
export function createLogger(client: LogClient | undefined): Logger {
  return loggerWith(client, new Set<Promise<unknown>>(), undefined);
}

function loggerWith(client: LogClient | undefined, pending: Set<Promise<unknown>>, base: Record<string, unknown> | undefined): Logger {
  const log = (level: LogLevel, message: string, lineExtra?: Record<string, unknown>): void => {
    if (!client) return;
    let sent: Promise<unknown>;
    try {
      const extra = base || lineExtra ? cleanExtra({ ...base, ...lineExtra }) : undefined;
      sent = Promise.resolve(client.app.log({ body: { service: LOG_SERVICE, level, message: clean(String(message)), ...(extra ? { extra } : {}) } }));
    } catch {
      // The host's logger failed synchronously: the line is dropped, the hook goes on.
      return;
    }
    const tracked = sent.catch(() => undefined).finally(() => pending.delete(tracked));
    pending.add(tracked);
  };
  return {
    log,
    debug: (message, extra) => log('debug', message, extra),
    info: (message, extra) => log('info', message, extra),
    warn: (message, extra) => log('warn', message, extra),
    error: (message, extra) => log('error', message, extra),
    flush: async () => {
      await Promise.all([...pending]);
    },
    with: (extra) => loggerWith(client, pending, { ...base, ...extra }),
  };
}
