/**
 * Each stage alone, inline, over the text of a 1 MB synthetic session: where
 * the pipeline's time goes.
 */
import { Bench } from 'tinybench';
import { generateSession } from '../src/synth/session-generator.js';
import { sanitizeText } from '../src/core/text/sanitize.js';
import { scanHeadings, selectBoundarySections } from '../src/core/text/sections.js';
import { proseBlocks } from '../src/core/text/markdown.js';
import { countConcepts, findWikiLinks } from '../src/core/extraction/concepts/concepts.js';
import { extractDecisions } from '../src/core/extraction/decisions/decisions.js';
import { truncateToTokens } from '../src/core/text/tokens/token-truncation.js';
import { countTokens } from '../src/core/text/tokens/tokens.js';
import { cuesFor } from '../src/core/text/cues/cues.js';
import { transcriptOf } from './naive-extraction.js';

/**
 * @param quick - fewer iterations.
 * @returns tinybench's table rows.
 */
export async function benchStages(quick: boolean): Promise<Record<string, unknown>[]> {
  const text = sanitizeText(transcriptOf(generateSession({ seed: 3, targetBytes: 1024 ** 2 })));
  const sections = selectBoundarySections(text).sections;
  // Cue words short of their last letter: each position starts a walk that fails at the end.
  const nearMisses = 'chang replac switc instea rathe '.repeat(200_000);
  const cues = cuesFor('spa');
  const bench = new Bench({ iterations: quick ? 3 : 10, time: 0 });
  bench
    .add('sanitize 1MB', () => void sanitizeText(text))
    .add('scan headings 1MB', () => void scanHeadings(text))
    .add('wikilinks 1MB', () => void findWikiLinks(text))
    .add('decisions 1MB', () => void extractDecisions(text, { max: 10_000 }))
    .add('remark, boundary sections', () => void countConcepts(sections.flatMap((section) => proseBlocks(section))))
    .add('cue near-misses 6MB', () => void (['change', 'weakChange', 'problem', 'next', 'hedge'] as const).map((kind) => cues[kind].test(nearMisses)))
    .add('count tokens 1MB', () => void countTokens(text))
    .add('truncate 1MB to 8k tokens', () => void truncateToTokens(text, 8_000));
  await bench.run();
  return bench.table() as Record<string, unknown>[];
}
