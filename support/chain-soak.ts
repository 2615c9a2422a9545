/**
 * The long-chain soak: one project compacting many times (500 by default in
 * `npm run soak -- --chain-length 500`) into one summary chain, each summary
 * about as large as a real one, against the maenifold CLI double or the
 * built-in file store. Counts what reached the chain, how often it went on
 * in a new session, whether every session links to the one before, the
 * largest note, and whether the newest summary still reads back whole.
 */
import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createChainStore } from '../src/main/memory/delivery/chain-store.js';
import { createDelivery, idempotencyKey } from '../src/main/memory/delivery/delivery.js';
import { createOutbox } from '../src/main/memory/delivery/outbox.js';
import { createFileStore } from '../src/main/memory/files/file-store.js';
import { lazyInlineRunner } from '../src/main/pool/inline-runner.js';
import { locateCli } from '../src/main/memory/cli/cli-locator.js';
import { createMaenifoldClient } from '../src/main/memory/cli/maenifold-client.js';
import type { MemoryPort } from '../src/main/memory/memory-port.js';
import { createLogger } from '../src/main/shared/logger.js';
import { sessionUri } from '../src/core/memory/memory-format.js';
import { latestThought } from '../src/main/graph/project-memory.js';
import { createDoubleRoot } from './maenifold-double.js';

const PROJECT = 'long-chain';

/** What a long-chain soak found. */
export interface ChainSoakResult {
  store: 'cli' | 'files';
  compactions: number;
  delivered: number;
  lost: number;
  duplicated: number;
  /** Thought sessions the chain spans. */
  sessions: number;
  /** Times the chain went on in a new session. */
  rollovers: number;
  /** Sessions after the first that do not link to the one before. */
  unlinked: number;
  chainsWithRepeatedNumbers: number;
  /** The largest session note, in bytes. */
  largestNoteBytes: number;
  /** Whether ReadMemory of the chain's current session answered, with the newest summary as its latest thought. */
  newestReadBack: boolean;
  seconds: number;
}

async function notesUnder(dir: string): Promise<string[]> {
  const names = await readdir(dir, { recursive: true }).catch(() => [] as string[]);
  return names.filter((name) => name.endsWith('.md')).map((name) => join(dir, name));
}

/** A summary about as large as a real one (the probes' chain held 151 in 4.3 MiB: about 28 KiB each). */
function summaryText(index: number): string {
  const paragraph = `Moved the cart sessions from Redis to SQLite and kept the [[cache-layer]] warm; step ${index} of the long refactor. `;
  return `## Progress\nSummary ${index} of the long chain.\n\n${paragraph.repeat(Math.ceil(28_000 / paragraph.length))}`;
}

/**
 * @param settings - how many compactions, on which store.
 */
export async function runChainSoak(settings: { compactions: number; store: 'cli' | 'files' }): Promise<ChainSoakResult> {
  const started = Date.now();
  const double = await createDoubleRoot();
  const stateDir = await mkdtemp(join(tmpdir(), 'chain-soak-state-'));
  const logger = createLogger(undefined);
  const files = settings.store === 'files' ? createFileStore({ root: double.root, stateDir, runner: lazyInlineRunner(), logger, index: { persistDelayMs: 60_000 } }) : null;
  const store: MemoryPort = files ?? createMaenifoldClient(locateCli(double.cliPath, process.env), { ...process.env, ...double.env });
  try {
    const chains = createChainStore(stateDir);
    const delivery = createDelivery({ memory: store, outbox: createOutbox(join(stateDir, 'outbox')), chains, logger, timeoutMs: 30_000 });
    const owed = new Set<string>();
    for (let index = 0; index < settings.compactions; index++) {
      owed.add(idempotencyKey('thought', PROJECT, `chain:${index}`));
      await delivery.submitThought({ project: PROJECT, response: summaryText(index), source: `chain:${index}` });
    }
    const seen = new Map<string, number>();
    let repeated = 0;
    let largest = 0;
    let unlinked = 0;
    let withoutLink = 0;
    const notes = await notesUnder(join(double.root, 'memory', 'thinking', 'sequential'));
    const ids = new Set(notes.map((file) => file.slice(file.lastIndexOf('/') + 1, -3)));
    for (const file of notes) {
      const text = await readFile(file, 'utf8');
      largest = Math.max(largest, (await stat(file)).size);
      const numbers = [...text.matchAll(/^## Thought (\d+)\//gm)].map((match) => match[1]);
      if (new Set(numbers).size !== numbers.length) repeated += 1;
      for (const match of text.matchAll(/Delivery ([0-9a-f]{32}) of/g)) seen.set(match[1] as string, (seen.get(match[1] as string) ?? 0) + 1);
      // Every session but the first continues one that exists.
      const link = /The chain continues \[\[(session-\d+-\d+)\]\]/.exec(text)?.[1];
      if (link === undefined) withoutLink += 1;
      else if (!ids.has(link)) unlinked += 1;
    }
    unlinked += Math.max(0, withoutLink - 1);
    const chain = await chains.get(PROJECT);
    const uri = chain ? sessionUri(chain.sessionId) : null;
    const read = uri ? await store.readNote(uri, { timeoutMs: 30_000 }) : null;
    const newest = read?.ok ? latestThought(read.value.content) : '';
    return {
      store: settings.store,
      compactions: settings.compactions,
      delivered: seen.size,
      lost: [...owed].filter((key) => !seen.has(key)).length,
      duplicated: [...seen.values()].reduce((sum, count) => sum + count - 1, 0),
      sessions: notes.length,
      rollovers: Math.max(0, notes.length - 1),
      unlinked,
      chainsWithRepeatedNumbers: repeated,
      largestNoteBytes: largest,
      newestReadBack: newest.includes(`Summary ${settings.compactions - 1} of the long chain.`),
      seconds: Math.round((Date.now() - started) / 100) / 10,
    };
  } finally {
    await files?.close();
    await double.cleanup();
    await rm(stateDir, { recursive: true, force: true });
  }
}
