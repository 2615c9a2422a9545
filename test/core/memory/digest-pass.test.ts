import { describe, expect, it } from 'vitest';
import { runDigestPass } from '../../../src/core/memory/digest-pass.js';
import { parseDigest } from '../../../src/core/memory/digest.js';

const NOW = Date.parse('2026-11-30T00:00:00Z');

/** A compaction note of `session` on 2026-11-`day` with the decisions given, as the compacting hook writes it. */
function note(session: string, day: number, decisions: string[]): { uri: string; content: string } {
  const date = `2026-11-${String(day).padStart(2, '0')}`;
  return {
    uri: `memory://sessions/compaction/shop-1a2b3c4d/compaction-shop-1a2b3c4d-202611${String(day).padStart(2, '0')}-100000000-${session}.md`,
    content: ['# Compaction Summary', '', `**Session**: ${session}`, '**Project**: shop', `**Timestamp**: ${date}T10:00:00.000Z`, '', '## Decisions Made', '', ...decisions.map((text) => `- ${text}`), ''].join('\n'),
  };
}

describe('runDigestPass', () => {
  it('should fold the notes into a new digest and say nothing is to be written when nothing is new', () => {
    const first = runDigestPass({ digest: '', concept: 'shop', key: 'shop-1a2b3c4d', notes: [note('s1', 1, ['use SQLite for the cart'])], now: NOW });
    expect(first.text).not.toBeNull();
    expect(parseDigest(first.text ?? '', '', '').items.map((item) => item.text)).toEqual(['use SQLite for the cart']);
    expect(first).toMatchObject({ items: 1, dropped: [], forgotten: [], unknown: '' });
    expect(runDigestPass({ digest: first.text ?? '', concept: 'shop', key: 'shop-1a2b3c4d', notes: [], now: NOW })).toMatchObject({ text: null, items: 1 });
  });

  it('should forget an item by its text after the fold, and say why when nothing matches', () => {
    const folded = runDigestPass({ digest: '', concept: 'shop', key: 'shop-1a2b3c4d', notes: [note('s1', 1, ['use SQLite for the cart', 'ship the checkout page first'])], now: NOW });
    const forgot = runDigestPass({ digest: folded.text ?? '', concept: 'shop', key: 'shop-1a2b3c4d', notes: [], now: NOW, forget: 'use SQLite for the cart' });
    expect(forgot.forgotten.map((item) => item.text)).toEqual(['use SQLite for the cart']);
    expect(parseDigest(forgot.text ?? '', '', '').items.map((item) => item.text)).toEqual(['ship the checkout page first']);
    const unknown = runDigestPass({ digest: forgot.text ?? '', concept: 'shop', key: 'shop-1a2b3c4d', notes: [], now: NOW, forget: 'use Redis' });
    expect(unknown).toMatchObject({ text: null, forgotten: [] });
    expect(unknown.unknown).toMatch(/no item "use Redis"/);
  });
});
