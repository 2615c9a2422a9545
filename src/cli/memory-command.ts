/**
 * `opencode-maenifold memory` and `forget`: what the next session of a
 * project receives, read by the same reader session start uses
 * (readProjectMemory, with its limits, through the same task run inline),
 * each item of the project's digest with its id, kind, source and dates; and
 * dropping an item from the digest for good, under the digest's lock.
 */
import { digestLists, type DigestItem } from '../core/memory/digest.js';
import { readProjectMemory, sessionMemoryLimits } from '../main/graph/project-memory.js';
import { createDigestUpdater } from '../main/memory/digest/digest-updater.js';
import { createLogger } from '../main/shared/logger.js';
import { openStore, type StoreRequest } from './memory-store.js';

/** One item as `memory --json` prints it. */
export interface ShownItem {
  id: string;
  kind: string;
  source: string;
  text: string;
  firstSeen: string;
  lastConfirmed: string;
  confirmed: number;
}

/** What `memory --json` prints. */
export interface MemoryReport {
  project: { name: string; key: string };
  /** The Project Memory block, exactly as the next session's system prompt receives it; '' for none. */
  block: string;
  tokens: number;
  items: ShownItem[];
}

function shown(item: DigestItem): ShownItem {
  return { id: item.id, kind: item.kind, source: item.source, text: item.text, firstSeen: item.firstSeen, lastConfirmed: item.lastConfirmed, confirmed: item.confirmed };
}

/**
 * The project's memory as the next session reads it.
 *
 * @param request - the project's folder and the store.
 * @throws Error with a one-line message when the store cannot be read.
 */
export async function readMemoryReport(request: StoreRequest): Promise<MemoryReport> {
  const store = openStore(request);
  try {
    const read = await readProjectMemory(store.memory, store.runner, store.project, store.chains, sessionMemoryLimits(store.options));
    // Where session start would go without, so does this: the reason is the answer.
    if (read.problems.length > 0 && !read.memory) throw new Error(`could not read the project memory of ${store.project.key} from ${store.describe}: ${read.problems.join(', ')}`);
    const folded = digestLists(read.read?.digest ?? null, read.read?.notes ?? [], Date.now()).digest;
    const tokens = read.memory?.tokens ?? 0;
    return { project: { name: store.project.name, key: store.project.key }, block: read.memory?.text ?? '', tokens, items: folded.items.map(shown) };
  } finally {
    await store.close();
  }
}

/**
 * `memory`'s text: the block, then one line per item.
 *
 * @param report - as {@link readMemoryReport} gave it.
 */
export function formatMemoryReport(report: MemoryReport): string {
  const lines = [report.block ? `${report.block}\n` : `No project memory for ${report.project.name} (${report.project.key}) yet: its sessions have not compacted.\n`];
  if (report.items.length > 0) {
    lines.push(`── Items (${report.items.length}): id, kind, source, first seen, last confirmed (times) ──`, '');
    for (const item of report.items) lines.push(`${item.id}  ${item.kind.padEnd(8)}  ${item.source.padEnd(9)}  ${item.firstSeen || '-'}  ${item.lastConfirmed || '-'} (×${item.confirmed})  ${item.text}`);
    lines.push('', `Drop a wrong item for good: opencode-maenifold forget <id>`);
  }
  return `${lines.join('\n')}\n`;
}

/**
 * Records an item of the project's digest as forgotten.
 *
 * @param idOrText - the item's id or its text.
 * @param request - the project's folder and the store.
 * @returns the lines to print.
 * @throws Error with a one-line message for an unknown item or a store that refused.
 */
export async function forgetItem(idOrText: string, request: StoreRequest): Promise<string> {
  const store = openStore(request);
  try {
    const updater = createDigestUpdater({ memory: store.memory, project: store.project, stateDir: store.options.stateDir, logger: createLogger(undefined), timeoutMs: store.options.persistTimeoutMs });
    const outcome = await updater.forget(idOrText);
    if (outcome.kind === 'unknown') throw new Error(outcome.reason);
    if (outcome.kind === 'failed') throw new Error(`the digest of ${store.project.key} was not changed: ${outcome.reason}`);
    return `${outcome.items.map((item) => `forgot ${item.id} (${item.kind}, ${item.source}): ${item.text}`).join('\n')}\n`;
  } finally {
    await store.close();
  }
}
