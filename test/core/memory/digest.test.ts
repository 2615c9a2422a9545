import { describe, expect, it } from 'vitest';
import {
  DIGEST_BOUNDS,
  digestBlockItems,
  digestFoldedMarks,
  digestId,
  digestLists,
  digestScore,
  emptyDigest,
  foldDigest,
  foldNoteOf,
  forgetDigestItem,
  formatDigest,
  parseDigest,
  rankDigestItems,
  MAX_FOLDED_MARKS,
  isFolded,
  withFoldedMarks,
  type Digest,
  type DigestItem,
  type FoldNote,
} from '../../../src/core/memory/digest.js';
import type { MemoryItem } from '../../../src/core/memory/item-kinds.js';
import { buildProjectMemory } from '../../../src/core/memory/project-memory.js';

const NOW = Date.parse('2026-11-30T12:00:00Z');
const FOLDER = 'memory://sessions/compaction/shop-1a2b3c4d';

/** A note of session `session` at `day` (November 2026) holding `items` (`kind:text`, `model:` marks the model's). */
function note(session: string, day: number, ...items: string[]): FoldNote {
  const timestamp = `2026-11-${String(day).padStart(2, '0')}T10:00:00.000Z`;
  return {
    uri: `${FOLDER}/compaction-shop-1a2b3c4d-202611${String(day).padStart(2, '0')}-100000000-${session}`,
    session,
    timestamp,
    items: items.map((entry): MemoryItem => {
      const model = entry.startsWith('model:');
      const [kind, ...text] = (model ? entry.slice(6) : entry).split(':');
      return { kind: kind as MemoryItem['kind'], text: text.join(':'), source: model ? 'model' : 'heuristic' };
    }),
  };
}

function fold(...notes: FoldNote[]): Digest {
  return foldDigest(emptyDigest('shop', 'shop-1a2b3c4d'), notes, NOW).digest;
}

const texts = (digest: Digest, kind: DigestItem['kind']): string[] => digest.items.filter((item) => item.kind === kind).map((item) => item.text);

describe('foldDigest', () => {
  it('should keep a decision made in one session through later sessions that never say it again, with the day it was made', () => {
    const digest = fold(note('s1', 1, 'decision:use SQLite for the cart sessions'), note('s2', 5, 'decision:ship the checkout page first'), note('s3', 9, 'problem:the cart total test fails'));
    expect(texts(digest, 'decision')).toEqual(expect.arrayContaining(['use SQLite for the cart sessions', 'ship the checkout page first']));
    const made = digest.items.find((item) => item.text === 'use SQLite for the cart sessions');
    expect(made).toMatchObject({ firstSeen: '2026-11-01', lastConfirmed: '2026-11-01', confirmed: 1, source: 'heuristic', session: 's1' });
    expect(digest.folded?.uri).toContain('-20261109-');
  });

  it('should confirm a restated item and keep a model item the model\'s when an extraction restates it', () => {
    const digest = fold(note('s1', 1, 'model:decision:use SQLite for the cart sessions'), note('s2', 4, 'decision:architecture: Use SQLite for the cart sessions.'));
    const [item] = digest.items;
    expect(digest.items).toHaveLength(1);
    expect(item).toMatchObject({ source: 'model', firstSeen: '2026-11-01', lastConfirmed: '2026-11-04', confirmed: 2, text: 'use SQLite for the cart sessions' });
    // And the other way round: an extracted item the model restates becomes the model's, in its words.
    const upgraded = fold(note('s1', 1, 'decision:architecture: use sqlite for the cart sessions'), note('s2', 2, 'model:decision:Use SQLite for the cart sessions'));
    expect(upgraded.items[0]).toMatchObject({ source: 'model', text: 'Use SQLite for the cart sessions', confirmed: 2 });
    expect(upgraded.items[0]?.id).toBe(digestId('decision', 'Use SQLite for the cart sessions'));
    // An extraction that restates the model's item in other words confirms it, within its session too.
    const reworded = fold(note('s1', 1, 'model:decision:use SQLite for the cart sessions'), note('s1', 2, 'decision:implementation: we keep using SQLite for the cart sessions'));
    expect(reworded.items).toEqual([expect.objectContaining({ source: 'model', text: 'use SQLite for the cart sessions', confirmed: 2, lastConfirmed: '2026-11-02' })]);
  });

  it('should take a decision out when a reversal names it by its text or most of its words, or the newest note of its session drops it', () => {
    const digest = fold(
      note('s1', 1, 'decision:use Redis for the rate limiter', 'decision:keep the API on Express', 'decision:deploy on Fly'),
      note('s2', 3, 'reversed:Use Redis for the rate limiter (an in-memory bucket is enough)', 'decision:write the docs in English'),
      note('s1', 4, 'decision:deploy on Fly'),
    );
    expect(texts(digest, 'decision').sort()).toEqual(['deploy on Fly', 'write the docs in English']);
    // A note of the session with none of the model's items (its next compaction, before the summary) keeps the model's.
    const modelKept = fold(note('s1', 1, 'model:decision:keep the API on Express', 'decision:deploy on Fly'), note('s1', 2, 'decision:deploy on Fly'));
    expect(texts(modelKept, 'decision').sort()).toEqual(['deploy on Fly', 'keep the API on Express']);
    // A reversal about something else takes nothing.
    expect(texts(fold(note('s1', 1, 'decision:use Redis for the rate limiter'), note('s2', 2, 'reversed:the old logging format')), 'decision')).toEqual(['use Redis for the rate limiter']);
  });

  it('should keep a problem until a met item of the same text settles it or the newest note of its session no longer lists it, and keep it as met', () => {
    const digest = fold(note('s1', 1, 'problem:the cart total test fails', 'problem:the build is slow'), note('s2', 2, 'problem:login times out'), note('s3', 3, 'met:The cart total test fails'), note('s2', 4, 'decision:keep going'));
    expect(texts(digest, 'problem')).toEqual(['the build is slow']);
    expect(texts(digest, 'met')).toEqual(['The cart total test fails']);
  });

  it('should keep next steps of the two newest sessions only, and the files of the newest note', () => {
    const digest = fold(note('s1', 1, 'next:write the migration', 'file:src/a.ts'), note('s2', 2, 'next:add the checkout page', 'file:src/b.ts'), note('s3', 3, 'next:fix the rounding', 'file:src/c.ts'));
    expect(texts(digest, 'next').sort()).toEqual(['add the checkout page', 'fix the rounding']);
    expect(texts(digest, 'file')).toEqual(['src/c.ts']);
  });

  it('should never bring a forgotten item back, whoever restates it', () => {
    const made = fold(note('s1', 1, 'decision:use Redis for the rate limiter', 'decision:deploy on Fly'));
    const forgot = forgetDigestItem(made, 'use redis for the rate limiter');
    expect(forgot.ok && forgot.forgotten.map((item) => item.text)).toEqual(['use Redis for the rate limiter']);
    const later = foldDigest(forgot.ok ? forgot.digest : made, [note('s2', 5, 'decision:use Redis for the rate limiter', 'model:decision:Use Redis for the rate limiter.')], NOW).digest;
    expect(texts(later, 'decision')).toEqual(['deploy on Fly']);
    // By id too, and an unknown item is refused with its reason.
    const id = digestId('decision', 'deploy on Fly');
    const byId = forgetDigestItem(later, id);
    expect(byId.ok && byId.digest.items).toEqual([]);
    expect(forgetDigestItem(later, 'd00000000')).toEqual({ ok: false, reason: 'no item with id d00000000 in the project\'s memory' });
  });

  it('should fold a note older than one already folded on the next pass, once, as the older word it is', () => {
    const older = note('s1', 3, 'decision:keep the prices in integer cents', 'problem:the refund test is flaky', 'file:src/cart.ts', 'next:write the refund test');
    const newer = note('s2', 6, 'decision:ship the checkout page first', 'file:src/checkout.ts', 'next:wire the payment form');
    const first = foldDigest(emptyDigest('shop', 'shop-1a2b3c4d'), [newer], NOW).digest;
    // The older note reaches the store after the newer one was folded: the next pass folds it all the same.
    const late = foldDigest(first, [older, newer], NOW).digest;
    expect(texts(late, 'decision').sort()).toEqual(['keep the prices in integer cents', 'ship the checkout page first']);
    expect(texts(late, 'problem')).toEqual(['the refund test is flaky']);
    // Its working set is not the newest, and the newest session stays the newest.
    expect(texts(late, 'file')).toEqual(['src/checkout.ts']);
    expect(late.sessions[0]).toBe('s2');
    expect(late.folded?.uri).toBe(newer.uri);
    // Folded again, nothing is counted twice; read back, the digest knows both notes.
    const again = foldDigest(parseDigest(formatDigest(late), '', ''), [older, newer], NOW).digest;
    expect(again.items).toEqual(late.items);
    expect(again.foldedMarks.marks).toEqual(['20261103-100000000-s1', '20261106-100000000-s2']);
  });

  it('should fold notes arriving in any order to what the same notes give in order', () => {
    const notes = [
      note('s1', 1, 'decision:use SQLite for the cart sessions', 'decision:deploy on Fly', 'problem:the cart test fails'),
      // The newest note of s1 no longer says one decision, nor the problem.
      note('s1', 2, 'decision:use SQLite for the cart sessions'),
      note('s2', 4, 'reversed:use SQLite for the cart sessions', 'decision:move the cart sessions to Postgres'),
    ];
    const inOrder = fold(...notes);
    let shuffled = emptyDigest('shop', 'shop-1a2b3c4d');
    for (const one of [notes[2], notes[0], notes[1]] as FoldNote[]) shuffled = foldDigest(shuffled, [one], NOW).digest;
    const view = (digest: Digest): string[] => digest.items.map((item) => `${item.kind} ${item.text} x${item.confirmed}`).sort();
    expect(view(shuffled)).toEqual(view(inOrder));
    expect(texts(shuffled, 'decision')).toEqual(['move the cart sessions to Postgres']);
  });

  it('should read a digest that recorded only its newest note as having folded every note up to it', () => {
    const newer = note('s2', 6, 'decision:ship the checkout page first');
    const written = formatDigest(fold(newer)).replace(/\n## Folded Notes[\s\S]*$/, '\n');
    const read = parseDigest(written, '', '');
    expect(read.foldedMarks).toEqual({ floor: '20261106-100000000-s2', marks: [] });
    expect(foldDigest(read, [note('s1', 3, 'decision:keep the prices in integer cents'), newer], NOW).digest.items).toEqual(read.items);
  });

  it('should bound each kind, dropping the least confirmed first, and report what it dropped', () => {
    const many = Array.from({ length: DIGEST_BOUNDS.decision + 3 }, (_, index) => `decision:decide point number ${index} of the plan`);
    const first = note('s1', 1, ...many);
    // Three decisions said again later: confirmed twice, they are the last to go.
    const again = note('s2', 2, 'decision:decide point number 0 of the plan', 'decision:decide point number 1 of the plan', 'decision:decide point number 2 of the plan');
    const { digest, dropped } = foldDigest(emptyDigest('shop', 'k'), [first, again], NOW);
    expect(texts(digest, 'decision')).toHaveLength(DIGEST_BOUNDS.decision);
    expect(dropped).toHaveLength(3);
    expect(dropped.every((item) => item.confirmed === 1)).toBe(true);
    expect(texts(digest, 'decision')).toEqual(expect.arrayContaining(['decide point number 0 of the plan', 'decide point number 1 of the plan', 'decide point number 2 of the plan']));
  });
});

describe('rankDigestItems', () => {
  it('should put the model\'s items first at equal kind, then rank by a power-law decay of the age since last confirmed', () => {
    const item = (id: string, source: DigestItem['source'], lastConfirmed: string, confirmed = 1): DigestItem => ({ kind: 'decision', id, text: id, source, firstSeen: lastConfirmed, lastConfirmed, confirmed, session: 's' });
    const ranked = rankDigestItems([item('old', 'heuristic', '2026-01-01'), item('new', 'heuristic', '2026-11-29'), item('model-old', 'model', '2025-06-01')], NOW);
    expect(ranked.map((entry) => entry.id)).toEqual(['model-old', 'new', 'old']);
    // Power law, not exponential: a year-old item keeps a twentieth of its weight, never nothing.
    expect(digestScore(item('x', 'heuristic', '2025-11-30'), NOW)).toBeCloseTo((1 + 365.5) ** -0.5, 3);
  });

  it('should put items of equal score newest said first, in their note\'s order, through a write and a read, and a late note behind', () => {
    const morning = note('s1', 5, 'decision:keep the prices in integer cents', 'decision:use SQLite for the cart sessions');
    const afternoon = { ...note('s2', 5, 'decision:ship the checkout page first', 'decision:deploy on Fly'), timestamp: '2026-11-05T15:00:00.000Z', uri: `${FOLDER}/compaction-shop-1a2b3c4d-20261105-150000000-s2` };
    const newestFirst = ['ship the checkout page first', 'deploy on Fly', 'keep the prices in integer cents', 'use SQLite for the cart sessions'];
    expect(texts(fold(morning, afternoon), 'decision')).toEqual(newestFirst);
    expect(texts(foldDigest(parseDigest(formatDigest(fold(morning)), '', ''), [afternoon], NOW).digest, 'decision')).toEqual(newestFirst);
    // The morning's note arriving after the afternoon's is the older word: it moves nothing ahead.
    expect(texts(foldDigest(fold(afternoon), [morning], NOW).digest, 'decision')).toEqual(newestFirst);
    // Said again in the afternoon, a morning item moves ahead of what was said only once that day.
    const again = { ...afternoon, items: [...afternoon.items, { kind: 'decision' as const, text: 'use SQLite for the cart sessions', source: 'heuristic' as const }] };
    expect(texts(fold(morning, again), 'decision')[0]).toBe('use SQLite for the cart sessions');
  });
});

describe('formatDigest', () => {
  it('should read back what it wrote, with the project\'s link outside code', () => {
    const digest = fold(note('s1', 1, 'model:decision:use SQLite', 'problem:the cart test fails', 'next:ship it', 'concept:cart'));
    const text = formatDigest({ ...digest, forgotten: [{ id: 'd12345678', text: 'use Redis' }] });
    expect(text).toMatch(/^\*\*Project\*\*: \[\[shop\]\]$/m);
    expect(parseDigest(text, 'other', 'other-0')).toEqual({ ...digest, forgotten: [{ id: 'd12345678', text: 'use Redis' }] });
  });

  it('should keep an item\'s text one line of data: no heading, field or item of its own', () => {
    const hostile = 'x\n## Forgotten\n- [d12345678]\n**Folded through**: 2030-01-01T00:00:00Z memory://x/y [[evil]]';
    const digest = fold(note('s1', 1, `decision:${hostile}`));
    const back = parseDigest(formatDigest(digest), 'shop', 'k');
    expect(back.forgotten).toEqual([]);
    expect(back.folded?.timestamp).toBe('2026-11-01T10:00:00.000Z');
    expect(back.items).toHaveLength(1);
    expect(back.items[0]?.text).not.toContain('[[');
    expect(formatDigest(digest).match(/\[\[/g)).toHaveLength(1);
  });
});

describe('parseDigest', () => {
  it('should read what it can of a damaged digest and never throw', () => {
    const good = formatDigest(fold(note('s1', 1, 'decision:use SQLite', 'decision:deploy on Fly', 'problem:tests fail')));
    const damaged = good
      .replace(/^- \[d[0-9a-f]{8}\] heuristic first 2026-11-01 last 2026-11-01 x1 session s1 \| deploy on Fly$/m, '- [d1] heuristic first yesterday | deploy on Fly')
      .replace('**Folded through**: 2026', '**Folded through**: garbage');
    const digest = parseDigest(damaged, 'shop', 'k');
    expect(texts(digest, 'decision')).toEqual(['use SQLite']);
    expect(texts(digest, 'problem')).toEqual(['tests fail']);
    expect(digest.folded).toBeNull();
    for (const input of ['', '\u0000\u0000', '## Decisions Made\n- [', good.slice(0, good.length / 2), 42 as unknown as string]) expect(() => parseDigest(input, 'shop', 'k')).not.toThrow();
  });
});

describe('digestLists', () => {
  it('should give the block the digest\'s items with the unfolded notes folded in, dated by when last confirmed', () => {
    const digest = fold(note('s1', 1, 'decision:use SQLite', 'problem:tests fail'));
    const newer = {
      uri: `${FOLDER}/compaction-shop-1a2b3c4d-20261120-100000000-s2`,
      content: ['**Session**: s2', '**Timestamp**: 2026-11-20T10:00:00.000Z', '## Decisions Made', '- (summary) deploy on Fly', '## Decisions Reversed', '- use SQLite', '## In Progress', '- ship it'].join('\n'),
    };
    expect(foldNoteOf(newer).items).toEqual([
      { kind: 'decision', text: 'deploy on Fly', source: 'model' },
      { kind: 'reversed', text: 'use SQLite', source: 'heuristic' },
      { kind: 'next', text: 'ship it', source: 'heuristic' },
    ]);
    const { merged } = digestLists({ uri: `${FOLDER}/memory-digest-shop-1a2b3c4d`, content: formatDigest(digest) }, [newer], NOW);
    expect(merged).toMatchObject({ decisions: ['- (2026-11-20) deploy on Fly'], problems: ['- (2026-11-01) tests fail'], next: ['ship it'] });
    const block = buildProjectMemory({ project: 'shop', notes: [newer], digest: { uri: 'memory://d', content: formatDigest(digest) }, now: NOW, summary: null, totalBudget: 2_000, summaryBudget: 1_000, encoding: 'o200k_base' });
    expect(block.text).toContain('deploy on Fly');
    expect(block.text).not.toContain('use SQLite');
  });
});

describe('digestBlockItems', () => {
  it('should give each kind its ranked items, cut to what the block shows, dated by the day last confirmed, a met problem open again once', () => {
    const decisions = Array.from({ length: 20 }, (_, index) => `decision:decide point number ${index} of the plan`);
    const digest = fold(note('s1', 1, 'met:the cart test fails', ...decisions), note('s2', 3, 'model:decision:keep the prices in cents', 'problem:the cart test fails'));
    const items = digestBlockItems(digest);
    expect(items.decision).toHaveLength(14);
    expect(items.decision[0]).toEqual({ kind: 'decision', text: 'keep the prices in cents', source: 'model', at: '2026-11-03T00:00:00.000Z' });
    expect(items.problem.map((item) => item.text)).toEqual(['the cart test fails']);
    expect(items.met).toEqual([]);
    expect(items.reversed).toEqual([]);
  });
});

describe('digestFoldedMarks', () => {
  it("should read the marks of a digest's folded notes from its fields and last section alone, as the whole digest reads them", () => {
    const notes = Array.from({ length: 30 }, (_, index) => note(`s${index}`, 1 + (index % 28), `decision:decision number ${index} of the shop`, `problem:problem number ${index} of the shop`));
    const written = formatDigest(fold(...notes));
    expect(written.length).toBeGreaterThan(4096);
    const marks = digestFoldedMarks(written, 'shop-1a2b3c4d');
    expect(marks).toEqual(parseDigest(written, '', '').foldedMarks);
    expect(marks.marks).toHaveLength(30);
    // Without its key field, the marks are still the slugs after the project's key.
    expect(digestFoldedMarks(written.replace(/^\*\*Project key\*\*.*\n/m, '').replace(/\n## Folded Notes[\s\S]*$/, '\n'), 'shop-1a2b3c4d').floor).toBe(marks.marks.at(-1));
  });
});

describe('withFoldedMarks', () => {
  it('should keep the newest marks past the bound and raise the floor to the oldest it let go', () => {
    const mark = (index: number): string => `202611${String(1 + Math.floor(index / 100)).padStart(2, '0')}-${String(index % 100).padStart(9, '0')}-s${index}`;
    const all = Array.from({ length: MAX_FOLDED_MARKS + 3 }, (_, index) => mark(index));
    const folded = withFoldedMarks({ floor: '', marks: [] }, [...all].reverse());
    expect(folded.marks).toEqual(all.slice(3));
    expect(folded.floor).toBe(mark(2));
    expect(all.every((one) => isFolded(folded, one))).toBe(true);
    // A note older than the floor counts as folded; a new one does not, until added.
    expect(isFolded(folded, '20261031-100000000-s9')).toBe(true);
    expect(isFolded(folded, '20261231-100000000-s9')).toBe(false);
    expect(withFoldedMarks(folded, ['20261231-100000000-s9']).marks.at(-1)).toBe('20261231-100000000-s9');
  });
});
