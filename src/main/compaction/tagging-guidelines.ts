/**
 * What the compaction model is told about tagging concepts, so the summary
 * it writes links the graph well. Never persisted: its examples would become
 * graph nodes.
 */
import { CLOSING_LISTS_REQUEST } from '../../core/context/closing-lists.js';

/** Injected into every compaction's context. */
export const TAGGING_GUIDELINES = `## Linking concepts in this summary

Mark the lasting topics of this work with double-bracket links such as [[postgres]] or [[rate-limiting]]; a knowledge graph is built from them.
- Link only substantial topics someone would look up again: technologies, components, domains, techniques, recurring problems.
- Write them in lowercase with single hyphens between words. No underscores, slashes, doubled hyphens, or hyphens at either end.
- Prefer the general term over a narrow variant ([[mcp]] rather than [[mcp-server]]), and reuse a name already linked in this conversation.
- Do not link file paths, code identifiers, or everyday words.
- Do not link words about the linking itself or generic nouns: concept, wikilink, tool, example, thing, item, entity, file, agent, system, test, data, model.
- Use double brackets only; single brackets are not links.`;

/**
 * What every compaction's context opens with: the tagging guidelines, then the request to close the
 * summary with the lists that become the model's items.
 */
export const COMPACTION_GUIDELINES = `${TAGGING_GUIDELINES}\n\n${CLOSING_LISTS_REQUEST}`;
