/**
 * Candidate concepts for session-start context: WikiLinks of the project's
 * search hits first, then those of recent activity by frequency.
 */
import { findWikiLinks, normalizeConcept } from '../../core/extraction/concepts.js';
import type { ActivityItem, SearchHit } from '../memory/memory-port.js';

/** How much store text is scanned for links: enough for any real answer, bounded for a hostile one. */
export const MAX_SCANNED_CHARS = 256 * 1024;

/**
 * Normalized links of a text, each once, in first-seen order.
 *
 * @param text - CLI output or a prompt.
 */
export function linksOf(text: string): string[] {
  const seen = new Set<string>();
  for (const raw of findWikiLinks(text.slice(0, MAX_SCANNED_CHARS))) {
    const name = normalizeConcept(raw);
    if (name) seen.add(name);
  }
  return [...seen];
}

/**
 * Links of `text` ordered by how often they occur (ties: first seen first).
 *
 * @param text - the text of recent activity ({@link activityText}).
 */
export function linksByFrequency(text: string): string[] {
  const counts = new Map<string, number>();
  for (const raw of findWikiLinks(text.slice(0, MAX_SCANNED_CHARS))) {
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
 * The text of search hits their links are read from: each hit's title, then its snippet.
 *
 * @param hits - SearchMemories' hits.
 */
export function searchText(hits: readonly SearchHit[]): string {
  return hits.map((hit) => `${hit.title}\n${hit.snippet}`).join('\n');
}

/**
 * The text of recent activity its links are read from, in the order
 * RecentActivity prints it: each file's name, title or status, then its
 * first and last sections.
 *
 * @param items - RecentActivity's files.
 */
export function activityText(items: readonly ActivityItem[]): string {
  const parts: string[] = [];
  for (const item of items) {
    parts.push(item.id);
    for (const field of [item.title, item.status, item.first?.heading, item.first?.content, item.last?.heading, item.last?.content]) if (field !== undefined) parts.push(field);
  }
  return parts.join('\n');
}
