/**
 * The plugin's own words in the graph. A compaction note carries them as tags
 * and never as links (a link would join every note to every other), and
 * session start never offers them as context: both read the one predicate.
 */
import { projectConcept } from '../../core/memory/memory-format.js';

/** Words of the plugin itself: tags of every note, never links of one. */
export const PLUGIN_CONCEPTS: readonly string[] = Object.freeze(['compaction']);

/**
 * Whether a concept is the plugin's own word or the project's name, which the
 * note carries as tags and session start never offers as context.
 *
 * @param concept - a normalized concept.
 * @param project - the project's name.
 */
export function isPluginConcept(concept: string, project: string): boolean {
  return PLUGIN_CONCEPTS.includes(concept) || concept === projectConcept(project);
}
