/**
 * The messages of a synthetic session, one at a time: the user's turn, the
 * assistant's steps (tool calls, some of them a failing run fixed and rerun)
 * and final answer, and now and then an automatic compaction and the summary
 * it leaves. The turn structure lives here; what the messages say comes from
 * the templates.
 */
import type { SessionMessage, SessionPart } from '../core/session-types.js';
import { absolutePath, between, chance, nextId, styled, type Generator } from './session-content.js';
import { priorSummaryText } from './session-phenomena.js';
import { assistantText, paragraph, userText } from './session-text.js';
import { failThenPass, toolCall } from './session-tool-calls.js';

/** Chance that the user's turn is instead an automatic compaction, once the session has some length. */
const COMPACTION_CHANCE = 0.03;
/** Messages before the first compaction may happen. */
const COMPACTION_AFTER_MESSAGES = 12;
/** Chance that a tool step is a build or test run that fails, a fix, and the run passing. */
const FAIL_THEN_PASS_CHANCE = 0.12;

function withIds(gen: Generator, messageID: string, parts: readonly SessionPart[]): SessionPart[] {
  return parts.map((part) => ({ ...part, id: nextId(gen, 'prt'), sessionID: gen.sessionID, messageID }));
}

function userMessage(gen: Generator, text: string): SessionMessage {
  const id = nextId(gen, 'msg');
  const created = (gen.clock += between(gen, 5_000, 120_000));
  const parts: SessionPart[] = [{ type: 'text', text: styled(gen, text) }];
  // OpenCode records some tool results as synthetic user text; extraction must skip it.
  if (chance(gen, 0.04)) parts.push({ type: 'text', synthetic: true, text: `Called the Read tool with the following input: {"filePath":"${absolutePath(gen)}"}` });
  gen.turnParent = id;
  gen.toolStepsLeft = between(gen, 0, 3);
  return {
    info: { role: 'user', time: { created }, agent: 'build', model: { providerID: 'anthropic', modelID: 'claude-sonnet-4-5' }, id, sessionID: gen.sessionID },
    parts: withIds(gen, id, parts),
  };
}

function assistantMessage(gen: Generator, finalText: string | null): SessionMessage {
  const id = nextId(gen, 'msg');
  const created = (gen.clock += between(gen, 200, 5_000));
  const usesTools = finalText === null && gen.toolStepsLeft > 0;
  const body: SessionPart[] = [{ type: 'step-start' }];
  if (usesTools) {
    gen.toolStepsLeft -= 1;
    if (chance(gen, 0.6)) body.push({ type: 'text', text: styled(gen, paragraph(gen)) });
    if (chance(gen, FAIL_THEN_PASS_CHANCE)) body.push(...failThenPass(gen));
    else body.push(...Array.from({ length: between(gen, 1, 4) }, () => toolCall(gen)));
  } else {
    body.push({ type: 'text', text: finalText ?? styled(gen, assistantText(gen)) });
  }
  const input = between(gen, 2_000, 90_000);
  const output = between(gen, 50, 4_000);
  const tokens = { total: input + output, input, output, reasoning: 0, cache: { write: 0, read: between(gen, 0, input) } };
  const finish = usesTools ? 'tool-calls' : 'stop';
  body.push({ type: 'step-finish', reason: finish, tokens, cost: 0 });
  const parentID = gen.turnParent ?? '';
  if (!usesTools) gen.turnParent = null;
  return {
    info: {
      parentID, role: 'assistant', mode: 'build', agent: 'build', path: { cwd: gen.projectRoot, root: gen.projectRoot },
      cost: 0, tokens, modelID: 'claude-sonnet-4-5', providerID: 'anthropic',
      time: { created, completed: (gen.clock += between(gen, 500, 60_000)) }, finish, id, sessionID: gen.sessionID,
    },
    parts: withIds(gen, id, body),
  };
}

/** The user-side message of an automatic compaction: a `compaction` part, answered by the summary. */
function compactionMessage(gen: Generator): SessionMessage {
  const id = nextId(gen, 'msg');
  const created = (gen.clock += between(gen, 1_000, 30_000));
  gen.turnParent = id;
  gen.summaryNext = true;
  return { info: { role: 'user', time: { created }, id, sessionID: gen.sessionID }, parts: withIds(gen, id, [{ type: 'compaction', auto: true }]) };
}

/** The summary a compaction left (`summary: true`), which the rest of the session continues from. */
function summaryMessage(gen: Generator, fillerText: string | null): SessionMessage {
  const id = nextId(gen, 'msg');
  const created = (gen.clock += between(gen, 200, 2_000));
  const text = fillerText ?? styled(gen, priorSummaryText(gen, gen.style.language));
  const parentID = gen.turnParent ?? '';
  gen.turnParent = null;
  gen.summaryNext = false;
  return {
    info: {
      parentID, role: 'assistant', mode: 'compaction', agent: 'compaction', summary: true, modelID: 'claude-sonnet-4-5', providerID: 'anthropic',
      time: { created, completed: (gen.clock += between(gen, 5_000, 40_000)) }, finish: 'stop', id, sessionID: gen.sessionID,
    },
    parts: withIds(gen, id, [{ type: 'step-start' }, { type: 'text', text }, { type: 'step-finish', reason: 'stop', cost: 0 }]),
  };
}

/**
 * The message that comes next in the turn the generator is in.
 *
 * @param gen - the session's generator; advanced past the message.
 * @param fillerText - the text of the message instead of a drawn one (filler, or a placeholder to measure);
 *   `null` draws it, and only then may the turn become a compaction.
 */
export function nextMessage(gen: Generator, fillerText: string | null = null): SessionMessage {
  if (gen.summaryNext) return summaryMessage(gen, fillerText);
  if (gen.turnParent === null) {
    if (fillerText === null && gen.nextMessage > COMPACTION_AFTER_MESSAGES && chance(gen, COMPACTION_CHANCE)) return compactionMessage(gen);
    return userMessage(gen, fillerText ?? userText(gen));
  }
  return assistantMessage(gen, fillerText);
}
