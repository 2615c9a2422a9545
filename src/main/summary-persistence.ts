/**
 * Summary persistence (FR-12.5, NFR-12.5.x): after a compaction, the summary
 * OpenCode stored becomes the next thought of the project's SequentialThinking
 * chain.
 *
 * The summary goes in as plain markdown, never inside a code fence (maenifold
 * ignores links in code, and a thought without links is refused). Each
 * thought closes the chain with a linked conclusion, so maenifold never marks
 * it abandoned; the next summary continues the same session. A chain that
 * disappeared is started again.
 */
import { sanitizeText } from '../workers/stages/sanitize.js';
import { capChars } from '../workers/stages/sections.js';
import { normalizeConcept } from '../workers/stages/concepts.js';
import { MAX_PAYLOAD_BYTES, type CliResult } from './maenifold-client.js';
import type { ChainStore } from './chain-store.js';
import type { PluginContext } from './plugin-context.js';

/** Cap on the whole payload in characters (NFR-12.5.1). */
export const MAX_SUMMARY_PAYLOAD_CHARS = 50_000;

const LOST_CHAIN = new Set(['SESSION_MISSING', 'SESSION_NOT_FOUND']);

/**
 * The text of the last compaction summary of a message list, or `null`.
 *
 * @param messages - `{ info, parts }` entries.
 */
export function lastSummaryText(messages: readonly unknown[]): string | null {
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index] as { info?: { role?: unknown; summary?: unknown }; parts?: unknown };
    if (message?.info?.role !== 'assistant' || message.info.summary !== true || !Array.isArray(message.parts)) continue;
    const texts = message.parts
      .filter((part: { type?: unknown; text?: unknown; synthetic?: unknown }) => part?.type === 'text' && typeof part.text === 'string' && !part.synthetic)
      .map((part: { text: string }) => part.text);
    const text = texts.join('\n\n').trim();
    if (text) return text;
  }
  return null;
}

/**
 * The thought's response: a linked header line first (so a link exists outside
 * any code the summary may open), then the summary as it is.
 */
export function buildSummaryThought(project: string, sessionID: string, summary: string, maxChars: number): string {
  const projectConcept = normalizeConcept(project) || 'project';
  const header = `Compaction summary of session ${sessionID.slice(0, 16)} in [[${projectConcept}]] ([[compaction]]).`;
  let body = capChars(sanitizeText(summary), maxChars);
  let response = `${header}\n\n${body}`;
  // Under both the character cap and the argv byte limit, with room for the rest of the payload.
  const room = Math.min(MAX_SUMMARY_PAYLOAD_CHARS, MAX_PAYLOAD_BYTES) - 2_000;
  while (response.length > room || Buffer.byteLength(response, 'utf8') > room) {
    body = capChars(body, Math.floor(body.length * 0.9));
    response = `${header}\n\n${body}`;
  }
  return response;
}

type EventHook = (input: { event: { type: string; properties?: Record<string, unknown> } }) => Promise<void>;

/**
 * @param context - the plugin's shared parts.
 * @param chains - where chain states live.
 */
export function createSummaryPersistence(context: PluginContext, chains: ChainStore): EventHook {
  const { options, logger, cli, host, project, background } = context;

  async function think(payload: Record<string, unknown>): Promise<CliResult<unknown>> {
    return cli.callJson('SequentialThinking', payload, { timeoutMs: options.persistTimeoutMs });
  }

  async function persist(sessionID: string): Promise<void> {
    const listed = await host.session.messages({ path: { id: sessionID } });
    const summary = Array.isArray(listed?.data) ? lastSummaryText(listed.data) : null;
    if (!summary) {
      logger.info(`summary: session ${sessionID} has no compaction summary to persist`);
      return;
    }
    const response = buildSummaryThought(project, sessionID, summary, options.summaryMaxChars);
    const conclusion = `Latest [[compaction]] summary of [[${normalizeConcept(project) || 'project'}]] recorded.`;
    const known = await chains.get(project);
    const base = { response, nextThoughtNeeded: false, conclusion, analysisType: 'retrospective' };
    let result = known
      ? await think({ ...base, sessionId: known.sessionId, thoughtNumber: known.thoughtNumber + 1, totalThoughts: known.thoughtNumber + 2 })
      : await think({ ...base, thoughtNumber: 0, totalThoughts: 1 });
    if (!result.ok && known && result.error.toolCode && LOST_CHAIN.has(result.error.toolCode)) {
      logger.warn(`summary: chain ${known.sessionId} of ${project} is gone (${result.error.toolCode}); starting a new one`);
      await chains.clear(project);
      result = await think({ ...base, thoughtNumber: 0, totalThoughts: 1 });
    }
    if (!result.ok) {
      logger.warn(`summary: not persisted (${result.error.code}${result.error.toolCode ? ` ${result.error.toolCode}` : ''}): ${result.error.message}`);
      return;
    }
    const data = result.value as { sessionId?: unknown; thoughtNumber?: unknown };
    if (typeof data?.sessionId !== 'string' || typeof data.thoughtNumber !== 'number') {
      logger.warn('summary: SequentialThinking answered without a session id; chain not recorded');
      return;
    }
    await chains.set(project, { sessionId: data.sessionId, thoughtNumber: data.thoughtNumber, updatedAt: new Date().toISOString() });
    logger.info(`summary: thought ${data.thoughtNumber} of chain ${data.sessionId} (${response.length} chars)`);
  }

  // One summary at a time: two compactions finishing together must not both claim thought n+1.
  let queue: Promise<void> = Promise.resolve();

  return async ({ event }) => {
    try {
      if (!options.summaries || !cli.available || event?.type !== 'session.compacted') return;
      const sessionID = event.properties?.['sessionID'];
      if (typeof sessionID !== 'string') return;
      const next = queue.then(() => persist(sessionID));
      queue = next.catch(() => undefined);
      background.run('summary', () => next);
    } catch (error) {
      logger.error(`summary: event handler failed: ${(error as Error)?.message ?? String(error)}`);
    }
  };
}
