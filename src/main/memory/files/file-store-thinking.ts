/**
 * The file store's SequentialThinking: maenifold's rules and file format for
 * thought sessions (`memory/thinking/sequential/YYYY/MM/DD/<id>.md`). Adding
 * a thought reads, changes and rewrites the session file, so it runs under a
 * lock shared by every process on the machine; a session file that cannot
 * be parsed is kept aside (`<name>.corrupt-<time>`, one log line) and
 * answered as missing, so the caller starts a new chain instead of losing
 * every later thought.
 */
import { createHash, randomInt } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { formatFrontmatter, memoryConcepts, parseMemoryFile } from '../../../core/memory/memory-markdown.js';
import { writeFileAtomically } from '../../../io/atomic-file.js';
import { throwIfAborted, withFileLock } from '../../shared/file-lock.js';
import { integer, text, ToolError } from './file-store-args.js';
import { keepAside } from '../../shared/state-file.js';
import type { Logger } from '../../shared/logger.js';

/** maenifold's session ids: `session-<unix ms>-<digits>`. */
export const SESSION_ID = /^session-(\d+)(?:-(\d+))?$/;

/** What {@link createSequentialThinking} needs of the store. */
export interface ThinkingSettings {
  /** The file of a `memory://` uri. */
  pathOf(uri: string): string;
  now(): number;
  /** The agent named in thought headings. */
  agent: string;
  /** Folder of the locks. */
  lockDir: string;
  logger: Logger;
  /** Told after each write (the store counts them and refreshes its index). */
  onWrite(): void;
}

/** Where maenifold keeps a session: under the UTC date of the id. */
export function thinkingUri(sessionId: string): string {
  const date = new Date(Number(SESSION_ID.exec(sessionId)?.[1] ?? 0));
  const pad = (value: number, width = 2): string => String(value).padStart(width, '0');
  return `memory://thinking/sequential/${pad(date.getUTCFullYear(), 4)}/${pad(date.getUTCMonth() + 1)}/${pad(date.getUTCDate())}/${sessionId}`;
}

function appendSection(body: string, heading: string, content: string): string {
  const base = body === '' || body.endsWith('\n') ? body : `${body}\n`;
  return `${base}\n## ${heading}\n\n${content}\n`;
}

async function exists(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}

/**
 * @param settings - see {@link ThinkingSettings}.
 * @returns the tool: a payload in, maenifold's `data` out; refusals are thrown as {@link ToolError}.
 */
export function createSequentialThinking(settings: ThinkingSettings): (payload: Record<string, unknown>) => Promise<unknown> {
  const { now, agent } = settings;
  const iso = (): string => new Date(now()).toISOString();
  const fileOf = (sessionId: string): string => settings.pathOf(thinkingUri(sessionId));

  async function readSession(sessionId: string): Promise<ReturnType<typeof parseMemoryFile>> {
    const file = fileOf(sessionId);
    const parsed = parseMemoryFile(await readFile(file, 'utf8'));
    if (parsed.frontmatter['permalink'] === sessionId && parsed.frontmatter['type'] === 'sequential') return parsed;
    await keepAside(file, 'thought session', settings.logger, now);
    throw new ToolError('SESSION_MISSING', `Session ${sessionId} is damaged and was kept aside. Start with thoughtNumber=0.`);
  }

  return async (payload) => {
    const response = text(payload, 'response');
    const thoughts = text(payload, 'thoughts');
    const nextThoughtNeeded = payload['nextThoughtNeeded'] === true;
    const thoughtNumber = integer(payload, 'thoughtNumber', 0);
    const totalThoughts = integer(payload, 'totalThoughts', 0);
    const sessionArg = text(payload, 'sessionId');
    const cancel = payload['cancel'] === true;
    const conclusion = text(payload, 'conclusion');
    const analysisType = text(payload, 'analysisType');
    const author = text(payload, 'agent') ?? agent;
    if (thoughtNumber < 0 || totalThoughts < 0) throw new ToolError('INVALID_ARGUMENT', 'thoughtNumber and totalThoughts must be >= 0');
    if (!cancel && memoryConcepts(`${response ?? ''}\n\n${thoughts ?? ''}`).length === 0) {
      throw new ToolError('WIKILINK_REQUIRED', 'Must include [[concepts]] (WikiLinks outside code) in response or thoughts.');
    }
    if (sessionArg !== undefined && !SESSION_ID.test(sessionArg)) {
      throw new ToolError('INVALID_SESSION_ID', 'Invalid sessionId format. Use maenifold-generated values (session-{unix-milliseconds}-{digits}) or omit sessionId to start a new session.');
    }
    const completing = !nextThoughtNeeded && !cancel;
    const lockName = sessionArg ?? `new-${now()}-${randomInt(0, 1_000_000)}`;
    const lock = join(settings.lockDir, `thinking-${createHash('sha256').update(lockName).digest('hex').slice(0, 24)}.lock`);
    const { sessionId, status } = await withFileLock(lock, async (signal) => {
      const present = sessionArg !== undefined && (await exists(fileOf(sessionArg)));
      if (sessionArg === undefined) {
        if (thoughtNumber !== 0) throw new ToolError('SESSION_MISSING', 'No sessionId given for a continuing thought. Start with thoughtNumber=0 and no sessionId.');
      } else if (thoughtNumber === 0 && present) {
        throw new ToolError('SESSION_EXISTS', `Session ${sessionArg} exists. Continue it with thoughtNumber > 0, or omit sessionId to start a new one.`);
      } else if (thoughtNumber === 0) {
        throw new ToolError('SESSION_NOT_FOUND', `Session ${sessionArg} not found. To start a new session, don't provide sessionId.`);
      } else if (!present) {
        throw new ToolError('SESSION_MISSING', `Session ${sessionArg} missing. Start with thoughtNumber=0.`);
      }
      if (completing && (conclusion === undefined || conclusion.trim() === '')) {
        throw new ToolError('CONCLUSION_REQUIRED', 'Conclusion required when completing session. Must synthesize findings with [[concepts]].');
      }
      if (completing && memoryConcepts(conclusion ?? '').length === 0) {
        throw new ToolError('CONCLUSION_WIKILINK_REQUIRED', 'Conclusion must include [[concepts]] for knowledge graph integration.');
      }
      let sessionId = sessionArg;
      let frontmatter: Record<string, string | number | boolean | string[] | undefined>;
      let body: string;
      if (sessionId === undefined) {
        sessionId = `session-${now()}-${String(randomInt(0, 100_000)).padStart(5, '0')}`;
        frontmatter = { title: `Sequential Thinking Session ${sessionId}`, permalink: sessionId, type: 'sequential', status: 'active', created: iso(), analysisType };
        body = '# Sequential Thinking Session\n';
      } else {
        ({ frontmatter, body } = await readSession(sessionId));
      }
      const stamp = iso().slice(0, 19).replace('T', ' ');
      if (!cancel && response !== undefined) {
        body = appendSection(body, `Thought ${thoughtNumber}/${totalThoughts} [${author}]`, `${response}\n${thoughts ? `\n*Thoughts: ${thoughts}*\n` : ''}\n*${stamp}*`);
      }
      let status: string;
      // As maenifold: thoughts are numbered from 0, so a chain closed at thought n holds n + 1 of them.
      if (cancel) {
        status = 'cancelled';
        frontmatter = { ...frontmatter, status, cancelled: iso(), thoughtCount: thoughtNumber + 1 };
      } else if (completing) {
        body = appendSection(body, 'Conclusion', conclusion ?? '');
        status = 'completed';
        frontmatter = { ...frontmatter, status, completed: iso(), thoughtCount: thoughtNumber + 1 };
      } else {
        status = 'active';
        frontmatter = { ...frontmatter, status };
      }
      await writeFileAtomically(fileOf(sessionId), formatFrontmatter(frontmatter) + body, 0o644, () => throwIfAborted(signal));
      settings.onWrite();
      return { sessionId, status };
    });
    let message = thoughtNumber === 0 ? `Created session: ${sessionId}` : `Added thought ${thoughtNumber} to session: ${sessionId}`;
    if (cancel) message += '\n\n❌ Thinking cancelled';
    else if (completing) message += '\n\n✅ Thinking complete';
    else message += `\n\n💭 Continue with thought ${thoughtNumber + 1}/${totalThoughts}`;
    return { sessionId, thoughtNumber, totalThoughts, status, nextThoughtNeeded, message };
  };
}
