/**
 * Problems as people state them in prose, each with where it came from, so
 * the final pass can weigh a diagnosis above a line that merely mentions an
 * error:
 *
 * - `cause`: the session's own diagnosis — "Root cause: …", "The bug was …",
 *   an admitted mistake ("Good catch — that was wrong: …"), a sentence naming
 *   the exception the code raises, a blocker ("plan mode is read-only");
 * - `heading`: an item under a problems / root-causes heading, or a finding
 *   (a compaction summary's "Discoveries") that names a failure;
 * - `row`: a table row under such a heading (often a comparison, not a problem);
 * - `user`: what the user reports with a problem word ("the tab freezes");
 * - `expect`: what the user says the code should do, or used to ("it used to
 *   be white, now it's gray", "the account should not be saved before the
 *   code is checked").
 *
 * A short sentence that leans on the one before it ("That raises
 * NotImplementedError.") is joined to it, so the problem reads on its own.
 */
import type { CueMatchers } from '../../text/cues/cues.js';
import { compile } from '../../text/cues/cues.js';
import type { ProseItem } from '../prose/prose-items.js';

/** Where a stated problem comes from. */
export type ProblemOrigin = 'cause' | 'heading' | 'row' | 'user' | 'expect';

/** A problem stated in prose, before notes are built. */
export interface StatedProblem {
  origin: ProblemOrigin;
  text: string;
  /** Position of its item in the message. */
  index: number;
}

/** How much each origin is worth, relative to a tool's problem line (0.9). */
export const ORIGIN_WEIGHTS: Readonly<Record<ProblemOrigin, number>> = Object.freeze({ cause: 1, heading: 0.85, row: 0.6, user: 0.9, expect: 0.75 });

/** A row of a progress table with a cell at nothing done ("OCR — not implemented — 0%"). */
const NOTHING_DONE = /\s—\s0\s?%(?:\s—\s|$)/;
/** Rows of one message named in its gap at most. */
const MAX_GAPS = 6;

/** A sentence shorter than this leans on the one before it. */
const SHORT_SENTENCE = 70;
/** An admission opens a reply ("Good catch — …"): only its first items and characters are read for one. */
const ADMISSION_ITEMS = 3;
const ADMISSION_CHARS = 120;
/** Characters of an item read for a blocker or a problem said to be still open. */
const CAUSE_CHARS = 200;

/**
 * Phrases in the languages with cue sets: an admitted mistake, a blocker that stops the work, a
 * findings heading, and a user's statement that the code does what it should not, or no longer does
 * what it did (a plain "it should be blue" is a wish, not a problem).
 */
const ADMISSION = compile([
  'good catch', 'my mistake', 'my bad', "you're right", 'you are right', 'i was wrong', 'that was a mistake', 'i made a mistake',
  'tienes razón', 'tenés razón', 'mi error', 'me equivoqué', 'buena observación',
  'du hast recht', 'sie haben recht', 'mein fehler', 'vous avez raison', 'tu as raison', 'mon erreur',
  'você tem razão', 'meu erro', '你说得对', '我的错', '是我的失误', 'ご指摘', 'おっしゃる通り',
  'вы правы', 'ты прав', 'моя ошибка', 'masz rację', 'ma pan rację', 'mój błąd',
]);
/** A blocker that stops the work, or a problem said to be still open: what the session ends with unsolved. */
const BLOCKER_OR_OPEN = compile([
  'read-only', 'read only', 'not allowed to', 'not permitted', 'permission denied', 'no permission', "can't write", 'cannot write',
  'unable to write', "can't edit", 'cannot edit', 'solo lectura', 'sin permiso', 'no puedo escribir', 'no puedo editar',
  'schreibgeschützt', 'keine berechtigung', 'lecture seule', 'pas autorisé', 'somente leitura', 'sem permissão',
  '只读', '没有权限', '无权限', '読み取り専用', '権限がありません',
  'still unresolved', 'unresolved', 'still open', 'open issue', 'remaining issue', 'still failing', 'still broken', 'not yet fixed',
  'sin resolver', 'sigue sin', 'noch offen', 'ungelöst', 'non résolu', 'toujours pas', 'não resolvido', 'ainda não', '未解决', '仍未', '未解決',
  'только для чтения', 'нет прав', 'доступ запрещён', 'доступ запрещен', 'не решено', 'всё ещё', 'все еще', 'по-прежнему не',
  'tylko do odczytu', 'brak uprawnień', 'odmowa dostępu', 'nierozwiązan*', 'nadal nie', 'wciąż nie',
]);
const FINDINGS_HEADING = compile([
  'discoveries', 'findings', 'what i found', 'observations', 'analysis', 'diagnosis', 'hallazgos', 'análisis', 'erkenntnisse',
  'befunde', 'constats', 'constatations', 'descobertas', '发现', '分析', '調査結果', '所見',
  'анализ', 'выводы', 'находки', 'что обнаружено', 'analiza', 'ustalenia', 'wnioski',
]);
const EXPECTATION = compile([
  'should not', "shouldn't", 'supposed to', 'used to', 'anymore', 'no longer', 'still',
  'no debería', 'ya no', 'todavía', 'sigue', 'sollte nicht', 'immer noch', 'nicht mehr',
  'ne devrait pas', 'ne plus', 'não deveria', 'ainda', 'não mais', '不应该', '仍然', '还是', 'べきではない', 'まだ',
  'не должен', 'не должно', 'не должна', 'больше не', 'всё ещё', 'все еще', 'по-прежнему',
  'nie powinien', 'nie powinno', 'nie powinna', 'już nie', 'nadal', 'wciąż',
]);

/** An exception or error type named in prose (`NotImplementedError`, `NullPointerException`). */
const EXCEPTION_NAME = /\b[A-Z][A-Za-z0-9]*(?:Error|Exception)\b/;
/** A sentence about a fix or change made, which names an error only as what it handles. */
const FIX_WORDS = /\b(?:fix|fixed|fixes|handle[sd]?|handling|catch(?:es)?|caught|add(?:ed|s)?|wrap(?:ped|s)?|guard(?:ed|s)?)\b/i;
/** Headings of a solution, which mention the problem they solve ("Why this fixes the problem"). */
const SOLUTION = /\b(?:fix|fixe[sd]|solve[sd]?|solution|resolved?)\b|solucion|resuel|lösung|behoben|corrig|résolu|resolv|修复|解决|修正|解決|исправ|устран|решени|napraw|rozwiąz|poprawi/i;

/**
 * An aside that names a problem only to set it aside: not the problem ("It is not the main issue, but …",
 * "no es el problema"), one avoided or solved by what the message describes ("this avoids the locking
 * problem", "避免了…问题"), a possible issue the writer then finds fine ("Potential issue: … but that's
 * fine"). In the languages with cue sets.
 */
const DISMISSED = new RegExp(
  [
    String.raw`\b(?:not|isn't|is not|aren't|are not|wasn't|was not|never)\s+(?:really\s+)?(?:the|a|an|our)?\s*(?:top|main|real|big|major|actual|root)?\s*(?:issue|problem|concern|bottleneck)s?\b`,
    String.raw`\b(?:no|without)\s+(?:real\s+)?(?:issue|problem)s?\b`,
    String.raw`\b(?:avoids?|avoiding|sidesteps?|eliminates?|removes?|solves?)\s+(?:the|this|that|any|a)\s+(?:[\p{L}-]+\s+){0,2}(?:issue|problem)s?\b`,
    String.raw`^(?:potential|possible)\s+(?:issue|problem)\b.{0,200}\b(?:fine|ok|okay|harmless|acceptable)\b`,
    String.raw`\b(?:no es|no era|no son)\s+(?:el|un|los)\s+problema|\bsin problemas?\b|\bevita(?:r)? (?:el|este|ese) problema`,
    String.raw`\bkein(?:e)? (?:problem|fehler)\b|\bnicht das (?:problem|hauptproblem)\b|\bpas (?:le|un) (?:vrai )?problème\b|\bsans problème\b|\bnão é (?:o|um) problema\b|\bsem problemas?\b`,
    String.raw`不是(?:主要)?问题|没(?:有)?问题|避免了.{0,20}问题|不是根本原因|問題ありません|問題ではない`,
    String.raw`(?<![\p{L}])не (?:в этом|главная|основная) проблема|(?<![\p{L}])без проблем|(?<![\p{L}])проблем нет|(?<![\p{L}])nie (?:jest|był) (?:to )?(?:głównym )?problem|(?<![\p{L}])bez problemów|(?<![\p{L}])nie ma problemu`,
  ].join('|'),
  'iu',
);

/** Characters of an item read for a dismissal. */
const DISMISSAL_CHARS = 240;

/**
 * A word every form of {@link DISMISSED} holds: most items hold none, and this one search of a few literals
 * spares them the many alternatives tried at each position.
 */
const DISMISSAL_NOUN = /issue|probl|проблем|concern|bottleneck|fehler|问题|問題|原因/i;

/**
 * Whether a text sets aside the problem it names ({@link DISMISSED}) and names no other after it: "the cache
 * is not the problem; the real cause is the locale key" dismisses one problem to state another.
 */
function dismisses(text: string, cues: CueMatchers): boolean {
  const head = text.slice(0, DISMISSAL_CHARS);
  if (!DISMISSAL_NOUN.test(head)) return false;
  const match = DISMISSED.exec(head);
  if (!match) return false;
  const rest = head.slice(match.index + match[0].length);
  return !cues.problem.test(rest) && !cues.problemHeading.test(rest);
}

/** A sentence reporting success, where a problem word is negated ("Build succeeds with zero errors"). */
const SUCCESS = /\b(?:succeed|succeeds|succeeded|passes|passed|no errors?|zero errors?|0 errors?|clean)\b/i;

function joinPrevious(items: readonly ProseItem[], item: ProseItem): string {
  const previous = items[item.index - 1];
  if (item.text.length >= SHORT_SENTENCE || !previous || previous.kind !== 'sentence' || previous.section !== item.section || previous.label) return item.text;
  return `${previous.text} ${item.text}`;
}

function joinNext(items: readonly ProseItem[], item: ProseItem): string {
  const next = items[item.index + 1];
  if (item.text.length >= SHORT_SENTENCE || !next || next.kind !== 'sentence' || next.section !== item.section) return item.text;
  return `${item.text} ${next.text}`;
}

/**
 * A sentence that ends with a colon announces what follows it ("there is an issue in the auth role:"):
 * the problem is the next item of the same section, so it is carried along rather than left at the lead-in.
 */
function carryAnnounced(items: readonly ProseItem[], item: ProseItem, text: string): string {
  if (!/[:：]$/.test(item.text)) return text;
  const next = items[item.index + 1];
  if (!next || next.section !== item.section || next.label) return text;
  return `${text} ${next.text}`;
}

/**
 * The heading path or lead-in when it names problems rather than their solution or a plan: the deepest
 * heading that says which decides ("Plan / Current problem" names a problem, "Root causes / 1. The page
 * is gray" too, "Fix plan / Why this solves the problem" does not); '' otherwise.
 */
function problemLabel(label: string, cues: CueMatchers): string {
  if (label === '') return '';
  const parts = label.split(' / ');
  for (let index = parts.length - 1; index >= 0; index--) {
    const part = parts[index] ?? '';
    if (SOLUTION.test(part) || SUCCESS.test(part) || dismisses(part, cues) || cues.nextHeading.test(part) || cues.planHeading.test(part)) return '';
    if (cues.problemHeading.test(part)) return label;
  }
  return '';
}

/**
 * Problems an assistant message states, with their origin, in message order.
 *
 * @param items - the message's prose items.
 * @param cues - the cue matchers of its language.
 */
export function statedProblems(items: readonly ProseItem[], cues: CueMatchers): StatedProblem[] {
  const found: StatedProblem[] = [];
  /** One problem per heading or lead-in for sentences: the rest of the paragraph explains the first. */
  const sentenceTaken = new Set<string>();
  // A message repeats the same few headings and lead-ins over many items: each is read once.
  const labels = new Map<string, { problem: string; findings: boolean }>();
  const read = (label: string): { problem: string; findings: boolean } => {
    let known = labels.get(label);
    if (!known) labels.set(label, (known = { problem: problemLabel(label, cues), findings: label !== '' && FINDINGS_HEADING.test(label) }));
    return known;
  };
  const gaps: ProseItem[] = [];
  for (const item of items) {
    if (item.label || item.leadsList || item.text.split(' ', 3).length < 3) continue;
    if (dismisses(item.text, cues)) continue;
    const [list, lead, section] = [read(item.listLead), read(item.lead), read(item.section)];
    const label = list.problem || lead.problem || section.problem;
    if (label !== '') {
      const place = `${item.section}\u0000${item.lead}\u0000${item.listLead}`;
      if (item.kind === 'sentence' && sentenceTaken.has(place)) continue;
      if (item.kind === 'sentence') sentenceTaken.add(place);
      const text = cues.problemHeading.test(item.text.slice(0, 60)) ? item.text : `${label}: ${item.text}`;
      found.push({ origin: item.kind === 'row' ? 'row' : 'heading', text: carryAnnounced(items, item, text), index: item.index });
      continue;
    }
    if (item.kind === 'row') {
      if (NOTHING_DONE.test(item.text.slice(0, 400)) && gaps.length < MAX_GAPS) gaps.push(item);
      continue;
    }
    if ((list.findings || lead.findings || section.findings) && cues.problem.test(item.text) && !SOLUTION.test(item.text)) {
      found.push({ origin: 'heading', text: carryAnnounced(items, item, item.text), index: item.index });
    } else if (item.index < ADMISSION_ITEMS && ADMISSION.test(item.text.slice(0, ADMISSION_CHARS))) {
      found.push({ origin: 'cause', text: joinNext(items, item), index: item.index });
    } else if (isProblemLeadIn(item.text, cues) || (BLOCKER_OR_OPEN.test(item.text.slice(0, CAUSE_CHARS)) && !SUCCESS.test(item.text))) {
      found.push({ origin: 'cause', text: carryAnnounced(items, item, item.text), index: item.index });
    } else if (EXCEPTION_NAME.test(item.text) && !FIX_WORDS.test(item.text) && !cues.change.test(item.text) && !cues.weakChange.test(item.text)) {
      found.push({ origin: 'cause', text: joinPrevious(items, item), index: item.index });
    }
  }
  const [first] = gaps;
  // The parts a progress table puts at nothing done are what the work still lacks: one gap, named by their first
  // cells, worth a findings heading's problem (as a table row it lost the budget to the session's narrated causes).
  if (first) found.push({ origin: 'heading', text: `not started (0%): ${gaps.map((gap) => gap.text.split(' — ', 1)[0]).join('; ')}`, index: first.index });
  return found;
}

/** "Root cause: …", "The problem was …", "El problema está en …": a problem named at the start of a sentence. */
export function isProblemLeadIn(text: string, cues: CueMatchers): boolean {
  const head = text.slice(0, 48);
  const cue = cues.problemHeading.exec(head);
  if (!cue || cue.index > 24 || SOLUTION.test(head) || SUCCESS.test(text)) return false;
  const after = head.slice(cue.index + cue[0].length);
  // A dash right after the word is the copula of Russian and Polish ("Проблема — в кэше"), and reads as a colon in any language.
  return /^[^:：]{0,20}[:：]|^\s*[—–]\s|(?<![\p{L}])(?:is|was|were|are|era|es|fue|está|estaba|ist|war|est|était|é|foi|是|заключается|заключалась|заключалось|в том|был|была|было|jest|był|była|było|polega|polegał|polegała)(?![\p{L}])/u.test(after);
}

/**
 * The problem a user's message reports, as one: its sentences with a problem word, or that say how the
 * code should behave or used to ("it should not …", "it used to be white, now …"), joined in order.
 *
 * @param items - the message's prose items.
 * @param cues - the cue matchers of its language.
 */
export function reportedProblems(items: readonly ProseItem[], cues: CueMatchers): StatedProblem[] {
  const found: StatedProblem[] = [];
  for (const item of items) {
    if (cues.problem.test(item.text)) found.push({ origin: 'user', text: carryAnnounced(items, item, item.text), index: item.index });
    else if (EXPECTATION.test(item.text)) found.push({ origin: 'expect', text: item.text, index: item.index });
  }
  const [first] = found;
  if (!first || found.length === 1) return found;
  // One message is one request: its sentences describe one report, in the order the user wrote them.
  const origin = found.some((problem) => problem.origin === 'user') ? 'user' : 'expect';
  return [{ origin, text: found.map((problem) => problem.text).join(' '), index: first.index }];
}
