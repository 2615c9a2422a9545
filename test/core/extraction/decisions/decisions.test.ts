import { describe, expect, it } from 'vitest';
import { extractDecisions, splitSentences } from '../../../../src/core/extraction/decisions/decisions.js';

describe('extractDecisions', () => {
  it('should find a stated decision with its family, category and sentence, and nothing in plain text', () => {
    expect(extractDecisions('We decided to use SQLite.')).toEqual([
      { family: 'explicit', category: 'implementation', text: 'use SQLite', context: 'We decided to use SQLite.' },
    ]);
    expect(extractDecisions('Hello world')).toEqual([]);
  });

  it('should categorize each family', () => {
    const text = [
      'We are using SQLite for local storage on every device.',
      "I won't use Redis for this part of the system.",
      'It stays in process because it is simpler to operate.',
      'Approach: split the writes into batches of one hundred.',
      'I chose to adopt async/await throughout the client.',
    ].join(' ');
    expect(extractDecisions(text).map((decision) => [decision.category, decision.text])).toEqual([
      ['architecture', 'using SQLite for local storage on every device'],
      ['rejection', 'use Redis for this part of the system'],
      ['rationale', 'it is simpler to operate'],
      ['architecture', 'split the writes into batches of one hundred'],
      ['implementation', 'adopt async/await throughout the client'],
    ]);
  });

  it('should keep a stated choice whole: what it replaces and why, and a short object', () => {
    expect(extractDecisions('We decided to use SQLite instead of Redis because it is simpler to ship.')[0]).toMatchObject({
      family: 'explicit', text: 'use SQLite instead of Redis because it is simpler to ship',
    });
    expect(extractDecisions('We chose Bun.')[0]).toMatchObject({ family: 'explicit', text: 'Bun' });
    expect(extractDecisions('In the end we went with a single queue per tenant.')[0]).toMatchObject({ family: 'explicit', text: 'a single queue per tenant' });
  });

  it('should read "Approach:" opening a line as a stated choice, and the word inside a sentence as the loose family', () => {
    expect(extractDecisions('Checked the logs.\n- **Strategy:** cache the parsed config per process.')).toEqual([
      expect.objectContaining({ family: 'labelled', category: 'architecture', text: 'cache the parsed config per process' }),
    ]);
    expect(extractDecisions('A cleaner approach would be to cache the parsed config.').map((decision) => decision.family)).toEqual(['approach']);
  });

  it('should classify "decided against" as a rejection only', () => {
    const decisions = extractDecisions('We decided against a second database for now.');
    expect(decisions).toHaveLength(1);
    expect(decisions[0]).toMatchObject({ family: 'rejection', text: 'a second database for now' });
  });

  it('should match "we" and "I" only as whole words', () => {
    expect(extractDecisions('The API decided to return a 500 for every request.')).toEqual([]);
    expect(extractDecisions('Kiwi chose to grow on the vine all summer.')).toEqual([]);
  });

  it('should skip fenced code, dedupe by lowercase text and cap contexts', () => {
    const text = `We decided to use SQLite here.\n\n\`\`\`\n// we decided to use MongoDB instead\n\`\`\`\nWE DECIDED TO USE SQLITE HERE! ${'x '.repeat(200)}because of the long tail.`;
    const decisions = extractDecisions(text);
    expect(decisions.map((decision) => decision.text)).toEqual(['use SQLite here', 'of the long tail']);
    expect(decisions.every((decision) => decision.context.length <= 200)).toBe(true);
  });

  it('should read only the families asked for, and count max among them', () => {
    const text = 'Because the cache was cold we waited. Because the index was stale we rebuilt it. We decided to use SQLite for the index.';
    expect(extractDecisions(text, { max: 2 }).map((decision) => decision.family)).toEqual(['rationale', 'rationale']);
    expect(extractDecisions(text, { max: 2, families: new Set(['explicit', 'rejection']) }).map((decision) => decision.text)).toEqual(['use SQLite for the index']);
    expect(extractDecisions(text, { families: new Set() })).toEqual([]);
  });

  it('should respect max', () => {
    const text = Array.from({ length: 20 }, (_, index) => `We decided to ship feature number ${index}.`).join(' ');
    expect(extractDecisions(text, { max: 3 })).toHaveLength(3);
    expect(extractDecisions(text, { max: 0 })).toEqual([]);
  });

  it('should finish on text without punctuation and on repeated triggers', () => {
    expect(extractDecisions('because '.repeat(200_000)).length).toBe(1);
    expect(extractDecisions('we decided '.repeat(100_000)).length).toBeLessThanOrEqual(2);
    expect(extractDecisions('x'.repeat(2_000_000))).toEqual([]);
  });
});

describe('splitSentences', () => {
  it('should split after terminators followed by whitespace', () => {
    expect(splitSentences('One. Two! Three? v1.2 stays')).toEqual(['One.', 'Two!', 'Three?', 'v1.2 stays']);
  });

  it('should never cut a character in half', () => {
    const lone = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
    const decisions = extractDecisions(`we decided to x${'😀'.repeat(1_000)}. We chose to ship ${'👨\u200d👩\u200d👧'.repeat(100)}`);
    expect(decisions).toHaveLength(2);
    for (const decision of decisions) {
      expect(decision.text).not.toMatch(lone);
      expect(decision.context).not.toMatch(lone);
    }
  });
});
