/**
 * A corpus folder for `npm run eval -- --sequence`: `sessions/<name>.json`
 * (or `.json.gz`) exports, and `truth/<project>.next.json`, one per project:
 * the project's earlier sessions in order, the later session whose start was
 * read, and what that later session needed from the earlier ones.
 */
import { existsSync, statSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { jsonFields, readSession, truthItems, type CorpusEntry } from './corpus.js';
import type { TruthItem } from './score.js';

/** The truth of one project's sequence. */
export interface SequenceTruth {
  project: string;
  /** The sessions compacted before the later one, oldest first. */
  earlier: string[];
  /** The session whose start says what it needed (never compacted). */
  later: string;
  /** What it needed from the earlier sessions, each matched line by line. */
  needed: TruthItem[];
}

/** One project of a sequence corpus: its truth and its earlier sessions, in order. */
export interface SequenceProject {
  truth: SequenceTruth;
  sessions: { name: string; session: CorpusEntry['session'] }[];
}

/** The suffix of a sequence truth file. */
export const NEXT_TRUTH_SUFFIX = '.next.json';

/**
 * Reads a `<project>.next.json`.
 *
 * @param raw - the file's text.
 * @param file - its path, for messages.
 * @throws Error naming the file and the field when the shape is wrong.
 */
export function parseNextTruth(raw: string, file: string): SequenceTruth {
  const value = jsonFields(raw, file);
  const { project, earlier, later } = value;
  if (typeof project !== 'string' || project.length === 0) throw new Error(`${file}: "project" must be a name`);
  if (!Array.isArray(earlier) || earlier.length === 0 || !earlier.every((name) => typeof name === 'string' && name.length > 0)) {
    throw new Error(`${file}: "earlier" must list the names of the sessions before the later one, oldest first`);
  }
  if (typeof later !== 'string' || later.length === 0) throw new Error(`${file}: "later" must be a session name`);
  const needed = truthItems(value['needed'], 'needed', file);
  if (needed.length === 0) throw new Error(`${file}: "needed" must list at least one item`);
  return { project, earlier: earlier as string[], later, needed };
}

/**
 * Loads a sequence corpus, projects in name order.
 *
 * @param folder - holds `sessions/` and `truth/*.next.json`.
 * @throws Error when the folder, its `truth/` or every truth file is missing, or a truth file is malformed.
 */
export async function loadSequenceCorpus(folder: string): Promise<SequenceProject[]> {
  if (!existsSync(folder) || !statSync(folder).isDirectory()) throw new Error(`corpus folder ${folder} not found`);
  const truthFolder = join(folder, 'truth');
  if (!existsSync(truthFolder)) throw new Error(`corpus folder ${folder} has no truth/ folder`);
  const files = (await readdir(truthFolder)).filter((file) => file.endsWith(NEXT_TRUTH_SUFFIX)).sort();
  if (files.length === 0) throw new Error(`corpus folder ${folder} has no truth/*${NEXT_TRUTH_SUFFIX}`);
  const projects: SequenceProject[] = [];
  for (const file of files) {
    const path = join(truthFolder, file);
    const truth = parseNextTruth(await readFile(path, 'utf8'), path);
    const sessions = [];
    for (const name of truth.earlier) sessions.push({ name, session: await readSession(join(folder, 'sessions'), name) });
    projects.push({ truth, sessions });
  }
  return projects;
}
