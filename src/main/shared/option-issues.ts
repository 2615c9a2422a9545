/**
 * The log line of a rejected option. Apart from resolving, because the
 * wording is what users read (the README quotes it) and the pool's issues
 * are worded by the same function.
 */
import type { OptionIssue } from '../pool/pool-options.js';

function shown(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > 80 ? `${value.slice(0, 80)}…` : value);
  return JSON.stringify(value) ?? String(value);
}

/**
 * One log line for a rejected option: the key, what was expected, what was given, and what is used instead.
 *
 * @param issue - from `resolvePluginOptions`.
 */
export function describeOptionIssue(issue: OptionIssue): string {
  const given = `option ${issue.key}: expected ${issue.expected}, got ${shown(issue.actual)}`;
  if (!issue.used) return `${given}; ignored`;
  const value = typeof issue.used.value === 'string' && issue.used.value === 'the defaults' ? 'the defaults' : shown(issue.used.value);
  return `${given}; using ${value} (${issue.used.from})`;
}
