/**
 * A corpus folder for `npm run eval`: `sessions/<name>.json` or `.json.gz`
 * (session exports) and `truth/<name>.json` (what a careful reader keeps).
 * The truth files name the sessions; a truth without its session is a run
 * that failed.
 */
import { existsSync, statSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { Truth, TruthItem } from './score.js';

/** One session of a corpus: its truth, and its export or why it cannot be read. */
export interface CorpusEntry {
  name: string;
  truth: Truth;
  session: { ok: true; value: unknown } | { ok: false; reason: string };
}

function isStringList(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === 'string');
}

/**
 * A truth file's list of items: each `{ text, keywords }` with at least one keyword group.
 *
 * @param value - the field's value.
 * @param field - its name, for messages (a missing `next` is an empty list).
 * @param file - the file's path, for messages.
 * @throws Error naming the file and the item when the shape is wrong.
 */
export function truthItems(value: unknown, field: string, file: string): TruthItem[] {
  if (value === undefined && field === 'next') return [];
  if (!Array.isArray(value)) throw new Error(`${file}: "${field}" must be a list`);
  return value.map((item, index) => {
    const { text, keywords } = (item ?? {}) as { text?: unknown; keywords?: unknown };
    if (typeof text !== 'string' || !isStringList(keywords) || keywords.length === 0) {
      throw new Error(`${file}: ${field}[${index}] needs "text" and a non-empty "keywords" list of strings`);
    }
    return { text, keywords };
  });
}

/**
 * A truth file's fields: its JSON read as an object (`null` reads as no fields).
 *
 * @param raw - the file's text.
 * @param file - its path, for the message.
 * @throws Error naming the file when it is not JSON.
 */
export function jsonFields(raw: string, file: string): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new Error(`${file} is not JSON`);
  }
  return (parsed ?? {}) as Record<string, unknown>;
}

/**
 * Reads a truth file's content.
 *
 * @param raw - the file's text.
 * @param file - its path, for messages.
 * @param name - the session name the file stands for.
 * @throws Error naming the file and the field when the shape is wrong.
 */
export function parseTruth(raw: string, file: string, name: string): Truth {
  const value = jsonFields(raw, file);
  const files = value['files'];
  const topics = value['topics'];
  if (!isStringList(files)) throw new Error(`${file}: "files" must be a list of strings`);
  if (!isStringList(topics)) throw new Error(`${file}: "topics" must be a list of strings`);
  return {
    session: name,
    decisions: truthItems(value['decisions'], 'decisions', file),
    files,
    problems: truthItems(value['problems'], 'problems', file),
    topics,
    next: truthItems(value['next'], 'next', file),
  };
}

/**
 * Reads a session export, `<folder>/<name>.json` or `.json.gz`.
 *
 * @param folder - the corpus's `sessions/`.
 * @param name - the session's name.
 * @returns the parsed export, or why it cannot be read.
 */
export async function readSession(folder: string, name: string): Promise<CorpusEntry['session']> {
  const plain = join(folder, `${name}.json`);
  const packed = `${plain}.gz`;
  const path = existsSync(plain) ? plain : existsSync(packed) ? packed : null;
  if (!path) return { ok: false, reason: `no sessions/${name}.json or .json.gz` };
  try {
    const bytes = await readFile(path);
    const text = (path.endsWith('.gz') ? gunzipSync(bytes) : bytes).toString('utf8');
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    return { ok: false, reason: `cannot read ${path}: ${(error as Error).message}` };
  }
}

/**
 * Loads a corpus folder, sessions in name order.
 *
 * @param folder - holds `sessions/` and `truth/`.
 * @throws Error when the folder or its `truth/` is missing, or a truth file is malformed.
 */
export async function loadCorpus(folder: string): Promise<CorpusEntry[]> {
  if (!existsSync(folder) || !statSync(folder).isDirectory()) throw new Error(`corpus folder ${folder} not found`);
  const truthFolder = join(folder, 'truth');
  if (!existsSync(truthFolder)) throw new Error(`corpus folder ${folder} has no truth/ folder`);
  const names = (await readdir(truthFolder))
    .filter((file) => file.endsWith('.json'))
    .map((file) => file.slice(0, -'.json'.length))
    .sort();
  if (names.length === 0) throw new Error(`corpus folder ${folder} has no truth/*.json`);
  const entries: CorpusEntry[] = [];
  for (const name of names) {
    const file = join(truthFolder, `${name}.json`);
    const truth = parseTruth(await readFile(file, 'utf8'), file, name);
    entries.push({ name, truth, session: await readSession(join(folder, 'sessions'), name) });
  }
  return entries;
}
