/**
 * How much the seed's decision patterns (decisions.ts) are worth beside the
 * prose reading: a score per family, raised by a `[[link]]` the session
 * wrote, and which families are worth reading at all in a message.
 */
import type { Decision, DecisionFamily } from './decisions.js';
import { DECISION_THRESHOLD } from './prose-decisions.js';

/** What each of the seed's families is worth on real sessions: "because…" and "approach…" fire on any explanation. */
const SEED_FAMILY_SCORES: Readonly<Record<string, number>> = {
  rejection: 3.5,
  explicit: 3.5,
  labelled: 3.5,
  architectural: 2.5,
  approach: 1.5,
  rationale: 1,
};

/** Families that state a choice in so many words, whoever makes it. */
const FIRST_PERSON_FAMILIES: ReadonlySet<string> = new Set(['explicit', 'labelled']);

/**
 * The score of a decision the seed's patterns found: by family, raised when the session wrote it
 * as a `[[link]]`, zero in a pasted template.
 *
 * @param decision - a decision from `extractDecisions`.
 * @param role - the role of its message.
 * @param pasted - whether the message is a pasted template or document.
 */
export function seedDecisionScore(decision: Decision, role: string, pasted: boolean): number {
  if (pasted) return 0;
  const linked = decision.text.includes('[[') || decision.context.includes('[[');
  const base = SEED_FAMILY_SCORES[decision.family] ?? 1;
  // A first-person choice ("we decided to …", "Approach: …") is one whoever states it; the looser families weigh less from the user.
  const userPenalty = role === 'assistant' || FIRST_PERSON_FAMILIES.has(decision.family) ? 0 : 0.5;
  return base + (linked ? 3 : 0) - userPenalty;
}

/**
 * The seed's families whose decisions can reach {@link DECISION_THRESHOLD} in a message: the others
 * would be found and dropped, so they are not read. Without a `[[link]]` in the message only an
 * assistant's explicit choices and rejections count.
 *
 * @param role - the role of the message.
 * @param linked - whether the message holds a `[[link]]`.
 * @param pasted - whether the message is a pasted template or document.
 */
export function seedFamiliesWorthReading(role: string, linked: boolean, pasted: boolean): Set<DecisionFamily> {
  const text = linked ? '[[' : '';
  const worth = new Set<DecisionFamily>();
  for (const family of Object.keys(SEED_FAMILY_SCORES) as DecisionFamily[]) {
    const score = seedDecisionScore({ family, category: 'implementation', text, context: text }, role, pasted);
    if (score >= DECISION_THRESHOLD) worth.add(family);
  }
  return worth;
}
