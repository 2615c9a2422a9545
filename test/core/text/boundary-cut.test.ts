import { describe, expect, it } from 'vitest';
import { cutAtBoundary, CUT_MARK } from '../../../src/core/text/boundary-cut.js';

describe('cutAtBoundary', () => {
  it('should keep a text that fits as it is', () => {
    expect(cutAtBoundary('Switched the loader to streaming reads.', 80)).toBe('Switched the loader to streaming reads.');
  });

  it('should cut after the last whole sentence, without a mark', () => {
    const text = 'Checkpoints are now picked by top-1 accuracy and macro F1. The validation loss stays in the log for reference only.';
    expect(cutAtBoundary(text, 80)).toBe('Checkpoints are now picked by top-1 accuracy and macro F1.');
  });

  it('should cut after a full-width stop in CJK text', () => {
    const text = '改用流式读取来加载数据集。旧的一次性读取在大文件上会占满内存并且让训练进程被系统杀掉。';
    expect(cutAtBoundary(text, 24)).toBe('改用流式读取来加载数据集。');
  });

  it('should cut at a clause boundary, marked, when no sentence ends in time', () => {
    const text = 'Dropped the Perceiver branch and the rotary embeddings from the encoder, keeping the plain transformer blocks that the baseline used';
    const cut = cutAtBoundary(text, 100);
    expect(cut).toBe(`Dropped the Perceiver branch and the rotary embeddings from the encoder${CUT_MARK}`);
  });

  it('should never end on a lead-in clause: it keeps the claim that follows, up to the reach', () => {
    const text = 'Because the validation loss kept falling while accuracy on the rare classes dropped, checkpoints are now chosen by macro F1 instead.';
    const cut = cutAtBoundary(text, 90, { reach: 200 });
    expect(cut).toBe(text);
    const spanish = 'Para evitar que el worker se bloquee con archivos grandes, ahora se leen los CSV por partes y se descartan las filas vacías, sin cargarlas enteras en memoria';
    expect(cutAtBoundary(spanish, 70, { reach: 140 })).toBe(`Para evitar que el worker se bloquee con archivos grandes, ahora se leen los CSV por partes y se descartan las filas vacías${CUT_MARK}`);
    expect(cutAtBoundary(spanish, 70)).toBe(`Para evitar que el worker se bloquee con archivos grandes, ahora se${CUT_MARK}`);
  });

  it('should not end on a colon that announces the point', () => {
    const text = 'The reject state for background audio works like this: frames under the energy floor map to a pause label before the classifier runs';
    const cut = cutAtBoundary(text, 70, { reach: 160 });
    expect(cut.startsWith('The reject state for background audio works like this: frames')).toBe(true);
  });

  it('should fall back to a word boundary, marked, and never split a surrogate pair', () => {
    const text = 'aaaa bbbb cccc dddd eeee ffff gggg hhhh iiii jjjj';
    expect(cutAtBoundary(text, 22)).toBe(`aaaa bbbb cccc dddd${CUT_MARK}`);
    const emoji = `${'x'.repeat(9)}😀${'y'.repeat(20)}`;
    expect(cutAtBoundary(emoji, 11)).toBe(`${'x'.repeat(9)}${CUT_MARK}`);
  });

  it('should keep within max when the point is already inside it', () => {
    const text = 'Moved the session reader into its own module, since the exporter and the report both need it, and the tests now import it directly';
    const cut = cutAtBoundary(text, 100, { reach: 300 });
    expect(cut.length).toBeLessThanOrEqual(100);
    expect(cut).toBe(`Moved the session reader into its own module, since the exporter and the report both need it${CUT_MARK}`);
  });
});

describe('cutAtBoundary (room)', () => {
  it('should not give up most of the room for an early boundary: the end of the claim is worth more', () => {
    const text = 'Root cause: the sync wrote start and end times in milliseconds to a column that expects seconds, so every queued job landed decades ahead and the worker skipped them';
    const cut = cutAtBoundary(text, 140);
    expect(cut.length).toBeGreaterThan(120);
    expect(cut).toContain('landed decades ahead');
  });
});

describe('cutAtBoundary (connectives)', () => {
  it('should read a lead-in after a connective as one, and keep the claim after it', () => {
    const text = 'However, since the hit durations are fixed per clip in the inspector (hitDelay = 0.4f and recoverDelay = 0.2f), the robust fix is to fire the hit from the animation event instead';
    const cut = cutAtBoundary(text, 120, { reach: 200 });
    expect(cut).toContain('the robust fix is to fire the hit');
  });
});
