/**
 * The session's lasting topics from the candidates of every message: a topic
 * is named in several messages, best by both the user and the assistant, and
 * a technology or a phrase weighs more than a file's stem. Spellings of one
 * name (`kill-switch`, `killswitch`, `kill-switches`) are counted together
 * and shown in the commonest form.
 */
import type { TermHit } from '../working-set/touches.js';
import type { ConceptCount } from './concepts.js';
import { isGenericConcept } from './message-terms.js';

/** Settings of {@link rankTermConcepts}. */
export interface ConceptRankSettings {
  /** Topics kept at most. @default 15 */
  max: number;
  /** Messages a topic must be named in to last. @default 2 */
  minMessages: number;
  /**
   * Below this many lasting topics, the strongest names seen once fill in: a short session names its
   * subjects once (the service it deploys to, the flag it adds), if they can stand for a subject. @default 15
   */
  min: number;
}

/** The defaults. */
export const DEFAULT_CONCEPT_RANK_SETTINGS: Readonly<ConceptRankSettings> = Object.freeze({ max: 15, minMessages: 2, min: 15 });

// The stack shows in most messages of a session: it needs no more weight per message to rank among its topics.
const KIND_WEIGHT: Record<TermHit['kind'], number> = { link: 4, technology: 3, stack: 2, keyphrase: 2, identifier: 1.5, file: 1, command: 2 };

interface Candidate {
  key: string;
  forms: Map<string, number>;
  /** Best weight per message. */
  messages: Map<number, number>;
  roles: Set<string>;
  /**
   * Whether it can stand for a subject when seen once: a technology, a link, the stack or a name from the
   * code. A keyphrase seen once is too often a fragment ("node shares") or a verb of the conversation.
   */
  subject: boolean;
  /** Whether some message names it, rather than only running it as a command. */
  named: boolean;
}

/** Spellings that name one topic share a key: no hyphens, no plural `s` (`-ies` read as `-y`). */
function keyOf(name: string): string {
  const joined = name.replaceAll('-', '');
  if (joined.length <= 3) return joined;
  if (/(?:ch|sh|x|ss)es$/.test(joined)) return joined.slice(0, -2);
  // `policies` and `policy`, `enemies` and `enemy` share a key; so do `cookies` and `cookie`, read as `-y` too.
  if (/[^aeiou]ies$/.test(joined)) return `${joined.slice(0, -3)}y`;
  if (joined.endsWith('ie')) return `${joined.slice(0, -2)}y`;
  return joined.endsWith('s') && !joined.endsWith('ss') ? joined.slice(0, -1) : joined;
}

function scoreOf(candidate: Candidate): number {
  let score = 0;
  for (const weight of candidate.messages.values()) score += weight;
  return candidate.roles.has('user') && candidate.roles.size > 1 ? score * 1.5 : score;
}

function nameOf(candidate: Candidate): string {
  let best = '';
  let count = -1;
  for (const [form, seen] of candidate.forms) {
    if (seen > count || (seen === count && form < best)) {
      best = form;
      count = seen;
    }
  }
  return best;
}

/**
 * Ranks candidate terms into the session's topics, strongest first.
 *
 * @param terms - the candidates of every message (each message's own are deduplicated).
 * @param taken - concepts already chosen (the session's own links): left out here.
 * @param settings - see {@link DEFAULT_CONCEPT_RANK_SETTINGS}.
 */
export function rankTermConcepts(
  terms: readonly TermHit[],
  taken: readonly string[] = [],
  settings: Partial<ConceptRankSettings> = {},
): ConceptCount[] {
  const { max, minMessages, min } = { ...DEFAULT_CONCEPT_RANK_SETTINGS, ...settings };
  if (max <= 0) return [];
  // A link the session wrote covers its own words: `gateway` adds nothing to `api-gateway`.
  const takenKeys = new Set([...taken.map(keyOf), ...taken.flatMap((name) => (name.includes('-') ? name.split('-').map(keyOf) : []))]);
  const byKey = new Map<string, Candidate>();
  for (const term of terms) {
    if (!term || typeof term.name !== 'string' || isGenericConcept(term.name)) continue;
    const key = keyOf(term.name);
    if (takenKeys.has(key)) continue;
    let candidate = byKey.get(key);
    if (!candidate) {
      candidate = { key, forms: new Map(), messages: new Map(), roles: new Set(), subject: false, named: false };
      byKey.set(key, candidate);
    }
    const strength = Math.max(0, Number(term.weight) || 0);
    candidate.forms.set(term.name, (candidate.forms.get(term.name) ?? 0) + strength);
    // Repeats inside one message count a little; other messages count fully.
    const weight = (KIND_WEIGHT[term.kind] ?? 1) * Math.min(1 + Math.log2(Math.max(1, strength)) / 2, 2) * (term.name.includes('-') && term.kind === 'keyphrase' ? 1.25 : 1);
    candidate.messages.set(term.order, Math.max(candidate.messages.get(term.order) ?? 0, weight));
    if (term.role) candidate.roles.add(term.role);
    if (term.kind !== 'command') candidate.named = true;
    if (term.kind === 'technology' || term.kind === 'link' || term.kind === 'stack' || term.kind === 'identifier') candidate.subject = true;
  }
  // `jq`, `journalctl`, `curl`: a program a session only runs is how it works, not what it is about.
  const ranked = [...byKey.values()]
    .filter((candidate) => candidate.named)
    .map((candidate) => ({ candidate, score: scoreOf(candidate) }))
    .sort((a, b) => b.score - a.score || (a.candidate.key < b.candidate.key ? -1 : 1));
  const lasting = ranked.filter(({ candidate }) => candidate.messages.size >= minMessages);
  if (lasting.length < min) {
    const fill = ranked.filter(({ candidate }) => candidate.messages.size < minMessages && candidate.subject);
    lasting.push(...fill.slice(0, min - lasting.length));
  }
  return lasting.slice(0, max).map(({ candidate }) => ({ name: nameOf(candidate), count: candidate.messages.size }));
}
