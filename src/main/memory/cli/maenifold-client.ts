/**
 * The memory port over the maenifold CLI: each operation is one tool call
 * with maenifold's payload (keys in the order maenifold's own hooks send
 * them), and its answer is parsed once, here, into the port's data
 * (cli-answers.ts). Failures keep maenifold's code (`WIKILINK_REQUIRED`, …)
 * for the outbox to tell a retry from a refusal. Nothing here throws.
 */
import type { CliLocation } from './cli-locator.js';
import { createCliInvoker } from './cli-invoke.js';
import { formatTimeSpan, parseBuildContext, parseListing, parseRecentActivity, readSearchHits, readStoredNote, readThoughtReceipt, readWrittenNote } from './cli-answers.js';
import type { MemoryPort, MemoryResult } from '../memory-port.js';

export { MAX_PAYLOAD_BYTES, MAX_STDOUT_BYTES } from './cli-invoke.js';

/** The CLI adapter. */
export interface MaenifoldClient extends MemoryPort {
  readonly location: CliLocation;
}

function mapped<T, U>(result: MemoryResult<T>, read: (value: T) => U): MemoryResult<U> {
  return result.ok ? { ok: true, value: read(result.value) } : result;
}

/** A text answer that is not of the asked tool: it was not understood, so nothing of it is used. */
function understood<T>(tool: string, result: MemoryResult<string>, read: (text: string) => T | null): MemoryResult<T> {
  if (!result.ok) return result;
  if (result.value === '') return { ok: false, error: { code: 'BAD_OUTPUT', message: `${tool} printed nothing` } };
  const value = read(result.value);
  if (value === null) return { ok: false, error: { code: 'BAD_OUTPUT', message: `${tool} printed no answer of its shape: ${result.value.split('\n', 1)[0]?.slice(0, 300) ?? ''}` } };
  return { ok: true, value };
}

/**
 * @param location - where the CLI is (see `locateCli`).
 * @param env - environment of the CLI process (MAENIFOLD_ROOT and the like).
 */
export function createMaenifoldClient(location: CliLocation, env: NodeJS.ProcessEnv = process.env): MaenifoldClient {
  const cli = createCliInvoker(location, env);
  return {
    location,
    available: location.found,
    async writeNote(note, options) {
      const { title, content, folder, tags } = note;
      return mapped(await cli.callJson('WriteMemory', { title, content, folder, tags }, options), readWrittenNote);
    },
    async appendThought(thought, options) {
      const { response, thoughts, nextThoughtNeeded, conclusion, analysisType, sessionId, thoughtNumber, totalThoughts, cancel, agent } = thought;
      const payload = { response, thoughts, nextThoughtNeeded, conclusion, analysisType, sessionId, thoughtNumber, totalThoughts, cancel, agent };
      return mapped(await cli.callJson('SequentialThinking', payload, options), readThoughtReceipt);
    },
    async readNote(uri, options) {
      return mapped(await cli.callJson('ReadMemory', { identifier: uri }, options), (data) => readStoredNote(data, uri));
    },
    async listNotes(folder, options) {
      const listed = await cli.callText('ListMemories', { path: folder }, options);
      // A listing has a heading or list items (a folder's sub-folders are items too); anything else is not
      // an empty listing but an answer not understood, so a caller never takes garbage for "no notes".
      const isListing = (text: string): boolean => /^\s*#\s*Memory listing/im.test(text) || /^\s*-\s+\S/m.test(text);
      return understood('ListMemories', listed, (text) => (/^No memories found/i.test(text) ? [] : isListing(text) ? parseListing(text) : null));
    },
    async search(query, options) {
      const { query: text, mode, pageSize } = query;
      // A folder with no notes is answered in plain text even with --json.
      const found = await cli.callJson('SearchMemories', { query: text, mode, pageSize }, options, (answer) => (/^No memories found/i.test(answer) ? { results: [] } : undefined));
      return mapped(found, readSearchHits);
    },
    async recent(query, options) {
      const { limit, filter, withinMs, includeContent } = query;
      const payload = { limit, filter, timespan: withinMs === undefined ? undefined : formatTimeSpan(withinMs), includeContent };
      return mapped(await cli.callText('RecentActivity', payload, options), parseRecentActivity);
    },
    async related(query, options) {
      const { concept, depth, maxEntities } = query;
      const built = await cli.callText('BuildContext', { conceptName: concept, depth, maxEntities }, options);
      return understood('BuildContext', built, parseBuildContext);
    },
  };
}
