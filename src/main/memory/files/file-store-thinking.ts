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
import { memoryConcepts } from '../../../core/memory/memory-markdown.js';
import { formatFrontmatter, parseMemoryFile, SESSION_ID, sessionUri, type FrontmatterValue } from '../../../core/memory/memory-format.js';
import type { ThoughtInput, ThoughtReceipt } from '../../../core/memory/memory-answers.js';
import { writeFileAtomically } from '../../../io/atomic-file.js';
import { assertHeld, withFileLock } from '../../shared/file-lock.js';
import { ToolError } from './file-store-args.js';
import { keepAside } from '../../shared/state-file.js';
import type { Logger } from '../../shared/logger.js';

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
 * @returns the tool: a thought in, where it landed out; refusals are thrown as {@link ToolError}.
 */
export function createSequentialThinking(settings: ThinkingSettings): (thought: ThoughtInput) => Promise<ThoughtReceipt> {
  const { now, agent } = settings;
  const iso = (): string => new Date(now()).toISOString();
  // An id whose time is no date has no file: it reads as missing.
  const fileOf = (sessionId: string): string | null => {
    const uri = sessionUri(sessionId);
    return uri ? settings.pathOf(uri) : null;
  };

  async function readSession(sessionId: string, file: string): Promise<ReturnType<typeof parseMemoryFile>> {
    const parsed = parseMemoryFile(await readFile(file, 'utf8'));
    if (parsed.frontmatter['permalink'] === sessionId && parsed.frontmatter['type'] === 'sequential') return parsed;
    await keepAside(file, 'thought session', settings.logger, now);
    throw new ToolError('SESSION_MISSING', `Session ${sessionId} is damaged and was kept aside. Start with thoughtNumber=0.`);
  }

  return async (thought) => {
    const { response, thoughts, nextThoughtNeeded, thoughtNumber, totalThoughts, conclusion, analysisType } = thought;
    const sessionArg = thought.sessionId;
    const cancel = thought.cancel === true;
    const author = thought.agent ?? agent;
    if (!Number.isInteger(thoughtNumber) || !Number.isInteger(totalThoughts)) throw new ToolError('INVALID_ARGUMENT', 'thoughtNumber and totalThoughts must be integers');
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
    const { sessionId } = await withFileLock(lock, async (signal) => {
      const sessionFile = sessionArg === undefined ? null : fileOf(sessionArg);
      const present = sessionFile !== null && (await exists(sessionFile));
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
      let frontmatter: Record<string, FrontmatterValue | undefined>;
      let body: string;
      if (sessionId === undefined) {
        sessionId = `session-${now()}-${String(randomInt(0, 100_000)).padStart(5, '0')}`;
        frontmatter = { title: `Sequential Thinking Session ${sessionId}`, permalink: sessionId, type: 'sequential', status: 'active', created: iso(), analysisType };
        body = '# Sequential Thinking Session\n';
      } else {
        ({ frontmatter, body } = await readSession(sessionId, sessionFile as string));
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
      // A new id is made from the clock, so it always has a file.
      await writeFileAtomically(fileOf(sessionId) as string, formatFrontmatter(frontmatter) + body, 0o644, () => assertHeld(signal));
      settings.onWrite();
      return { sessionId, status };
    });
    return { sessionId, thoughtNumber };
  };
}
