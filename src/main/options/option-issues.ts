/**
 * A rejected option value, and its log line. The type lives with the options
 * so that the pool's own option table reports in it without the options
 * reaching into the pool. The line is kept apart from resolving, because the
 * wording is what users read (the README quotes it) and the pool's issues
 * are worded by the same function.
 *
 * The line quotes what was given, and what was given may be a credential put
 * in the wrong place (`apiKey: "…"`, `pool: { token: … }`): the value of a
 * key that names a secret is never shown, whatever it looks like, and
 * everything else is shown redacted and on one line.
 */
import { isSecretName, redactedLine } from '../../core/text/secrets.js';

/** One rejected option value. */
export interface OptionIssue {
  key: string;
  expected: string;
  actual: unknown;
  /** What is used instead, and where it came from; absent for a key that is not an option at all. */
  used?: { value: unknown; from: string };
}

/** Longest value and key quoted. */
const MAX_SHOWN_CHARS = 80;

/** What stands for the value of a key that names a secret. */
const HIDDEN = '[REDACTED:secret-setting]';

/** The last part of a dotted key: `pool.apiKey` names a secret as `apiKey` does. */
function namesSecret(key: string): boolean {
  return isSecretName(key.slice(key.lastIndexOf('.') + 1));
}

/** JSON of `value` with every value under a key that names a secret hidden; `undefined` when it has none (a function, a cycle). */
function jsonWithoutSecrets(value: unknown): string | undefined {
  try {
    return JSON.stringify(value, (key, inner: unknown) => (key !== '' && isSecretName(key) && inner !== null && typeof inner !== 'object' ? HIDDEN : inner));
  } catch {
    return undefined;
  }
}

function shown(value: unknown, key: string): string {
  if (namesSecret(key) && value !== undefined && value !== null) return HIDDEN;
  if (typeof value === 'string') return JSON.stringify(redactedLine(value, MAX_SHOWN_CHARS));
  const json = jsonWithoutSecrets(value);
  return redactedLine(json ?? `a ${typeof value}`, MAX_SHOWN_CHARS);
}

/**
 * One log line for a rejected option: the key, what was expected, what was given, and what is used instead.
 *
 * @param issue - from `resolvePluginOptions`.
 */
export function describeOptionIssue(issue: OptionIssue): string {
  // `password: expected …` would read as a setting whose value is `expected`: the key is followed by words, not a colon.
  const key = `${redactedLine(issue.key, MAX_SHOWN_CHARS)}${namesSecret(issue.key) ? ' (its value not shown)' : ''}`;
  const given = `option ${key}: expected ${issue.expected}, got ${shown(issue.actual, issue.key)}`;
  if (!issue.used) return `${given}; ignored`;
  const value = typeof issue.used.value === 'string' && issue.used.value === 'the defaults' ? 'the defaults' : shown(issue.used.value, issue.key);
  return `${given}; using ${value} (${issue.used.from})`;
}
