/**
 * Items that carry a decision's words but are not decisions, by what they
 * are whatever the words: a plan or an intention (what the session means to
 * do is a next step), a step of reasoning (a consequence drawn, or what cannot
 * be done and why), and an item marked as failed or not done. Each kind is one
 * phenomenon read in the cue tables' languages; docs/extraction-quality.md
 * lists the sessions that show it.
 */
import type { CueMatchers } from '../../text/cues/cues.js';
import { ownChange } from '../prose/report-shapes.js';
import { literalHint } from '../../text/cues/literal-hint.js';

/** What kind of non-decision an item is; `null` when it may be a decision. */
export type DecisionNoise = 'intention' | 'reasoning' | 'failed' | null;

/** A short label before the claim ("Step 2: ", "Plan — "): the claim is read after it. */
const LEADING_LABEL = /^[\p{L}\p{N} /_-]{1,30}[:：—–]\s*/u;

/**
 * A claim that opens with what the speaker will do or needs to do ("We'll rewrite …", "Need to …", "Next
 * patch: …", "Voy a …", "我会 …"): an intention, which a later step may or may not carry out.
 */
export const INTENTION =
  /^(?:i['’]ll|i will|we['’]ll|we will|i['’]m going to|we['’]re going to|(?:i|we) (?:still )?(?:need|have) to|needs? to|let me|let['’]s|next patch|next,? (?:i|we)|voy a|vamos a|necesito|necesitamos|tengo que|tenemos que|hay que|je vais|nous allons|on va|il faut|ich werde|wir werden|ich muss|wir müssen|vou|precisamos|preciso|я буду|буду|будем|нужно|надо|необходимо|давайте|сейчас я|będę|będziemy|trzeba|należy|muszę|musimy|zamierzam)(?![\p{L}])|^(?:我会|我将|我们将|我要|我们要|接下来|下一步)/iu;

/** A label that names a need ("Change needed:", "Cambio necesario:"): what follows is still to be done. */
const NEED_LABEL = /^[\p{L}\p{N} /_-]{0,30}(?<![\p{L}])(?:needed|required|necesari[oa]|nötig|erforderlich|nécessaire|necessári[oa]|нужно|необходимо|требуется|potrzebne|wymagane)\s*[:：—–]/iu;

/** Literals of {@link NEED_LABEL}'s needs, and how far into a claim its need ends (30 letters, then the word). */
const NEED_HINT = literalHint(['needed', 'required', 'necesari', 'nötig', 'erforderlich', 'nécessaire', 'necessári', 'нужно', 'необходимо', 'требуется', 'potrzebne', 'wymagane']);
const NEED_HEAD_CHARS = 80;

/**
 * A claim that opens with a consequence drawn from what came before ("So …", "It then …", "That means …",
 * "所以 …"): a step of reasoning about how things behave, not a choice.
 */
const INFERENCE =
  /^(?:so|thus|hence|therefore|it then|this then|that means|this means|which means|así que|entonces|por eso|por lo tanto|donc|alors|ainsi|daher|deshalb|então|portanto|por isso|так что|поэтому|значит|следовательно|więc|dlatego|zatem|czyli)(?![\p{L}])|^(?:所以|因此|于是|因而|这意味着|だから|つまり)/iu;

/** What cannot be done ("can't", "no se puede", "无法"). */
const CANNOT =
  /(?<![\p{L}])(?:can['’]?t|cannot|can not|couldn['’]t|could not|unable to|no se puede|no puedo|no podemos|ne peut pas|ne peux pas|kann nicht|können nicht|não pode|não é possível|не может|не могу|не можем|нельзя|невозможно|nie może|nie mogę|nie możemy|nie można)(?![\p{L}])|不能|无法|無法|できない|できません/iu;

/** Literals one of which is in every match of {@link CANNOT}. */
const CANNOT_HINT = literalHint(['can', 'could', 'unable', 'no ', 'ne ', 'kann', 'können', 'não', 'не ', 'нельзя', 'невозможно', 'nie ', '不能', '无法', '無法', 'でき']);

/** A claim told in the first person ("I moved …", "we replaced …"). */
const FIRST_PERSON = /^(?:i|we)\s/i;

/** A mark of something failed or not done (❌, ✗, ✘, ⏳, 🚧). */
const FAILED_MARK = /[\u274C\u2717\u2718\u23F3]|\u{1F6A7}/u;

/** How far into a claim its negated ability may sit and still be the claim's own. */
const CLAIM_HEAD_CHARS = 80;

/** Whether the claim says what cannot be done and then why: "You cannot use X because Y", "So can't add X because Y is pending". */
function cannotBecause(claim: string, cues: CueMatchers): boolean {
  const head = claim.slice(0, CLAIM_HEAD_CHARS);
  const cannot = CANNOT_HINT.mayMatch(head) ? CANNOT.exec(head) : null;
  if (cannot === null) return false;
  const reason = cues.purpose.exec(claim.slice(cannot.index));
  // A change made because something could not be done ("Pinned X because 5.1 can't …") puts the reason first.
  return reason !== null && !cues.change.test(claim.slice(0, cannot.index));
}

/**
 * What kind of non-decision an item is, if any: an intention or plan ("We'll split the parser next", "Change
 * needed: …"), a step of reasoning ("So can't add the migration because the previous one is pending", "It then
 * falls through to X rather than Y"), or an item marked failed or not done ("❌ backup job never scheduled").
 * A first-person report of one's own finished change ("So I've moved …") is never noise.
 *
 * @param text - an item's text.
 * @param cues - the cue matchers of the message's language.
 */
export function decisionNoise(text: string, cues: CueMatchers): DecisionNoise {
  if (FAILED_MARK.test(text)) return 'failed';
  const claim = text.replace(/^[*_\s]+/, '');
  if (NEED_HINT.mayMatch(claim.slice(0, NEED_HEAD_CHARS)) && NEED_LABEL.test(claim)) return 'intention';
  const head = claim.replace(LEADING_LABEL, '');
  const inference = INFERENCE.exec(head);
  const rest = inference === null ? head : head.slice(inference[0].length).replace(/^[\s,，]+/u, '');
  if (INTENTION.test(rest) || INTENTION.test(claim)) return 'intention';
  if (cannotBecause(rest, cues)) return 'reasoning';
  if (inference === null) return null;
  // "So I've moved …", "So we replaced …": the speaker's own change, told as the consequence of what came before.
  return ownChange(rest, cues) || (FIRST_PERSON.test(rest) && (cues.change.test(rest) || cues.weakChange.test(rest))) ? null : 'reasoning';
}
