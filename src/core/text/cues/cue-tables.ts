/**
 * The cue tables of every language with cues of its own, by ISO 639-3 code
 * (the codes language detection gives). Each table is a file under
 * `tables/`; this is the one place that lists them.
 */
import { CHINESE } from './tables/chinese.js';
import { ENGLISH } from './tables/english.js';
import { FRENCH } from './tables/french.js';
import { GERMAN } from './tables/german.js';
import { JAPANESE } from './tables/japanese.js';
import { POLISH } from './tables/polish.js';
import { PORTUGUESE } from './tables/portuguese.js';
import { RUSSIAN } from './tables/russian.js';
import { SPANISH } from './tables/spanish.js';
import type { CueTable } from './cue-kinds.js';

/** Cue tables by ISO 639-3 code; `eng` is merged into every other one. */
export const TABLES: Readonly<Record<string, CueTable>> = {
  eng: ENGLISH,
  spa: SPANISH,
  deu: GERMAN,
  fra: FRENCH,
  por: PORTUGUESE,
  cmn: CHINESE,
  jpn: JAPANESE,
  rus: RUSSIAN,
  pol: POLISH,
};

/** The languages with cue sets of their own. */
export const CUE_LANGUAGES: readonly string[] = Object.keys(TABLES);
