/**
 * Summary persistence (FR-12.5, NFR-12.5.x): after a compaction, the summary
 * OpenCode stored becomes the next thought of the project's SequentialThinking
 * chain.
 *
 * The summary goes in as plain markdown, never inside a code fence (maenifold
 * ignores links in code, and a thought without links is refused). Delivery —
 * the chain, its durability and its retries — is the outbox's (delivery.ts).
 */
import { sanitizeText } from '../../core/text/sanitize.js';
import { redactSecrets } from '../../core/text/secrets.js';
import { capChars } from '../../core/text/sections.js';
import { normalizeConcept } from '../../core/extraction/concepts.js';
import { MAX_PAYLOAD_BYTES } from '../memory/cli/maenifold-client.js';
import type { PluginOptions } from '../shared/plugin-options.js';
import type { Logger } from '../shared/logger.js';
import type { MemoryStore } from '../memory/cli/maenifold-client.js';
import type { HostClient } from '../shared/host-client.js';
import type { BackgroundWork } from '../shared/background-work.js';
import type { Delivery } from '../memory/delivery/delivery.js';

/** Cap on the whole payload in characters (NFR-12.5.1). */
export const MAX_SUMMARY_PAYLOAD_CHARS = 50_000;

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
  // OpenCode ids share their first characters (a time prefix): only the whole id tells sessions apart.
  const session = sessionID.replace(/[^A-Za-z0-9_-]/g, '').slice(0, 100) || 'unknown';
  const header = `Compaction summary of session ${session} in [[${projectConcept}]] ([[compaction]]).`;
  // The model may have copied a secret from the conversation into its summary.
  let body = capChars(redactSecrets(sanitizeText(summary)).text, maxChars);
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

/** What the handler uses of the plugin's shared parts. */
export interface SummaryPersistenceDeps {
  options: PluginOptions;
  logger: Logger;
  /** The memory store: the maenifold CLI or the built-in file store. */
  cli: MemoryStore;
  host: HostClient;
  /** The project's name. */
  project: string;
  background: BackgroundWork;
  /** Writes to maenifold through the durable outbox. */
  delivery: Delivery;
}

/**
 * @param context - the parts of the plugin it uses.
 */
export function createSummaryPersistence(context: SummaryPersistenceDeps): EventHook {
  const { options, cli, host, project, background, delivery } = context;
  const logger = context.logger.with({ hook: 'summary' });

  async function persist(sessionID: string): Promise<void> {
    const listed = await host.session.messages({ path: { id: sessionID } });
    const summary = Array.isArray(listed?.data) ? lastSummaryText(listed.data) : null;
    if (!summary) {
      logger.info(`summary: session ${sessionID} has no compaction summary to persist`);
      return;
    }
    const response = buildSummaryThought(project, sessionID, summary, options.summaryMaxChars);
    // The same summary of the same session is one thought, however often the event arrives.
    await delivery.submitThought({ project, response, source: `${sessionID}\u0000${summary}` });
  }

  return async ({ event }) => {
    try {
      if (!options.summaries || !cli.available || event?.type !== 'session.compacted') return;
      const sessionID = event.properties?.['sessionID'];
      if (typeof sessionID !== 'string') return;
      background.run('summary', () => persist(sessionID));
    } catch (error) {
      logger.error(`summary: event handler failed: ${(error as Error)?.message ?? String(error)}`);
    }
  };
}
