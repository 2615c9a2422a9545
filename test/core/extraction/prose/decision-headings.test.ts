import { describe, expect, it } from 'vitest';
import { cuesFor } from '../../../../src/core/text/cues/cues.js';
import { proseItems } from '../../../../src/core/extraction/prose/prose-items.js';
import { headingKind, labelKind, type LabelCache } from '../../../../src/core/extraction/prose/decision-headings.js';

describe('labelKind', () => {
  it('should classify a label by its cue words, once per message', () => {
    const cues = cuesFor('eng');
    const cache: LabelCache = new Map();
    expect(labelKind('key decisions', cues, cache)).toBe('decision');
    expect(labelKind('next steps', cues, cache)).toBe('next');
    expect(labelKind('root cause', cues, cache)).toBe('problem');
    expect(labelKind('what changed', cues, cache)).toBe('summary');
    expect(labelKind('objective', cues, cache)).toBe('goal');
    expect(labelKind('appendix', cues, cache)).toBeNull();
    expect(cache.get('next steps')).toBe('next');
  });
});

describe('headingKind', () => {
  it('should take the section an item sits under, or a short label opening its sentence', () => {
    const cues = cuesFor('eng');
    const [underSummary] = proseItems('## Summary\n- Replaced the cron loop with a scheduler');
    const [labelled] = proseItems('Approach: move the retry budget into `QueueConfig`.');
    const [plain] = proseItems('Moved the retry budget into `QueueConfig`.');
    if (!underSummary || !labelled || !plain) throw new Error('expected items');
    expect(headingKind(underSummary, cues)).toBe('summary');
    expect(headingKind(labelled, cues)).toBe('decision');
    expect(headingKind(plain, cues)).toBeNull();
  });
});
