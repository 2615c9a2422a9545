/**
 * Refusals and path validation shared by the file store's operations, with
 * maenifold's error codes.
 */
import type { MemoryError } from '../memory-port.js';

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
export function fail(code: MemoryError['code'], message: string, toolCode?: string): { ok: false; error: MemoryError } {
  return { ok: false, error: toolCode ? { code, message, toolCode } : { code, message } };
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
