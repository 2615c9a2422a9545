/**
 * When the host has got through its own start. OpenCode loads the plugin
 * while it is still starting (its config, its tools, the first session) on
 * both cores of a small machine; whatever the plugin runs then, the user's
 * first prompt waits for. The host counts as started when its first session
 * goes idle (the first prompt answered), a few seconds after the first
 * work call when no idle event comes, or a while after the plugin loaded
 * when no session starts. The pool's workers, session start's first build
 * and the outbox's delivery start then, unless a hook needs them earlier.
 */
import { isSessionIdle, type HostEventInput } from '../host/host-events.js';

/** How long after the first work call the host counts as started when no session went idle by then. */
export const SETTLE_AFTER_WORK_CALL_MS = 3_000;

/** How long after the plugin loaded the host counts as started whatever it did. */
export const HOST_START_LATEST_MS = 15_000;

/** The host's start, as the plugin's hooks see it. */
export interface HostStart {
  /** Settles once, when the host has got through its start. */
  readonly settled: Promise<void>;
  /** Told at each work call's system prompt. */
  workCall(): void;
  /** Told every host event. */
  event(input: HostEventInput): void;
}

/**
 * @param settleMs - how long after the first work call the host counts as started without an idle event.
 * @param latestMs - how long after this call it counts as started in any case.
 */
export function createHostStart(settleMs: number = SETTLE_AFTER_WORK_CALL_MS, latestMs: number = HOST_START_LATEST_MS): HostStart {
  let settle: () => void = () => undefined;
  let done = false;
  const settled = new Promise<void>((resolve) => (settle = resolve));
  let timer: NodeJS.Timeout | null = null;
  const finish = (): void => {
    if (done) return;
    done = true;
    if (timer) clearTimeout(timer);
    clearTimeout(latest);
    settle();
  };
  // Nothing waits on these timers but background work: they keep no process alive.
  const latest = setTimeout(finish, latestMs);
  latest.unref();
  return {
    settled,
    workCall() {
      if (done || timer) return;
      timer = setTimeout(finish, settleMs);
      timer.unref();
    },
    event(input) {
      if (!done && isSessionIdle(input)) finish();
    },
  };
}
