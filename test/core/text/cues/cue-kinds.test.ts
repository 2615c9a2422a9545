import { describe, expect, it } from 'vitest';
import { cueTable, type CueWords } from '../../../../src/core/text/cues/cue-kinds.js';
import { inflectFrench, inflectGerman, inflectIberian, withInflections } from '../../../../src/core/text/cues/cue-inflections.js';

const NONE = {
  goalHeading: [],
  purpose: [],
  summaryHeading: [],
  decisionHeading: [],
  problemHeading: [],
  nextHeading: [],
  planHeading: [],
  problem: [],
  next: [],
  minor: [],
  hedge: [],
  verified: [],
} satisfies Omit<CueWords, 'instruction' | 'change' | 'weakChange'>;

describe('cueTable', () => {
  it('should make every instruction verb an instruction cue and add each group to the change kind it marks', () => {
    const table = cueTable({
      ...NONE,
      instruction: { change: ['replace'], weakChange: ['add'], only: ['consider'] },
      change: ['replaced'],
      weakChange: ['added'],
    });
    expect(table.instruction).toEqual(['replace', 'add', 'consider']);
    expect(table.change).toEqual(['replaced', 'replace']);
    expect(table.weakChange).toEqual(['added', 'add']);
    expect(table.purpose).toEqual([]);
  });

  it('should take a language without instruction verbs', () => {
    const table = cueTable({ ...NONE, instruction: {}, change: ['変更'], weakChange: ['追加'] });
    expect(table).toMatchObject({ instruction: [], change: ['変更'], weakChange: ['追加'] });
  });

  it("should add the inflected forms of the change words and summary headings in the language's way", () => {
    const table = cueTable({ ...NONE, summaryHeading: ['completado'], instruction: { weakChange: ['corregir'] }, change: ['reemplazado'], weakChange: ['añadido'] }, inflectIberian);
    expect(table.change).toEqual(['reemplazado', 'reemplazada', 'reemplazados', 'reemplazadas']);
    expect(table.weakChange).toContain('añadidas');
    expect(table.summaryHeading).toContain('completada');
    expect(table.instruction).toEqual(['corregir']);
  });
});

describe('inflectIberian', () => {
  it('should inflect a participle in gender and number, and leave other words alone', () => {
    expect(inflectIberian('eliminado')).toEqual(['eliminada', 'eliminados', 'eliminadas']);
    expect(inflectIberian('reescrito')).toEqual(['reescrita', 'reescritos', 'reescritas']);
    expect(inflectIberian('quitado de')).toEqual(['quitada de', 'quitados de', 'quitadas de']);
    expect(inflectIberian('uso')).toEqual([]);
    expect(inflectIberian('en lugar de')).toEqual([]);
  });
});

describe('inflectFrench', () => {
  it('should inflect a participle in -é', () => {
    expect(inflectFrench('supprimé')).toEqual(['supprimée', 'supprimés', 'supprimées']);
    expect(inflectFrench('au lieu de')).toEqual([]);
  });
});

describe('inflectGerman', () => {
  it('should give a weak participle its endings, and leave statt and phrases alone', () => {
    expect(inflectGerman('entfernt')).toEqual(['entfernte', 'entfernten']);
    expect(inflectGerman('statt')).toEqual([]);
    expect(inflectGerman('nutzt jetzt')).toEqual([]);
  });
});

describe('withInflections', () => {
  it('should keep each word once and return the words unchanged without an inflection', () => {
    expect(withInflections(['a', 'a'])).toEqual(['a', 'a']);
    expect(withInflections(['cambiado', 'cambiada'], inflectIberian)).toEqual(['cambiado', 'cambiada', 'cambiados', 'cambiadas']);
  });
});
