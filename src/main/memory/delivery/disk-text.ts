/**
 * What the outbox and the chain state write to disk passes the redaction and
 * sanitizer the plugin applies to everything it injects or logs: a CLI's
 * error output kept as an entry's `lastError` may hold a credential.
 */
import { sanitizeText } from '../../../core/text/sanitize.js';
import { redactSecrets } from '../../../core/text/secrets.js';

/** One string as it may be written: sanitized, then its secrets redacted. */
export function diskText(text: string): string {
  return redactSecrets(sanitizeText(text)).text;
}

/**
 * A copy of plain JSON data with every string (object keys included) passed through {@link diskText}.
 *
 * @param value - what is about to be serialized to a state file.
 */
export function forDisk<T>(value: T): T {
  if (typeof value === 'string') return diskText(value) as T;
  if (Array.isArray(value)) return value.map((item: unknown) => forDisk(item)) as T;
  if (value !== null && typeof value === 'object') {
    // No prototype: a key named "__proto__" (a project may be) stays a key.
    const copy = Object.create(null) as Record<string, unknown>;
    for (const [key, item] of Object.entries(value)) copy[diskText(key)] = forDisk(item);
    return copy as T;
  }
  return value;
}
