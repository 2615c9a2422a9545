/**
 * The OpenCode entry, for both lines. OpenCode treats every export of this
 * module as a plugin, so it exports only `default`: one object that 1.x reads
 * as `{ id, server }` and 2.x as `{ id, setup }` (each loader ignores the
 * other's key). OpenCode 1.18.33 calls both, its embedded 2.0 preview loader
 * with a context that has no sessions: `setup` then does nothing, so the
 * plugin starts once. Everything else lives in src/main.
 */
import type { PluginModule } from '@opencode-ai/plugin';
import { serveV1, type V1PluginInput } from '../src/main/host/v1/serve.js';
import { setupV2 } from '../src/main/host/v2/setup.js';
import type { V2PluginContext, V2PluginDefinition } from '../src/main/host/v2/opencode-v2.js';

const plugin = {
  id: 'opencode-maenifold',
  /** 1.x: the hooks, with `dispose`, which OpenCode awaits at shutdown so background work can finish. */
  server(input: V1PluginInput, options?: Record<string, unknown>) {
    return serveV1(input, options);
  },
  /** 2.x: registers the hooks for one project folder and returns their cleanup. */
  setup(ctx: V2PluginContext) {
    return setupV2(ctx);
  },
};

// Held to both lines' types without widening the export (a literal `satisfies PluginModule` rejects `setup`).
const asV1: PluginModule = plugin;
const asV2: V2PluginDefinition = plugin;
void asV1;
void asV2;

export default plugin;
