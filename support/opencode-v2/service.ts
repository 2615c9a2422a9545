/**
 * A contract host for OpenCode 2.x plugins: like the 2.x background service,
 * one process serving several locations (project folders), each booting its
 * own `setup` with its own fixed `ctx.location` and `ctx.options`. Built from
 * the shapes in opencode-v2-api.md and the vendored types
 * (src/main/host/v2/opencode-v2.ts), since no 2.x host can be installed here.
 * It records what the plugin did (records.ts) for the tests to check.
 */
import type { V2App, V2Storage } from '../../src/main/host/v2/opencode-v2.js';
import { decodeDefinition } from './definition.js';
import { createEventBus, type EventBus } from './event-bus.js';
import { bootLocation, type LocationHost } from './location-host.js';
import { startMessageServer, type MessageServer } from './message-server.js';
import { createRecords, type ContractRecords } from './records.js';
import { createSessionStore, type SessionStore } from './session-store.js';

/** The version `ctx.app` reports: the release the third-party note inspected. */
export const HOST_VERSION = '2.0.24';

/** How long a hook or a cleanup may take before the host records it as hung (the real host waits forever). */
export const DEFAULT_DEADLINE_MS = 20_000;

/** The service. */
export interface V2Service {
  /** What every location's `ctx.app` is: the loopback server with its password. */
  readonly app: V2App & { server: { url: string; password: string } };
  readonly sessions: SessionStore;
  readonly records: ContractRecords;
  readonly bus: EventBus;
  /** The message server, with every request it answered. */
  readonly server: MessageServer;
  /**
   * Decodes `namespace`'s default export as the loader does and boots its `setup` for one location.
   *
   * @param namespace - the imported module (its `default` is decoded).
   * @param location - the project folder, and the options the config gives the plugin there.
   */
  boot(namespace: unknown, location: { directory: string; options?: Record<string, unknown> }): Promise<LocationHost>;
  /** The locations booted and not unloaded. */
  locations(): LocationHost[];
  /** Unloads every location, then stops the server. */
  close(): Promise<void>;
}

/** A per-plugin key-value store in memory (`ctx.storage`). */
function memoryStorage(): V2Storage {
  const values = new Map<string, unknown>();
  return {
    get: async (key) => values.get(key),
    set: async (key, value) => void values.set(key, value),
    remove: async (key) => void values.delete(key),
    async *scan(prefix = '') {
      for (const entry of [...values.entries()]) if (entry[0].startsWith(prefix)) yield entry;
    },
  };
}

/**
 * Starts a service with its loopback server.
 *
 * @param options - `deadlineMs`: how long a hook or cleanup may take before it is recorded as hung.
 */
export async function startV2Service(options: { deadlineMs?: number } = {}): Promise<V2Service> {
  const sessions = createSessionStore();
  const records = createRecords();
  const bus = createEventBus();
  const server = await startMessageServer(sessions);
  const app = { name: 'opencode', version: HOST_VERSION, channel: 'latest', server: { url: server.url, password: server.password } };
  const storages = new Map<string, V2Storage>();
  const live = new Map<string, LocationHost>();
  return {
    app,
    sessions,
    records,
    bus,
    server,
    async boot(namespace, location) {
      const definition = decodeDefinition(namespace);
      if (definition.form === 'effect') throw new Error(`plugin ${definition.id}: this host runs setup plugins only`);
      if (live.has(location.directory)) throw new Error(`location ${location.directory} is already booted`);
      const storage = storages.get(definition.id) ?? memoryStorage();
      storages.set(definition.id, storage);
      const host = await bootLocation({
        directory: location.directory,
        options: location.options ?? {},
        app,
        storage,
        sessions,
        bus,
        records,
        deadlineMs: options.deadlineMs ?? DEFAULT_DEADLINE_MS,
        setup: definition.setup,
      });
      live.set(location.directory, host);
      const unload = host.unload.bind(host);
      host.unload = async () => {
        live.delete(location.directory);
        await unload();
      };
      return host;
    },
    locations: () => [...live.values()],
    async close() {
      for (const host of [...live.values()]) await host.unload();
      await server.close();
    },
  };
}
