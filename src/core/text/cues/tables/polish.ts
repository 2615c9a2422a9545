/**
 * Polish cue words. One file a language, so that a language is added or tuned in
 * one place; the kinds are in `cue-kinds.ts`. Polish inflects for gender,
 * number and case: a past tense is a stem matched as a word's start (`naprawił*`:
 * naprawiłem, naprawiła, naprawili), a participle is listed once and its forms added
 * (`naprawiony`: naprawiona, naprawione, naprawiono), not its stem, which the verb's
 * noun may share (dodanie, zaimplementowanie).
 */
import { cueTable, type CueTable } from '../cue-kinds.js';
import { inflectPolish } from '../cue-inflections.js';

/** Polish cues, by kind. */
export const POLISH: CueTable = cueTable({
  goalHeading: ['cel', 'cele', 'zadanie', 'zadania', 'wymagania', 'kontekst'],
  purpose: ['żeby', 'aby', 'ponieważ', 'dlatego że', 'w przeciwnym razie', 'inaczej'],
  instruction: {
    change: ['zamień', 'zmień', 'przenieś', 'przepisz'],
    weakChange: ['dodaj', 'usuń', 'utwórz', 'stwórz', 'popraw', 'napraw', 'zaktualizuj', 'zainstaluj', 'użyj'],
    only: ['zrób', 'zaimplementuj', 'wykonaj', 'napisz', 'skonfiguruj'],
  },
  change: [
    'zmienił*', 'zmieniony', 'zmieniam', 'zamienił*', 'zamieniony', 'zastąpił*', 'zastąpiony', 'przeniosł*', 'przeniesiony',
    'zmigrował*', 'zmigrowany', 'przemianował*', 'przemianowany', 'przepisał*', 'przepisany', 'zamiast', 'zdecydował*',
    'zdecydowano', 'wybrał*', 'wybrany',
    'przeszedłem na', 'przeszliśmy na', 'teraz używa', 'teraz zwraca',
  ],
  weakChange: [
    'dodał*', 'dodany', 'dodaję', 'usunął*', 'usunęł*', 'usunięty', 'utworzył*', 'utworzony', 'stworzył*', 'stworzony',
    'naprawił*', 'naprawiony', 'poprawił*', 'poprawiony', 'zaimplementował*', 'zaimplementowany', 'zaktualizował*',
    'zaktualizowany', 'zainstalował*', 'zainstalowany', 'skonfigurował*', 'skonfigurowany', 'podłączył*', 'podłączony',
    'używa', 'już nie', 'zrobił*',
  ],
  summaryHeading: [
    'podsumowanie', 'zmiany', 'wprowadzone zmiany', 'rozwiązanie', 'co zrobiłem', 'zrobione', 'gotowe', 'wynik', 'wyniki',
    'wykonane', 'implementacja', 'poprawki', 'plan',
  ],
  decisionHeading: ['decyzje', 'kluczowe decyzje', 'decyzja', 'podejście', 'strategia'],
  problemHeading: ['przyczyna', 'przyczyny', 'główna przyczyna', 'problem', 'problemy', 'błąd', 'błędy', 'diagnoza', 'usterki'],
  nextHeading: [
    'następne kroki', 'kolejne kroki', 'następny krok', 'dalsze kroki', 'co dalej', 'pozostało', 'do zrobienia', 'w toku',
    'otwarte kwestie', 'zalecenia', 'rekomendacje',
  ],
  planHeading: ['plan', 'propozycja', 'kroki', 'plan naprawy', 'plan działania'],
  problem: [
    'błąd', 'błęd*', 'nie działa', 'nie działają', 'zawiesza*', 'zawiesił*', 'wywala*', 'wywalił*', 'zepsut*', 'nie udało',
    'nie można', 'nie mogę', 'wyjątek', 'nie znaleziono', 'nie znalezion*', 'przekroczono', 'nieprawidłow*', 'brakuje',
    'niespójn*',
  ],
  next: [
    'następn*', 'kolejn*', 'dalej', 'potem', 'czy chcesz', 'chcesz', 'daj znać', 'sprawdź', 'przetestuj', 'spróbuj',
    'uruchom', 'pozostało', 'jeszcze trzeba',
  ],
  minor: ['drobn*', 'nieużywan*', 'literówk*', 'komentarz*', 'zduplikowan*', 'duplikat*', 'nadmiarow*', 'formatowani*'],
  hedge: ['można', 'mógłbym', 'moglibyśmy', 'może', 'ewentualnie', 'alternatyw*', 'opcja', 'jeśli chcesz', 'warto'],
  verified: [
    'pomyślnie', 'sukces', 'bez błędów', 'działa', 'zweryfikowa*', 'sprawdzon*', 'przechodzą', 'przeszły', 'zaliczon*',
    'wynik', 'wyniki', 'status',
  ],
}, inflectPolish);
