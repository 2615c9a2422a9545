/**
 * The kinds of value an option takes, the rows of an option table (a kind
 * and a default), and the two things done with a kind: reading a
 * `MAENIFOLD_*` variable's text as a value of it, and checking a value against
 * it. Kept apart from the option table so that adding an option never touches
 * how values are read and checked.
 */
import type { OptionIssue } from './option-issues.js';

/** What values an option accepts. */
export type OptionKind = { type: 'boolean' } | { type: 'integer'; min: number; max: number } | { type: 'string' } | { type: 'enum'; values: readonly string[] };

/** One row of an option table: what the option accepts, and what it is when nothing valid is given. */
export interface OptionSpec<T> {
  kind: OptionKind;
  default: T;
}

/**
 * A switch.
 *
 * @param value - its default.
 */
export function flag(value: boolean): OptionSpec<boolean> {
  return { kind: { type: 'boolean' }, default: value };
}

/**
 * A free text (a path, a name, a prompt).
 *
 * @param value - its default.
 */
export function text(value: string): OptionSpec<string> {
  return { kind: { type: 'string' }, default: value };
}

/**
 * A whole number within bounds.
 *
 * @param value - its default.
 * @param min - the smallest accepted value.
 * @param max - the largest accepted value.
 */
export function integer(value: number, min: number, max: number): OptionSpec<number> {
  return { kind: { type: 'integer', min, max }, default: value };
}

/**
 * One of a few words.
 *
 * @param values - the accepted words, in the order an issue lists them.
 * @param value - its default, one of `values`.
 */
export function oneOf<const V extends string>(values: readonly V[], value: NoInfer<V>): OptionSpec<V> {
  return { kind: { type: 'enum', values }, default: value };
}

/**
 * The variable that sets an option: `compactionDeadlineMs` → `MAENIFOLD_COMPACTION_DEADLINE_MS`.
 *
 * @param key - the option's key in `opencode.json`.
 */
export function envName(key: string): string {
  return `MAENIFOLD_${key.replace(/[A-Z]/g, (letter) => `_${letter}`).toUpperCase()}`;
}

/**
 * A variable's text as a value of `kind`: `1/true/yes/on` and `0/false/no/off` for booleans, digits for
 * integers. Anything else comes back as the raw text, so that {@link checkOptionValue} reports it as given.
 *
 * @param raw - the variable's value.
 * @param kind - what the option accepts.
 */
export function readVariable(raw: string, kind: OptionKind): unknown {
  const text = raw.trim();
  if (kind.type === 'boolean') {
    if (/^(1|true|yes|on)$/i.test(text)) return true;
    if (/^(0|false|no|off)$/i.test(text)) return false;
    return raw;
  }
  if (kind.type === 'integer') return /^-?\d+$/.test(text) ? Number(text) : raw;
  return raw;
}

/**
 * `null` when `value` is of `kind`, else the issue (without `used`: the caller knows what replaces it).
 *
 * @param key - the name the issue reports: the option's key, or the variable that gave the value.
 * @param value - the value to check.
 * @param kind - what the option accepts.
 */
export function checkOptionValue(key: string, value: unknown, kind: OptionKind): OptionIssue | null {
  switch (kind.type) {
    case 'boolean':
      return typeof value === 'boolean' ? null : { key, expected: 'true or false', actual: value };
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value) && value >= kind.min && value <= kind.max
        ? null
        : { key, expected: `an integer from ${kind.min} to ${kind.max}`, actual: value };
    case 'string':
      return typeof value === 'string' ? null : { key, expected: 'a string', actual: value };
    case 'enum':
      return typeof value === 'string' && kind.values.includes(value)
        ? null
        : { key, expected: `one of ${kind.values.join(', ')}`, actual: value };
  }
}
