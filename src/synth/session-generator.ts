/**
 * Synthetic OpenCode session exports for tests, benchmarks and `npm start`.
 *
 * A session is deterministic for its seed and lands within a few bytes of the
 * requested size: every message is serialised once to measure it, and the
 * last one is filler cut to the bytes that remain. Content comes from pools of
 * templates so that every stage has something to find — headings, WikiLinks,
 * decisions, fenced code that must be ignored, non-ASCII text, tool calls with
 * paths, failures and test output — without any per-byte work.
 */
import type { SessionExport, SessionMessage, SessionPart, TextPart } from '../core/session-types.js';
import { createPrng } from './prng.js';
import { absolutePath, between, chance, counterOf, nextId, randomSuffix, styled, type Generator, type SessionStyle } from './session-content.js';
import { OTHER_LANGUAGES, type SessionLanguage } from './session-languages.js';
import { priorSummaryText } from './session-phenomena.js';
import { assistantText, failThenPass, paragraph, plainText, toolCall, userText } from './session-templates.js';

/** Where generated tool calls work when no project root is given. */
export const DEFAULT_PROJECT_ROOT = '/home/user/project';

/** The largest size {@link parseSize} accepts: 1 GB. */
export const MAX_SIZE_BYTES = 1024 ** 3;

/** Below this many bytes left, a message is not worth generating: filler takes the rest. */
const FILLER_MIN_BYTES = 2_048;
/** Fresh messages tried when one does not fit, before settling for filler. */
const FIT_ATTEMPTS = 8;
/** Chance that the user's turn is instead an automatic compaction, once the session has some length. */
const COMPACTION_CHANCE = 0.03;
/** Messages before the first compaction may happen. */
const COMPACTION_AFTER_MESSAGES = 12;
/** Chance that a tool step is a build or test run that fails, a fix, and the run passing. */
const FAIL_THEN_PASS_CHANCE = 0.12;
/** Share of sessions that write no `[[link]]`, and share held in another language than English. */
const LINKLESS_SHARE = 0.25;
const OTHER_LANGUAGE_SHARE = 0.4;

// ---- Messages ---------------------------------------------------------------

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

function nextMessage(gen: Generator, fillerText: string | null = null): SessionMessage {
  if (gen.summaryNext) return summaryMessage(gen, fillerText);
  if (gen.turnParent === null) {
    if (fillerText === null && gen.nextMessage > COMPACTION_AFTER_MESSAGES && chance(gen, COMPACTION_CHANCE)) return compactionMessage(gen);
    return userMessage(gen, fillerText ?? userText(gen));
  }
  return assistantMessage(gen, fillerText);
}

function isTextPart(part: SessionPart): part is TextPart {
  return part.type === 'text' && typeof part['text'] === 'string';
}

function byteSize(value: unknown): number {
  return Buffer.byteLength(JSON.stringify(value), 'utf8');
}

/** Appends messages adding about `budget` bytes (separating commas included) to the serialised export. */
function appendMessages(gen: Generator, messages: SessionMessage[], budget: number): void {
  let used = 0;
  let misses = 0;
  for (;;) {
    const separator = messages.length > 0 ? 1 : 0;
    const room = budget - used;
    if (room >= FILLER_MIN_BYTES && misses < FIT_ATTEMPTS) {
      const saved = { ...gen };
      const message = nextMessage(gen);
      const bytes = byteSize(message) + separator;
      // Leave room for filler after it, so the total can always be met exactly.
      if (used + bytes <= budget - FILLER_MIN_BYTES) {
        messages.push(message);
        used += bytes;
        misses = 0;
      } else {
        Object.assign(gen, saved);
        misses += 1;
      }
      continue;
    }
    const filler = nextMessage(gen, '');
    const text = filler.parts.find(isTextPart);
    const length = room - byteSize(filler) - separator;
    if (length >= 0 && text) {
      text.text = plainText(gen, length);
      messages.push(filler);
    }
    return;
  }
}

/**
 * The style of the session of a seed: drawn from a stream of its own, so choosing it does not shift the
 * content drawn from the seed.
 */
export function sessionStyle(seed: number, overrides: Partial<SessionStyle> = {}): SessionStyle {
  const random = createPrng(Math.imul(seed | 0, 0x85ebca6b) ^ 0x57e61);
  const links = random() >= LINKLESS_SHARE;
  const roll = random();
  const language: SessionLanguage = roll < 1 - OTHER_LANGUAGE_SHARE
    ? 'en'
    : (OTHER_LANGUAGES[Math.min(OTHER_LANGUAGES.length - 1, Math.floor(((roll - (1 - OTHER_LANGUAGE_SHARE)) / OTHER_LANGUAGE_SHARE) * OTHER_LANGUAGES.length))] ?? 'en');
  return { links: overrides.links ?? links, language: overrides.language ?? language };
}

function createGenerator(seed: number, projectRoot: string, style: Partial<SessionStyle> = {}): Generator {
  const random = createPrng(Math.imul(seed | 0, 0x9e3779b1) ^ 0x5eed);
  const gen: Generator = {
    random, projectRoot, sessionID: '', nextMessage: 1, nextPart: 1, clock: 0, turnParent: null, toolStepsLeft: 0,
    style: sessionStyle(seed, style), summaryNext: false,
  };
  gen.sessionID = `ses_${randomSuffix(gen, 26)}`;
  gen.clock = 1_750_000_000_000 + Math.floor(random() * 10_000_000_000);
  return gen;
}

/** Options of {@link generateSession}. */
export interface GenerateSessionOptions {
  /** Seed of all content and ids: the same seed gives the same session. */
  seed: number;
  /** Size of `JSON.stringify(session)` in UTF-8 bytes; met within a few bytes above ~2 KB. */
  targetBytes: number;
  /** Directory the tool calls read, edit and search. @default '/home/user/project' */
  projectRoot?: string;
  /** Whether the session writes `[[links]]`. @default drawn from the seed: three sessions in four */
  links?: boolean;
  /** The language the user writes in. @default drawn from the seed: English in three sessions in five */
  language?: SessionLanguage;
}

/**
 * A synthetic session export of about `targetBytes`, with alternating user
 * and assistant turns, headings, WikiLinks (or none, in some sessions),
 * decisions, fenced code, non-ASCII text and turns in other languages, tool
 * calls (some failed, some failing runs fixed and rerun, some files touched
 * through the shell), pasted stack traces and templates, and summaries of
 * earlier compactions.
 *
 * @param options - seed, size and project root; see {@link GenerateSessionOptions}.
 * @throws Error when `seed` or `targetBytes` is not a finite number.
 */
export function generateSession(options: GenerateSessionOptions): SessionExport {
  const { seed, targetBytes, projectRoot = DEFAULT_PROJECT_ROOT } = options;
  if (!Number.isFinite(seed)) throw new Error(`options.seed must be a finite number (got ${String(seed)})`);
  if (!Number.isFinite(targetBytes) || targetBytes < 0) throw new Error(`options.targetBytes must be a number of bytes, 0 or more (got ${String(targetBytes)})`);
  const style: Partial<SessionStyle> = {};
  if (options.links !== undefined) style.links = options.links;
  if (options.language !== undefined) style.language = options.language;
  const gen = createGenerator(seed, projectRoot, style);
  const created = gen.clock;
  // `updated` is a placeholder of the same width until the last message is known.
  const info = { id: gen.sessionID, slug: `synthetic-${randomSuffix(gen, 6).toLowerCase()}`, projectID: 'global', directory: projectRoot, title: `Synthetic session (seed ${seed})`, version: '1.18.33', time: { created, updated: created } };
  const messages: SessionMessage[] = [];
  appendMessages(gen, messages, targetBytes - byteSize({ info, messages }));
  if (messages.length === 0) messages.push(nextMessage(gen, 'Hi'));
  info.time.updated = gen.clock;
  return { info, messages };
}

/**
 * A longer version of a session: the same message objects, in order, then
 * new messages adding about `extraBytes`, with ids after every existing one.
 *
 * @param session - the export to extend; it is not modified.
 * @param extraBytes - how many bytes the new messages add to its serialisation.
 * @param seed - seed of the new content.
 */
export function growSession(session: SessionExport, extraBytes: number, seed: number): SessionExport {
  if (!Number.isFinite(extraBytes)) throw new Error(`extraBytes must be a number of bytes (got ${String(extraBytes)})`);
  const directory = session.info['directory'];
  const gen = createGenerator(seed, typeof directory === 'string' && directory ? directory : DEFAULT_PROJECT_ROOT);
  gen.sessionID = session.info.id;
  let lastMessage = 0;
  let lastPart = 0;
  let clock = 0;
  for (const message of session.messages) {
    lastMessage = Math.max(lastMessage, counterOf(message.info.id, 'msg'));
    clock = Math.max(clock, message.info.time.created, message.info.time.completed ?? 0);
    for (const part of message.parts) lastPart = Math.max(lastPart, counterOf(part['id'], 'prt'));
  }
  gen.nextMessage = lastMessage + 1;
  gen.nextPart = lastPart + 1;
  if (clock > 0) gen.clock = clock;
  const last = session.messages.at(-1);
  // A session that ends on the user's words gets its answer first.
  if (last?.info.role === 'user') gen.turnParent = last.info.id;
  const messages = [...session.messages];
  if (extraBytes > 0) appendMessages(gen, messages, extraBytes);
  const time = session.info['time'];
  const info = typeof time === 'object' && time !== null ? { ...session.info, time: { ...time, updated: gen.clock } } : { ...session.info };
  return { info, messages };
}

const SIZE_PATTERN = /^\s*([+-]?(?:\d+(?:\.\d*)?|\.\d+))\s*(b|kb|mb|gb)?\s*$/i;
const UNIT_BYTES: Readonly<Record<string, number>> = { b: 1, kb: 1024, mb: 1024 ** 2, gb: 1024 ** 3 };

/**
 * Reads a size such as `100KB`, `1.5 MB` or `512` (bytes); units are powers
 * of 1024 and case-insensitive.
 *
 * @param text - the size as typed.
 * @returns whole bytes, from 1 to {@link MAX_SIZE_BYTES}.
 * @throws Error with a one-line message for anything else.
 */
export function parseSize(text: string): number {
  const quoted = JSON.stringify(text);
  const match = SIZE_PATTERN.exec(text);
  if (!match) throw new Error(`invalid size ${quoted}: expected a number with an optional unit, e.g. 100KB or 10MB`);
  const bytes = Math.round(Number(match[1]) * (UNIT_BYTES[(match[2] ?? 'b').toLowerCase()] ?? 1));
  if (bytes <= 0) throw new Error(`invalid size ${quoted}: must be more than 0 bytes, e.g. 100KB or 10MB`);
  if (bytes > MAX_SIZE_BYTES) throw new Error(`invalid size ${quoted}: must be at most 1GB`);
  return bytes;
}
