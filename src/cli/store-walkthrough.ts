/**
 * The rest of the pipeline after extraction, against the built-in file store:
 * compaction notes and summary thoughts delivered through the outbox, then
 * the graph context the next session's system prompt receives.
 */
import { join } from 'node:path';
import { createFileStore, type FileStore } from '../main/memory/files/file-store.js';
import { memoryFilePath, noteLocation } from '../core/memory/memory-format.js';
import { createDelivery } from '../main/memory/delivery/delivery.js';
import { createOutbox } from '../main/memory/delivery/outbox.js';
import { createChainStore } from '../main/memory/delivery/chain-store.js';
import { createLogger } from '../main/shared/logger.js';
import { buildCompactionNote } from '../main/compaction/compaction-note.js';
import { resolveProject } from '../main/shared/project.js';
import { buildSummaryThought } from '../core/memory/summary-thought.js';
import { createSessionStart } from '../main/graph/session-start.js';
import { resolvePluginOptions } from '../main/options/plugin-options.js';
import { createBackgroundWork } from '../main/shared/background-work.js';
import type { ExtractionEngine, Extraction } from '../main/compaction/extraction-engine.js';
import type { TaskRunner } from '../main/pool/task-runner.js';

/** What each step produced. */
export interface Walkthrough {
  root: string;
  notes: { uri: string; file: string }[];
  chain: string | null;
  /** The block appended to the next session's system prompt, or null when nothing qualified. */
  context: string | null;
  /** The files under the memory folder afterwards. */
  files: number;
}

/**
 * @param parts - the extraction, the pool, the engine, the store root, state dir and project.
 * @param compactions - how many compactions of the session to keep (a relation is strong from three shared files).
 */
export async function runStoreWalkthrough(
  parts: { extraction: Extraction; runner: TaskRunner; engine: ExtractionEngine; root: string; stateDir: string; project: string; sessionID: string },
  compactions = 3,
): Promise<Walkthrough> {
  const logger = createLogger(undefined);
  const store: FileStore = createFileStore({ root: parts.root, stateDir: parts.stateDir, runner: parts.runner, logger, index: { freshForMs: 0 } });
  const delivery = createDelivery({ memory: store, outbox: createOutbox(join(parts.stateDir, 'outbox')), chains: createChainStore(parts.stateDir), logger, timeoutMs: 30_000 });
  const project = resolveProject(parts.project, '');
  const notes: Walkthrough['notes'] = [];
  const start = Date.now();
  for (let index = 0; index < compactions; index++) {
    const note = buildCompactionNote(project, parts.sessionID, parts.extraction, new Date(start + index * 1_000));
    await delivery.submitNote(project.key, note);
    const { uri } = noteLocation(note.folder, note.title);
    notes.push({ uri, file: memoryFilePath(store.memoryDir, uri) });
    const summary = buildSummaryThought(parts.project, parts.sessionID, parts.extraction.context.text, 32_000);
    await delivery.submitThought({ project: project.key, response: summary, source: `${parts.sessionID}:${index}` });
  }
  const chains = createChainStore(parts.stateDir);
  const chain = (await chains.get(project.key))?.sessionId ?? null;
  const { options } = resolvePluginOptions({}, {});
  const background = createBackgroundWork(() => undefined);
  const sessionStart = createSessionStart({
    // The walkthrough's own state folder: a block saved by another run (or by OpenCode) is not this memory's.
    options: { ...options, stateDir: parts.stateDir },
    logger,
    memory: store,
    runner: parts.runner,
    project,
    chains,
    background,
  });
  const output = { system: ['You are the build agent.'] };
  await sessionStart.hook({ sessionID: 'ses_next' }, output);
  await background.idle();
  const snapshot = await store.index.refresh({ force: true });
  await store.close();
  const system = output.system.join('\n');
  const at = system.indexOf('## Project Memory') >= 0 ? system.indexOf('## Project Memory') : system.indexOf('## Knowledge Graph Context');
  return { root: parts.root, notes, chain, context: at >= 0 ? system.slice(at) : null, files: snapshot.entries.size };
}

/**
 * The walkthrough as text.
 *
 * @param walkthrough - what {@link runStoreWalkthrough} returned.
 * @param removed - whether the root is a temporary folder removed on exit.
 */
export function formatWalkthrough(walkthrough: Walkthrough, removed = false): string {
  const lines = [
    '',
    `== File store (no maenifold needed): ${walkthrough.root}/memory${removed ? ' (removed on exit; --keep keeps it)' : ''}`,
    '',
    ...walkthrough.notes.map((note, index) => `compaction ${index + 1}: note ${note.uri}\n  ${note.file}`),
    `summary thoughts: chain ${walkthrough.chain ?? '(none)'} under memory://thinking/sequential/`,
    `files in the memory folder: ${walkthrough.files}`,
    '',
    '== Next session: what its system prompt receives (project memory, then graph context)',
    '',
    walkthrough.context ?? '(nothing qualified: no concept shares more than two files yet)',
    '',
  ];
  return `${lines.join('\n')}\n`;
}
