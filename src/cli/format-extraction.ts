/**
 * The human-readable report of an extraction, for `npm start`.
 */
import type { Extraction } from '../main/compaction/extraction-engine.js';
import { DEFAULT_WINDOW_LIMITS } from '../main/compaction/conversation-window.js';

function thousandsOfChars(chars: number): string {
  return `${Math.round(chars / 1024).toLocaleString('en-US')} K characters`;
}

function rule(title: string): string {
  return `\n── ${title} ${'─'.repeat(Math.max(0, 60 - title.length))}\n`;
}

/**
 * @param source - where the session came from, for the first line.
 * @param extraction - the result to show.
 */
export function formatExtraction(source: string, extraction: Extraction): string {
  const out: string[] = [];
  const { stats } = extraction;
  out.push(`Session: ${source}`);
  out.push(`Messages: ${stats.units} (${stats.cachedUnits} from cache), ${stats.inputChars.toLocaleString('en-US')} characters of text, ${stats.batches} pooled batches`);
  if (stats.beforeWindow > 0) out.push(`Not read: ${stats.beforeWindow} messages before the window (read: since the latest summary, ${thousandsOfChars(DEFAULT_WINDOW_LIMITS.minChars)} to ${thousandsOfChars(DEFAULT_WINDOW_LIMITS.maxChars)} of text)`);
  out.push(`Boundary sections: ${extraction.sectionKind}, ${extraction.sections.length} selected (${extraction.sections.map((section) => section.length).join(' + ')} chars)`);

  out.push(rule(`Concepts (${extraction.concepts.length})`));
  out.push(extraction.concepts.length ? extraction.concepts.map((concept) => `[[${concept.name}]] ×${concept.count}`).join(', ') : '(none)');

  out.push(rule(`Decisions (${extraction.decisions.length})`));
  const categories = [...new Set(extraction.decisions.map((decision) => decision.category))];
  for (const category of categories) {
    out.push(`${category}:`);
    for (const decision of extraction.decisions.filter((item) => item.category === category)) out.push(`  - ${decision.text}`);
  }
  if (categories.length === 0) out.push('(none)');

  out.push(rule(`Working set (${extraction.files.length})`));
  out.push(extraction.files.length ? extraction.files.map((file) => `  ${file}`).join('\n') : '(none)');

  out.push(rule(`Preservation context: ${extraction.context.tokens} / ${extraction.context.budget} tokens (exact)`));
  out.push(extraction.context.text || '(empty)');
  if (extraction.observationsRemoved > 0) out.push(`\n(${extraction.observationsRemoved} lower-scored observations left out by the budget)`);

  out.push(rule('Timings (ms; worker stages summed across threads)'));
  const timings = Object.entries(extraction.timings).sort(([a], [b]) => a.localeCompare(b));
  out.push(timings.map(([stage, ms]) => `  ${stage.padEnd(12)} ${ms.toFixed(1).padStart(9)}`).join('\n'));
  return `${out.join('\n')}\n`;
}
