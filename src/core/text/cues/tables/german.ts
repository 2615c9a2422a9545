/**
 * German cue words. One file a language, so that a language is added or tuned in
 * one place; the kinds are in `cue-kinds.ts`.
 */
import { cueTable, type CueTable } from '../cue-kinds.js';
import { inflectGerman } from '../cue-inflections.js';

/** German cues, by kind. */
export const GERMAN: CueTable = cueTable({
  goalHeading: ['ziel', 'ziele', 'aufgabe', 'anforderungen', 'hintergrund'],
  purpose: ['damit', 'weil', 'sodass', 'sonst'],
  instruction: {
    change: ['ersetzen', 'ändern', 'verschieben'],
    weakChange: ['entfernen', 'hinzufügen', 'aktualisieren', 'erstellen', 'löschen', 'installieren'],
  },
  change: [
    'geändert', 'ersetzt', 'umgestellt', 'umstellen', 'verschoben', 'migriert', 'umbenannt', 'statt', 'anstatt',
    'anstelle', 'stattdessen', 'entschieden', 'gewählt', 'neu geschrieben', 'nutzt jetzt', 'verwendet jetzt',
    'herabgestuft',
  ],
  weakChange: [
    'hinzugefügt', 'entfernt', 'gelöscht', 'erstellt', 'behoben', 'korrigiert', 'implementiert', 'installiert',
    'eingebaut', 'angepasst', 'aktualisiert', 'verwendet', 'nutzt', 'nicht mehr', 'beheben',
  ],
  summaryHeading: ['zusammenfassung', 'änderungen', 'lösung', 'umsetzung', 'erledigt', 'ergebnis', 'fertig', 'plan'],
  decisionHeading: ['entscheidungen', 'entscheidung', 'ansatz', 'strategie'],
  problemHeading: ['ursache', 'ursachen', 'problem', 'probleme', 'fehler', 'fehleranalyse', 'diagnose'],
  nextHeading: ['nächste schritte', 'als nächstes', 'offen', 'offene punkte', 'noch zu tun', 'ausstehend'],
  planHeading: ['plan', 'vorschlag', 'schritte'],
  problem: [
    'fehler*', 'stürzt ab', 'absturz', 'abgestürzt', 'hängt', 'friert ein', 'eingefroren', 'funktioniert nicht',
    'geht nicht', 'kaputt', 'schlägt fehl', 'fehlgeschlagen', 'ausnahme', 'schreibgeschützt', 'inkonsisten*',
  ],
  next: ['als nächstes', 'nächste', 'danach', 'soll ich', 'möchtest du', 'willst du', 'bitte teste', 'noch offen'],
  minor: ['gering', 'ungenutzt', 'tippfehler', 'kommentar', 'doppelt', 'doppelte', 'redundant'],
  hedge: ['könnte', 'würde', 'vielleicht', 'alternativ*', 'option'],
  verified: ['erfolgreich', 'ohne fehler', 'funktioniert', 'verifiziert', 'geprüft', 'bestanden', 'grün', 'ergebnis', 'ergebnisse', 'status'],
}, inflectGerman);
