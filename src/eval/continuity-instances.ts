/**
 * A plugin instance of the continuity scenario, started through the
 * package's entry on either OpenCode line, and driven the way that line
 * drives it: 1.x calls `server()`'s hooks and reads the summary from the
 * session's messages; 2.x calls what `setup()` registered and sends the
 * summary's text on the event stream. The scenario sees one shape for both,
 * so the two lines run the same steps.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import plugin from '../../plugin/maenifold.js';
import type { HostLine } from '../main/host/host-port.js';
import type { V2Cleanup } from '../main/host/v2/opencode-v2.js';
import { LOG_FILE_NAME } from '../main/host/v2/setup.js';
import { compactionMessages, createContinuityHost, type CapturedLog, type MessageStore } from './continuity-host.js';
import { createContinuityContextV2 } from './continuity-host-v2.js';
import { startContinuityServer } from './continuity-server.js';

/** The model of every next-session call, so two runs differ only in memory. */
const MODEL = { id: 'continuity-eval', providerID: 'continuity-eval' };

/** Waits for one step at most the scenario's step time; false (and a note) when it did not finish. */
export type BoundedStep = (what: string, work: () => Promise<unknown>) => Promise<boolean>;

/** A session a project compacts, as an instance is handed it. */
export interface CompactedSession {
  sessionID: string;
  /** Its messages before the compaction, `{ info, parts }`, oldest first. */
  messages: readonly unknown[];
  /** The summary the compaction produced. */
  summary: string;
}

/** One plugin instance, whichever line runs it. */
export interface ScenarioInstance {
  /** Runs the compaction hook on the session, then tells the plugin the compaction ended; does not wait for what it writes. */
  compact(session: CompactedSession): Promise<void>;
  /** What the system prompt of a work call of `sessionID` received: the plugin's blocks, joined by blank lines. */
  system(sessionID: string): Promise<string>;
  /** Shuts the instance down as its line does on exit. */
  dispose(): Promise<void>;
}

/** What starting an instance needs. */
export interface InstanceStart {
  /** The instance's role, naming its notes. */
  name: string;
  /** The project's folder. */
  directory: string;
  /** The plugin's options. */
  options: Record<string, unknown>;
  bounded: BoundedStep;
  /** Records what went wrong without stopping the scenario. */
  note: (text: string) => void;
  /** The sessions 1.x keeps for every instance of the run. */
  store: MessageStore;
}

/**
 * What a system transform added: everything in `system` after the original `base` entry's text.
 *
 * @param system - `output.system` after the hook ran on `['base']`.
 */
export function receivedText(system: readonly string[]): string {
  const joined = system.join('\n\n');
  return (joined.startsWith('base') ? joined.slice('base'.length) : joined).trim();
}

type Hook = (input: unknown, output: unknown) => Promise<void>;

async function startV1(start: InstanceStart): Promise<{ instance: ScenarioInstance; logs: CapturedLog[] }> {
  const { name, directory, options, bounded, note, store } = start;
  const host = createContinuityHost(store);
  let hooks: Record<string, unknown> = {};
  await bounded(`${name}: plugin start`, async () => {
    hooks = (await plugin.server({ client: host.client, directory, worktree: directory }, options)) as Record<string, unknown>;
  });
  if (Object.keys(hooks).length === 0) note(`${name}: the plugin returned no hooks`);
  const hook = (key: string): Hook | null => (typeof hooks[key] === 'function' ? (hooks[key] as Hook) : null);
  const instance: ScenarioInstance = {
    async compact({ sessionID, messages, summary }) {
      store.set(sessionID, [...messages]);
      const compacting = hook('experimental.session.compacting');
      if (compacting) await bounded(`${name}: compacting hook`, () => compacting({ sessionID }, { context: [], prompt: undefined }));
      store.get(sessionID)?.push(...compactionMessages(sessionID, summary, Date.now()));
      const event = hook('event');
      if (event) await bounded(`${name}: session.compacted event`, () => event({ event: { type: 'session.compacted', properties: { sessionID } } }, undefined));
    },
    async system(sessionID) {
      const transform = hook('experimental.chat.system.transform');
      const output = { system: ['base'] };
      if (transform) await bounded(`${name}: system transform`, () => transform({ sessionID, model: MODEL }, output));
      return receivedText(output.system);
    },
    async dispose() {
      const dispose = hooks['dispose'];
      if (typeof dispose === 'function') await bounded(`${name}: dispose`, () => (dispose as () => Promise<void>).call(hooks));
    },
  };
  return { instance, logs: host.logs };
}

async function startV2(start: InstanceStart): Promise<ScenarioInstance> {
  const { name, directory, options, bounded, note, store } = start;
  const server = await startContinuityServer(store);
  const host = createContinuityContextV2(options, directory, server);
  let cleanup: V2Cleanup | void = undefined;
  await bounded(`${name}: plugin setup`, async () => {
    cleanup = await plugin.setup(host.ctx);
  });
  if (Object.values(host.registered()).every((count) => count === 0)) note(`${name}: the plugin registered no hooks`);
  return {
    async compact({ sessionID, messages, summary }) {
      store.set(sessionID, [...messages]);
      await bounded(`${name}: compaction hook`, () => host.compaction(sessionID, messages));
      store.get(sessionID)?.push(...compactionMessages(sessionID, summary, Date.now()));
      // 2.x publishes the summary once the model wrote it, after the hook.
      host.compactionEnded(sessionID, summary);
    },
    async system(sessionID) {
      let texts: string[] = [];
      await bounded(`${name}: context hook`, async () => {
        texts = await host.context(sessionID, { id: MODEL.id, providerID: MODEL.providerID });
      });
      return receivedText(['base', ...texts]);
    },
    async dispose() {
      const done = cleanup;
      if (typeof done === 'function') await bounded(`${name}: cleanup`, async () => done());
      host.close();
      await server.close();
    },
  };
}

/**
 * Starts one plugin instance on the given line.
 *
 * @returns the instance, and the lines it logged through the host (1.x; 2.x logs to a file, see {@link readV2Log}).
 */
export async function startInstance(line: HostLine, start: InstanceStart): Promise<{ instance: ScenarioInstance; logs: CapturedLog[] }> {
  if (line === 'v1') return startV1(start);
  return { instance: await startV2(start), logs: [] };
}

const LOG_LINE = /^\S+ (DEBUG|INFO|WARN|ERROR) (.*)$/;

/**
 * The lines the 2.x instances of a run logged to their shared file, `<stateDir>/maenifold.log`.
 *
 * @param stateDir - the instances' `stateDir`.
 */
export async function readV2Log(stateDir: string): Promise<CapturedLog[]> {
  let text = '';
  try {
    text = await readFile(join(stateDir, LOG_FILE_NAME), 'utf8');
  } catch {
    // No file: nothing was logged.
    return [];
  }
  return text.split('\n').flatMap((line) => {
    const match = LOG_LINE.exec(line);
    return match ? [{ level: (match[1] ?? '').toLowerCase(), message: match[2] ?? '' }] : [];
  });
}
