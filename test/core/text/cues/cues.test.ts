import { describe, expect, it } from 'vitest';
import { compile, CUE_LANGUAGES, cuesFor, exactExpression } from '../../../../src/core/text/cues/cues.js';
import { createPrng } from '../../../../src/synth/prng.js';

describe('cuesFor', () => {
  it('should have cue sets for English, Spanish, German, French, Portuguese, Chinese, Japanese, Russian and Polish', () => {
    expect([...CUE_LANGUAGES].sort()).toEqual(['cmn', 'deu', 'eng', 'fra', 'jpn', 'pol', 'por', 'rus', 'spa']);
  });

  it('should find change cues in each language, and English ones in every language', () => {
    expect(cuesFor('eng').change.test('Switched the cache to an LRU map')).toBe(true);
    expect(cuesFor('spa').change.test('Reemplacé el fetch por un hook propio')).toBe(true);
    expect(cuesFor('deu').change.test('Ich habe den Parser ersetzt')).toBe(true);
    expect(cuesFor('fra').change.test('On utilise Redis au lieu de Memcached')).toBe(true);
    expect(cuesFor('por').change.test('Usamos Postgres em vez de MySQL')).toBe(true);
    expect(cuesFor('cmn').change.test('把缓存改为内存映射')).toBe(true);
    expect(cuesFor('jpn').change.test('キャッシュをRedisに変更しました')).toBe(true);
    expect(cuesFor('rus').change.test('Заменили Memcached на Redis')).toBe(true);
    expect(cuesFor('pol').change.test('Zamieniłem fetch na własny hook')).toBe(true);
    expect(cuesFor('spa').change.test('Replaced the reducer with a signal')).toBe(true);
    expect(cuesFor('und').change.test('Reemplacé el fetch')).toBe(false);
  });

  it('should match whole words only, and not a word joined to a name', () => {
    const cues = cuesFor('eng');
    expect(cues.nextHeading.test('next steps')).toBe(true);
    expect(cues.nextHeading.test('plan: upgrade next.js to 15')).toBe(false);
    expect(cues.change.test('the spinner keeps turning')).toBe(false);
    expect(cues.problem.test('the page freezes on load')).toBe(true);
    expect(cues.problem.test('errorHandler.ts')).toBe(false);
  });

  it('should find problem and next-step cues in other languages', () => {
    expect(cuesFor('spa').problem.test('el navegador se congela al iniciar')).toBe(true);
    expect(cuesFor('deu').problem.test('die App stürzt ab')).toBe(true);
    expect(cuesFor('cmn').problem.test('页面崩溃了')).toBe(true);
    expect(cuesFor('fra').nextHeading.test('prochaines étapes')).toBe(true);
    expect(cuesFor('jpn').nextHeading.test('次のステップ')).toBe(true);
    expect(cuesFor('rus').problem.test('сборка падает на этапе тестов')).toBe(true);
    expect(cuesFor('rus').nextHeading.test('Следующие шаги')).toBe(true);
    expect(cuesFor('pol').problem.test('kontener się wywala przy starcie')).toBe(true);
    expect(cuesFor('pol').nextHeading.test('Następne kroki')).toBe(true);
  });

  it('should match a stem of an inflected language at a word start only', () => {
    // Russian and Polish stems stand for their forms: исправил, исправлена, исправлено.
    expect(cuesFor('rus').weakChange.test('Ошибка исправлена в UserService')).toBe(true);
    expect(cuesFor('rus').weakChange.test('переисправлять')).toBe(false);
    expect(cuesFor('pol').weakChange.test('Naprawiono konfigurację nginx')).toBe(true);
    // A participle's forms, not its stem: the verb's noun, or an adverb, reports no change.
    expect(cuesFor('rus').weakChange.test('Расширение подключено через sqlite_vec.load')).toBe(true);
    expect(cuesFor('rus').weakChange.test('неправильный способ подключения расширения')).toBe(false);
    expect(cuesFor('pol').change.test('To zdecydowanie najprostsza droga')).toBe(false);
    expect(cuesFor('pol').weakChange.test('Dodane wpisy dla LocalSend')).toBe(true);
    // A past tense in the first person is the stem and its ending: usunął, usunąłem; zrobiłem, zrobiliśmy.
    expect(cuesFor('pol').weakChange.test('Usunąłem stary skrypt `set-dock.sh`')).toBe(true);
    expect(cuesFor('pol').weakChange.test('Zrobiłem osobny moduł dla motywów')).toBe(true);
    // An English session is not read with their words.
    expect(cuesFor('eng').weakChange.test('Ошибка исправлена')).toBe(false);
  });

  it('should read a count of steps as a plan in Chinese, as "three steps" reads in English', () => {
    expect(cuesFor('eng').planHeading.test('So the actual work has three steps')).toBe(true);
    expect(cuesFor('cmn').planHeading.test('所以实际工作分三步')).toBe(true);
    expect(cuesFor('cmn').planHeading.test('分步实施')).toBe(true);
    expect(cuesFor('cmn').planHeading.test('进一步优化性能')).toBe(false);
  });

  it('should read a Russian cue written with е for ё as the same cue', () => {
    expect(cuesFor('rus').change.test('Перешел от виртуальных таблиц vec0 к колонке BLOB')).toBe(true);
    expect(cuesFor('rus').change.test('Перешёл от виртуальных таблиц vec0 к колонке BLOB')).toBe(true);
    expect(cuesFor('rus').change.test('Клиент перевел на новый API')).toBe(true);
    expect(cuesFor('rus').weakChange.test('Старый конфиг удален, новый подключен')).toBe(true);
    expect(cuesFor('rus').change.test('Таблица заменена представлением')).toBe(true);
    expect(cuesFor('rus').change.test('перешел к следующему шагу')).toBe(false);
  });

  // How long a scan of a long line takes is measured by `npm run bench` (stages, cue near-misses).
  it('should find no cue in a line of near-misses: cue words short of their last letter', () => {
    const line = 'chang replac switc instea rathe '.repeat(200);
    const cues = cuesFor('spa');
    for (const kind of ['change', 'weakChange', 'problem', 'next', 'hedge'] as const) expect(cues[kind].test(line)).toBe(false);
  });
});

describe('compile', () => {
  const CUES = ['instead of', 'replaced', 'fix', 'congel*', 'ya no', '→', '->', '修复', 'não resolvido', 'débloqué', 'straße'];
  const PIECES = [
    'instead of', 'Instead Of', 'INSTEAD  of', 'replaced', 'Replaced', 'replacedX', 'fix', 'FIX', 'fixes', 'prefix', 'fix_', '_fix',
    'congela', 'Congelado', 'descongela', 'ya no', 'YA NO', '→', '修复', 'não resolvido', 'NÃO RESOLVIDO', 'débloqué', 'DÉBLOQUÉ',
    'straße', 'STRASSE', 'ẞtraße', 'İ', 'ı', 'ſ', '😀', '𝐀', 'a', 'Z', '9', '_', '.', '-', '>', '/', ' ', '\n', '(', ')', '`', ':', 'é', '中',
  ];

  /** `count` texts of one to six pieces each, drawn with `seed`. */
  function randomTexts(seed: number, count: number): string[] {
    const random = createPrng(seed);
    return Array.from({ length: count }, () => {
      let text = '';
      const length = 1 + Math.floor(random() * 6);
      for (let piece = 0; piece < length; piece++) text += PIECES[Math.floor(random() * PIECES.length)];
      return text;
    });
  }

  it('should find in a text exactly what its reference expression finds', () => {
    const matcher = compile(CUES);
    const reference = exactExpression(CUES);
    // The texts on which the two disagree: one assertion for the 20,000 samples.
    const disagreeing = randomTexts(42, 20_000).filter((text) => matcher.test(text) !== reference.test(text));
    expect(disagreeing).toEqual([]);
  });

  it('should say a text opens with a cue exactly when the reference finds its first cue at the start', () => {
    const matcher = compile(CUES);
    const reference = exactExpression(CUES);
    const disagreeing = randomTexts(7, 20_000).filter((text) => matcher.opens(text) !== (reference.exec(text)?.index === 0));
    expect(disagreeing).toEqual([]);
    expect(matcher.opens('Replaced the map')).toBe(true);
    expect(matcher.opens('we replaced the map')).toBe(false);
  });

  it('should give the same first cue as the reference from exec', () => {
    const matcher = compile(CUES);
    expect(matcher.exec('we replaced it, instead of patching')?.[0]).toBe('replaced');
    expect(matcher.exec('the prefix stays')).toBeNull();
  });
});
