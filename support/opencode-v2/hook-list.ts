/**
 * The callbacks registered for one hook of one location, run as the 2.x host
 * runs them: in registration order, each awaited, over one shared event,
 * called `(event, { signal })`. A callback that throws, rejects or does not
 * settle within the host's patience is recorded as a violation; the next one
 * still runs, so a test sees every failure of a call, not only the first.
 */
import type { V2Disposable, V2HookExtra } from '../../src/main/host/v2/opencode-v2.js';
import { errorMessage, type ContractRecords, type HookName, type Registration } from './records.js';

/** A hook callback over events of type `E`. */
export type HookCallback<E> = (event: E, extra?: V2HookExtra) => void | Promise<void>;

/** The registrations of one hook of one location. */
export interface HookList<E> {
  /** Registers a callback; the handle's `dispose` removes it. */
  add(callback: HookCallback<E>): V2Disposable;
  /** Runs every live callback over `event`. */
  run(event: E, signal: AbortSignal): Promise<void>;
  /** Removes every callback (the location is unloaded). */
  disposeAll(): void;
  /** How many callbacks are live. */
  size(): number;
}

/** How the list reports what it saw. */
export interface HookListContext {
  location: string;
  name: HookName;
  /** Label used in violations, e.g. `session.hook(context)`. */
  where: string;
  records: ContractRecords;
  /** How long a callback may take before it is recorded as hung (the real host waits forever). */
  deadlineMs: number;
}

/** Settles with `'timeout'` after `ms`, clearing its timer once `work` settles. */
async function within(work: Promise<void>, ms: number): Promise<'done' | 'timeout'> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), ms);
  });
  try {
    return await Promise.race([work.then(() => 'done' as const), deadline]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * @param context - the location, the hook and where to record.
 */
export function createHookList<E>(context: HookListContext): HookList<E> {
  const live = new Map<number, { callback: HookCallback<E>; registration: Registration }>();
  let next = 0;
  const violation = (message: string): void => void context.records.violations.push({ location: context.location, where: context.where, message });
  return {
    add(callback) {
      const registration: Registration = { location: context.location, name: context.name, disposed: false };
      context.records.registrations.push(registration);
      const key = next++;
      live.set(key, { callback, registration });
      return {
        dispose() {
          registration.disposed = true;
          live.delete(key);
        },
      };
    },
    async run(event, signal) {
      for (const { callback } of [...live.values()]) {
        const work = Promise.resolve().then(() => callback(event, { signal }));
        try {
          if ((await within(work, context.deadlineMs)) === 'timeout') violation(`did not settle within ${context.deadlineMs} ms`);
        } catch (error) {
          violation(`threw: ${errorMessage(error)}`);
        }
      }
    },
    disposeAll() {
      for (const { registration } of live.values()) registration.disposed = true;
      live.clear();
    },
    size: () => live.size,
  };
}
