/**
 * The session's problems reduced to the few worth a place in the context:
 * near repeats merged, then the most valuable open problems and pitfalls
 * kept. Without this the budget keeps whatever is newest, and a burst of
 * similar test failures or a failed look-up pushes out the diagnosis the
 * session spent its effort on.
 */
import type { Observation } from '../observations.js';
import { ORIGIN_WEIGHTS, type ProblemOrigin } from './prose-problems.js';
import { PY_WARNING_KEY } from './output-lines.js';
import { rememberedWordSets } from '../../text/remembered.js';
import { isCompatibilityNotice, NOTICE_KEY } from './compatibility-notices.js';

/** Open problems kept at most: a session has a handful of real ones. */
export const MAX_OPEN_PROBLEMS = 8;
/** Warnings (pitfalls met, problems since resolved) kept at most. */
export const MAX_WARNINGS = 5;
/** Id prefix of a problem the conversation states in prose (see `liveNotes`). */
export const SAID_PREFIX = 'problem:said:';
/** Problems compared for near repeats at most (the best-valued ones). */
const MAX_CANDIDATES = 200;
/** Share of shared words from which two problems say the same thing. */
const NEAR_REPEAT = 0.6;
/** Positions after which recency has halved. */
const RECENCY_HALF_LIFE = 50;

/** A failed look-up of a path that does not exist: the agent probing, rarely a problem of the project. */
const MISSED_LOOKUP = /^(?:(?:resolved: )?(?:read|glob|list|ls|view)\w* failed:.{0,40}(?:not found|no such file|does not exist)|(?:resolved: )?\S*(?:bash|sh|zsh)\S*: (?:line \d+: )?cd: .{0,300}No such file or directory|(?:resolved: )?ls: cannot access)/i;
/** A package manager's deprecation or audit notice: the same in every project that installs the package. */
const NOTICE = /^(?:resolved: )?(?:deprecated |\d+ (?:critical|high|moderate|low) severity vulnerabilit)/i;
/**
 * An exception raised in inline code (`python -c`, `node -e`: Python names its file `<string>`, Node `[eval]`):
 * the throwaway script the agent pipes output into, failing on an answer it did not expect. The answer is the
 * problem (an API's error body, an empty result); the script's KeyError is its side effect.
 */
const INLINE_SCRIPT = /\((?:<string>|\[eval\]|<stdin>):\d+\)$/;
/** A tool call the host refused or rejected: real, but about the agent's protocol more than the project. */
const TOOL_FAILURE = /^[\w.:-]{1,60} failed: /;
/** Source prefix of a language server's diagnostics (see `diagnosticsSource`). */
const LSP_SOURCE = 'lsp:';

/**
 * The file whose editor diagnostics an observation reports, or null: a burst of them after one edit of a
 * file in the middle of a change (a call written before its definition, a type before its field) is one
 * problem of that file, not one problem per line the editor underlined.
 */
function diagnosedFile(observation: Observation): string | null {
  return observation.source?.startsWith(LSP_SOURCE) === true ? observation.source : null;
}

/** A kept file's diagnostics told as one line: the best one, then how many more the editor reported. */
function withMoreDiagnostics(text: string, more: number): string {
  return more === 0 ? text : `${text} (and ${more} more LSP error${more === 1 ? '' : 's'} in this file)`;
}

/** A warning that is a compatibility notice (see compatibility-notices.ts): never a problem met. */
function isNotice(observation: Observation): boolean {
  const fromLibrary = NOTICE.test(observation.text) || observation.id.includes(`:${PY_WARNING_KEY}lib:`);
  return observation.id.includes(`:${NOTICE_KEY}`) || isCompatibilityNotice(observation.text, fromLibrary);
}

/** Something a reader can act on: a path, a file:line, a call, an identifier, a number. */
const SPECIFIC = /[\w-]+\.\w{1,6}(?::\d+)?|\w\(\)|\b[a-z]+[A-Z]\w*|\b\w+_\w+|\d/;

/**
 * How much one problem or warning is worth keeping, from its origin: what the conversation itself states
 * as the problem (a diagnosis, a report) first, then what tools printed, a refused tool call lower; problems
 * since resolved and warnings below open problems; a package manager's deprecation notice, an installed
 * library's warning about itself, a failed look-up of a missing path (the agent probing) and the errors the host reports
 * on files the call did not touch lowest. Recency and repeats raise it (not the last kind's repeats).
 *
 * @param observation - a `problem` or `warning`.
 * @param latestOrder - the latest position of the conversation.
 */
export function problemValue(observation: Observation, latestOrder: number): number {
  const text = observation.text;
  let weight: number;
  // Another file's compiler errors come back unchanged after every write: their repeats say nothing new.
  const otherFile = observation.id.startsWith('warning:lsp-other:');
  if (MISSED_LOOKUP.test(text) || otherFile) weight = 0.35;
  else if (NOTICE.test(text) || observation.id.includes(`:${PY_WARNING_KEY}lib:`) || INLINE_SCRIPT.test(text)) weight = 0.4;
  else if (observation.type === 'warning') weight = text.startsWith('resolved: ') ? 0.6 : 0.55;
  else if (observation.id.startsWith(SAID_PREFIX)) weight = ORIGIN_WEIGHTS[observation.id.slice(SAID_PREFIX.length).split(':', 1)[0] as ProblemOrigin] ?? 0.8;
  else if (TOOL_FAILURE.test(text)) weight = 0.7;
  else weight = 0.9;
  const age = Math.max(0, latestOrder - observation.order);
  const recency = 0.5 + 0.5 * 0.5 ** (age / RECENCY_HALF_LIFE);
  const frequency = otherFile ? 1 : 1 + 0.25 * Math.log2(Math.max(1, observation.frequency));
  const specific = SPECIFIC.test(text.slice(0, 200)) ? 1.1 : 1;
  return weight * recency * frequency * specific;
}

/** The words two problems are compared by, remembered: under Bun their split was two thirds of ranking the problems. */
const words = rememberedWordSets(300, true, 4_096);

/**
 * An identifier a message quotes (`'Foo'`, `"Ns.Type"`): compilers quote the members and types an error
 * is about. Quoted paths are not names here: modules that fail to resolve alike share their cause (an
 * alias, an install), and a session states it once.
 */
const QUOTED = /["'`\u201C\u2018\u00AB]([\p{L}_$][\p{L}\p{N}_$.]{0,79})["'`\u201D\u2019\u00BB]/gu;

function quotedNames(text: string): Set<string> {
  const found = new Set<string>();
  for (const [, name] of text.slice(0, 300).matchAll(QUOTED)) found.add((name ?? '').toLowerCase());
  return found;
}

/**
 * Whether two problems are about different things although they share most words: a compiler prints
 * one template for every missing member or type ("Type 'A' has no property 'x'"), and only the quoted
 * names tell its errors apart.
 */
function namesDiffer(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  if (a.size === 0 || b.size === 0) return false;
  // Any name of its own: the namespace or the type they share is the template's context, not the error.
  for (const name of a) if (!b.has(name)) return true;
  for (const name of b) if (!a.has(name)) return true;
  return false;
}

function overlap(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size < 3 || b.size < 3) return 0;
  let shared = 0;
  for (const word of a) if (b.has(word)) shared++;
  return shared / Math.min(a.size, b.size);
}

/**
 * Problems and warnings ranked by {@link problemValue}, near repeats merged into the better one (its
 * frequency summed), the editor diagnostics of one file and type told as one (its best, with a count of
 * the others), compatibility notices left out, at most {@link MAX_OPEN_PROBLEMS} open problems and {@link MAX_WARNINGS} warnings;
 * every other observation passes through. The result keeps the input's order.
 *
 * @param observations - merged signals and notes.
 * @param latestOrder - the latest position of the conversation.
 */
export function rankProblems(observations: readonly Observation[], latestOrder: number): Observation[] {
  const candidates = observations
    .map((observation, index) => ({ observation, index }))
    .filter(({ observation }) => observation.type === 'problem' || (observation.type === 'warning' && !isNotice(observation)))
    .map((entry) => ({ ...entry, value: problemValue(entry.observation, latestOrder) }))
    .sort((a, b) => b.value - a.value || b.index - a.index)
    .slice(0, MAX_CANDIDATES);
  const kept = new Map<number, Observation>();
  const keptWords: Array<{ index: number; words: ReadonlySet<string>; names: Set<string> }> = [];
  const counts = { problem: 0, warning: 0 };
  /** The kept diagnostic of each file and type, and how many more of that file it stands for. */
  const diagnosed = new Map<string, { index: number; more: number }>();
  for (const { observation, index } of candidates) {
    const type = observation.type as 'problem' | 'warning';
    const file = diagnosedFile(observation);
    const sameFile = file === null ? undefined : diagnosed.get(`${type}\u0000${file}`);
    if (sameFile) {
      sameFile.more++;
      continue;
    }
    const own = words(observation.text);
    const names = quotedNames(observation.text);
    const repeat = keptWords.find((other) => overlap(own, other.words) >= NEAR_REPEAT && !namesDiffer(names, other.names));
    if (repeat) {
      const better = kept.get(repeat.index);
      if (better) kept.set(repeat.index, { ...better, frequency: better.frequency + observation.frequency });
      continue;
    }
    if (counts[type] >= (type === 'problem' ? MAX_OPEN_PROBLEMS : MAX_WARNINGS)) continue;
    counts[type]++;
    kept.set(index, observation);
    keptWords.push({ index, words: own, names });
    if (file !== null) diagnosed.set(`${type}\u0000${file}`, { index, more: 0 });
  }
  for (const { index, more } of diagnosed.values()) {
    const survivor = kept.get(index);
    if (survivor && more > 0) kept.set(index, { ...survivor, text: withMoreDiagnostics(survivor.text, more) });
  }
  return observations.flatMap((observation, index) => {
    if (observation.type !== 'problem' && observation.type !== 'warning') return [observation];
    const survivor = kept.get(index);
    return survivor ? [survivor] : [];
  });
}
