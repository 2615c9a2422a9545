/**
 * Candidate concepts for session-start context: WikiLinks of the project's
 * search hits first, then those of recent activity by frequency.
 */
import { findWikiLinks, normalizeConcept } from '../../core/extraction/concepts/concepts.js';
import type { ActivityItem, SearchHit } from '../memory/memory-port.js';

/** How much store text is scanned for links: enough for any real answer, bounded for a hostile one. */
export const MAX_SCANNED_CHARS = 256 * 1024;

/**
 * Normalized links of a text, or of several texts each read on its own (an unclosed `[[` in one never
 * pairs with a `]]` in the next), each once, in first-seen order.
 *
 * @param text - CLI output or a prompt, or the parts of an answer.
 */
export function linksOf(text: string | readonly string[]): string[] {
  const seen = new Set<string>();
  for (const raw of rawLinks(text)) {
    const name = normalizeConcept(raw);
    if (name) seen.add(name);
  }
  return [...seen];
}

/** Raw links of each part, within one scanning budget for all of them. */
function rawLinks(text: string | readonly string[]): string[] {
  const parts = typeof text === 'string' ? [text] : text;
  const found: string[] = [];
  let left = MAX_SCANNED_CHARS;
  for (const part of parts) {
    if (left <= 0) break;
    found.push(...findWikiLinks(part.slice(0, left)));
    left -= part.length;
  }
  return found;
}

/**
 * Links ordered by how often they occur (ties: first seen first).
 *
 * @param text - the parts of recent activity ({@link activityText}), each read on its own.
 */
export function linksByFrequency(text: string | readonly string[]): string[] {
  const counts = new Map<string, number>();
  for (const raw of rawLinks(text)) {
    const name = normalizeConcept(raw);
    if (name) counts.set(name, (counts.get(name) ?? 0) + 1);
  }
  return [...counts].sort((a, b) => b[1] - a[1]).map(([name]) => name);
}

/**
 * Project links first, then recent ones; each once; at most `max`.
 *
 * @param projectLinks - from the project search, in rank order.
 * @param recentLinks - from recent activity, by frequency.
 * @param max - how many candidates.
 */
export function rankConcepts(projectLinks: readonly string[], recentLinks: readonly string[], max: number): string[] {
  return [...new Set([...projectLinks, ...recentLinks])].slice(0, max);
}

/**
 * The texts of search hits their links are read from, each on its own: each hit's title, then its
 * snippet (a snippet may cut a link; its half never pairs with another text's).
 *
 * @param hits - SearchMemories' hits.
 */
export function searchText(hits: readonly SearchHit[]): string[] {
  return hits.flatMap((hit) => [hit.title, hit.snippet]);
}

/**
 * The texts of recent activity its links are read from, each on its own, in
 * the order RecentActivity prints them: each file's name, title or status,
 * then its first and last sections.
 *
 * @param items - RecentActivity's files.
 */
export function activityText(items: readonly ActivityItem[]): string[] {
  const parts: string[] = [];
  for (const item of items) {
    parts.push(item.id);
    for (const field of [item.title, item.status, item.first?.heading, item.first?.content, item.last?.heading, item.last?.content]) if (field !== undefined) parts.push(field);
  }
  return parts;
}
