/**
 * Edits are facts: an edit, multi-edit or patch call says which file changed
 * and what changed in it. This stage turns one call into an observation
 * (`path: before → after`, the tokens the edit removed and added) and into
 * identifier terms for the concepts ranking.
 *
 * Bounded: it reads the heads `pathArguments` let cross (a few KB per call)
 * and keeps at most a handful of tokens per side.
 */
import type { TermHit } from './touches.js';
import type { Observation } from '../observations.js';
import { capChars } from '../../text/char-cap.js';
import { MAX_EDIT_TEXT_CHARS } from './working-set.js';

/** Tokens shown per side of an edit, and the longest token kept. */
const MAX_TOKENS_PER_SIDE = 4;
const MAX_TOKEN_CHARS = 40;
/** Characters of one edit observation. */
const MAX_EDIT_TEXT = 180;

/**
 * Code tokens: identifiers (with `.`/`-` joins: `user.name`, `--bg-primary`), versions and numbers,
 * hex colours. Letters are Unicode: `información` is one token, not `informaci`. Each alternative is a
 * simple run, so the scan is linear.
 */
const TOKEN = /--?[A-Za-z][\w-]*|#[0-9A-Fa-f]{3,8}\b|[\p{L}_$][\p{L}\p{M}\p{N}_$]*(?:[.-][\p{L}_$][\p{L}\p{M}\p{N}_$]*)*|\d+(?:\.\d+)+|\d{2,}/gu;
/** A number or a version: shown only when no name changed (a version bump), never beside renamed identifiers. */
const NUMERIC = /^\d/;

/** Words every language and markup repeats: their appearing or vanishing says nothing. */
const COMMON = new Set(
  ('const let var function return if else for while import from export default class new this true false null undefined ' +
    'async await def self none pass elif try except finally raise with public private protected static void int string ' +
    'boolean final the and or not div span class style type value name data props return end then fi do done echo')
    .split(' '),
);

/** What looks like a code identifier rather than an English word: camelCase, PascalCase with two humps, snake_case. */
const IDENTIFIER_SHAPE = /[\p{Ll}\p{N}]\p{Lu}|[\p{L}\p{N}]_[\p{L}\p{N}]|^\p{Lu}[\p{Ll}\p{N}]+\p{Lu}/u;

function tokensOf(text: string): string[] {
  const seen = new Set<string>();
  for (const [token] of text.slice(0, MAX_EDIT_TEXT_CHARS).matchAll(TOKEN)) {
    if (token.length < 2 || token.length > MAX_TOKEN_CHARS || COMMON.has(token.toLowerCase())) continue;
    seen.add(token);
  }
  return [...seen];
}

/** One file's old and new text, as an edit or a patch hunk gives them. */
export interface EditChange {
  path: string;
  before: string;
  after: string;
}

/**
 * The old and new text of each file an edit or patch call changed.
 *
 * @param input - the tool's arguments as `pathArguments` kept them.
 * @param path - the file a plain edit names (already normalized), or `null`.
 * @param patchPaths - maps a patch's file line to its normalized path.
 */
export function editChanges(input: Record<string, unknown>, path: string | null, patchPaths: (raw: string) => string | null): EditChange[] {
  const changes: EditChange[] = [];
  if (path !== null) {
    const pairs: unknown[] = [input, ...(Array.isArray(input['edits']) ? input['edits'] : [])];
    let before = '';
    let after = '';
    for (const pair of pairs) {
      if (typeof pair !== 'object' || pair === null) continue;
      const record = pair as Record<string, unknown>;
      if (typeof record['oldString'] === 'string') before += `${record['oldString']}\n`;
      if (typeof record['newString'] === 'string') after += `${record['newString']}\n`;
    }
    if (before.length > 0 || after.length > 0) changes.push({ path, before, after });
  }
  const patch = input['patchText'] ?? input['patch'];
  if (typeof patch === 'string') {
    let current: EditChange | null = null;
    let start = 0;
    // Only the first files' hunks: enough to say what changed, bounded whatever the patch size.
    while (start < patch.length && changes.length <= 16) {
      let end = patch.indexOf('\n', start);
      if (end === -1) end = patch.length;
      const line = patch.slice(start, Math.min(end, start + 1_000));
      start = end + 1;
      const file = /^\*\*\* (?:Add|Update|Delete) File: (.+)$/.exec(line);
      if (file?.[1]) {
        const normalized = patchPaths(file[1]);
        current = normalized === null ? null : { path: normalized, before: '', after: '' };
        if (current) changes.push(current);
      } else if (current && line.startsWith('-') && current.before.length < MAX_EDIT_TEXT_CHARS) current.before += `${line.slice(1)}\n`;
      else if (current && line.startsWith('+') && current.after.length < MAX_EDIT_TEXT_CHARS) current.after += `${line.slice(1)}\n`;
    }
  }
  return changes;
}

/**
 * The edit as an observation and its new identifiers as terms.
 *
 * @param change - one file's old and new text.
 * @param tool - the tool's name, kept as a topic.
 * @param order - the message position.
 * @returns a `note` observation `path: removed → added` (id `edit:<path>`, so repeated edits of one
 *   file merge), and an `identifier` term for each identifier-shaped token the edit introduced or removed;
 *   `null` when no token changed (whitespace, reordering): the working set already says the file was edited.
 */
export function describeEdit(change: EditChange, tool: string, order: number): { observation: Observation; terms: TermHit[] } | null {
  const before = tokensOf(change.before);
  const after = tokensOf(change.after);
  const beforeSet = new Set(before);
  const afterSet = new Set(after);
  let removed = before.filter((token) => !afterSet.has(token));
  let added = after.filter((token) => !beforeSet.has(token));
  const names = (tokens: string[]): string[] => tokens.filter((token) => !NUMERIC.test(token));
  if (names(removed).length + names(added).length > 0) {
    removed = names(removed);
    added = names(added);
  }
  removed = removed.slice(0, MAX_TOKENS_PER_SIDE);
  added = added.slice(0, MAX_TOKENS_PER_SIDE);
  const what =
    removed.length > 0 && added.length > 0 ? `${removed.join(', ')} → ${added.join(', ')}`
    : added.length > 0 ? `added ${added.join(', ')}`
    : removed.length > 0 ? `removed ${removed.join(', ')}`
    : null;
  if (what === null) return null;
  const terms: TermHit[] = [];
  for (const token of [...added, ...removed]) {
    if (!IDENTIFIER_SHAPE.test(token) || token.startsWith('-') || token.startsWith('#')) continue;
    const name = conceptName(token);
    if (name.length >= 3 && !terms.some((term) => term.name === name)) terms.push({ name, weight: 1, kind: 'identifier', order });
  }
  return {
    observation: {
      id: `edit:${change.path.toLowerCase()}`,
      type: 'note',
      text: capChars(`${change.path}: ${what}`, MAX_EDIT_TEXT),
      order,
      frequency: 1,
      topics: [change.path.split('/').pop() ?? change.path, ...added.slice(0, 2)],
    },
    terms,
  };
}

/** An identifier as a maenifold concept: `attendanceDurationMax` → `attendance-duration-max`. */
export function conceptName(identifier: string): string {
  return identifier
    .replace(/([\p{Ll}\p{N}])(\p{Lu})/gu, '$1-$2')
    .replace(/(\p{Lu}+)(\p{Lu}\p{Ll})/gu, '$1-$2')
    .replace(/[_.$\s]+/g, '-')
    .replace(/-{2,}/g, '-')
    .replace(/^-|-$/g, '')
    .toLowerCase();
}
