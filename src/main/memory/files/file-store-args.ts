/**
 * Payload readers and validation shared by the file store's tools, with
 * maenifold's error codes.
 */
import type { CliError } from '../cli/maenifold-client.js';

/** A refusal with maenifold's own code (`WIKILINK_REQUIRED`, `SESSION_MISSING`, …). */
export class ToolError extends Error {
  constructor(
    readonly toolCode: string,
    message: string,
  ) {
    super(message);
  }
}

/** A failed call as a value. */
export function fail(code: CliError['code'], message: string, toolCode?: string): { ok: false; error: CliError } {
  return { ok: false, error: toolCode ? { code, message, toolCode } : { code, message } };
}

/** A string parameter, or undefined; `INVALID_ARGUMENT` when it is not a string or is required and missing. */
export function text(payload: Record<string, unknown>, key: string, required = false): string | undefined {
  const value = payload[key];
  if (value === undefined || value === null) {
    if (required) throw new ToolError('INVALID_ARGUMENT', `Missing required parameter '${key}'`);
    return undefined;
  }
  if (typeof value !== 'string') throw new ToolError('INVALID_ARGUMENT', `Parameter '${key}' must be a string`);
  return value;
}

/** An integer parameter, or `fallback`. */
export function integer(payload: Record<string, unknown>, key: string, fallback: number): number {
  const value = payload[key];
  if (value === undefined || value === null) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value)) throw new ToolError('INVALID_ARGUMENT', `Parameter '${key}' must be an integer`);
  return value;
}

/** A relative path without `.` or `..` segments, with `/` separators. */
export function validateRelativePath(value: string, what: string): string {
  const normalized = value.replace(/\\/g, '/');
  if (normalized.startsWith('/') || /^[A-Za-z]:/.test(normalized)) {
    throw new ToolError('PATH_VALIDATION_ERROR', `Invalid ${what} - Absolute paths are not allowed. Use relative paths only.`);
  }
  if (normalized.split('/').some((segment) => segment === '..' || segment === '.')) {
    throw new ToolError('PATH_VALIDATION_ERROR', `Invalid ${what} - Path traversal components ('.' and '..') are not allowed.`);
  }
  return normalized.replace(/^\/+|\/+$/g, '');
}

/** .NET TimeSpan text (`d`, `hh:mm[:ss]`, `d.hh:mm:ss`) in ms, or undefined. */
export function parseTimeSpan(value: string): number | undefined {
  const m = /^\s*(?:(\d+)|(?:(\d+)\.)?(\d{1,2}):(\d{1,2})(?::(\d{1,2})(?:\.(\d{1,7}))?)?)\s*$/.exec(value);
  if (!m) return undefined;
  if (m[1] !== undefined) return Number(m[1]) * 86_400_000;
  const [days, hours, minutes, seconds] = [m[2], m[3], m[4], m[5]].map((part) => Number(part ?? 0)) as [number, number, number, number];
  if (hours > 23 || minutes > 59 || seconds > 59) return undefined;
  return (((days * 24 + hours) * 60 + minutes) * 60 + seconds) * 1000 + (m[6] ? Number(`0.${m[6]}`) * 1000 : 0);
}


