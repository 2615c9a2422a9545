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
import { counterOf, randomSuffix, type Generator, type SessionStyle } from './session-content.js';
import { OTHER_LANGUAGES, type SessionLanguage } from './session-languages.js';
import { nextMessage } from './session-messages.js';
import { plainText } from './session-text.js';

/** Where generated tool calls work when no project root is given. */
export const DEFAULT_PROJECT_ROOT = '/home/user/project';

/** Below this many bytes left, a message is not worth generating: filler takes the rest. */
const FILLER_MIN_BYTES = 2_048;
/** Fresh messages tried when one does not fit, before settling for filler. */
const FIT_ATTEMPTS = 8;
/** Share of sessions that write no `[[link]]`, and share held in another language than English. */
const LINKLESS_SHARE = 0.25;
const OTHER_LANGUAGE_SHARE = 0.4;

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
