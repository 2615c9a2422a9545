/**
 * The event bus as the 2.x host scopes it (`bus.ts`): a subscriber sees only
 * the events of its own location; its iterator closes when that location is
 * unloaded. Some builds send every folder's events on one stream instead
 * (opencode-v2-api.md, "Where the stored source versions disagree"), and a
 * compaction event names no folder: `publishEverywhere` plays those. Events are queued per subscriber, so one that is slow to pull
 * misses nothing.
 */
import type { V2Event } from '../../src/main/host/v2/opencode-v2.js';

/** The bus of one service. */
export interface EventBus {
  /** A new subscription for `location`, as `ctx.event.subscribe()` returns it. */
  subscribe(location: string): AsyncIterable<V2Event>;
  /**
   * Hands `event` to every subscriber of `location`. Anything may be published, malformed events
   * included: the bus passes on what it is given, as a host whose publishers disagree would.
   */
  publish(location: string, event: unknown): void;
  /** Hands `event` to every subscriber of every location, as builds with one stream for all folders do. */
  publishEverywhere(event: unknown): void;
  /** Ends every subscription of `location`. */
  close(location: string): void;
  /** Live subscriptions of `location`. */
  subscribers(location: string): number;
}

interface Subscriber {
  queue: unknown[];
  waiting: ((result: IteratorResult<V2Event>) => void) | null;
  closed: boolean;
}

/** A new, empty bus. */
export function createEventBus(): EventBus {
  const byLocation = new Map<string, Set<Subscriber>>();
  const end = (subscriber: Subscriber, location: string): void => {
    subscriber.closed = true;
    subscriber.queue = [];
    byLocation.get(location)?.delete(subscriber);
    subscriber.waiting?.({ done: true, value: undefined });
    subscriber.waiting = null;
  };
  const deliver = (subscribers: Iterable<Subscriber>, event: unknown): void => {
    for (const subscriber of subscribers) {
      if (subscriber.waiting) {
        const resolve = subscriber.waiting;
        subscriber.waiting = null;
        // A malformed event reaches the plugin as the host's type claims it is: that is the point of publishing it.
        resolve({ done: false, value: event as V2Event });
      } else subscriber.queue.push(event);
    }
  };
  return {
    subscribe(location) {
      const subscriber: Subscriber = { queue: [], waiting: null, closed: false };
      const set = byLocation.get(location) ?? new Set<Subscriber>();
      byLocation.set(location, set);
      set.add(subscriber);
      const iterator: AsyncIterator<V2Event> = {
        next() {
          if (subscriber.queue.length > 0) return Promise.resolve({ done: false, value: subscriber.queue.shift() as V2Event });
          if (subscriber.closed) return Promise.resolve({ done: true, value: undefined });
          return new Promise((resolve) => {
            subscriber.waiting = resolve;
          });
        },
        return() {
          end(subscriber, location);
          return Promise.resolve({ done: true, value: undefined });
        },
      };
      return { [Symbol.asyncIterator]: () => iterator };
    },
    publish(location, event) {
      deliver(byLocation.get(location) ?? [], event);
    },
    publishEverywhere(event) {
      for (const set of [...byLocation.values()]) deliver(set, event);
    },
    close(location) {
      for (const subscriber of [...(byLocation.get(location) ?? [])]) end(subscriber, location);
      byLocation.delete(location);
    },
    subscribers: (location) => byLocation.get(location)?.size ?? 0,
  };
}
