/**
 * The OpenCode entry. OpenCode treats every export of this module as a
 * plugin, so it exports only `default`; everything else lives in src/main.
 * `satisfies` holds it to OpenCode's own `PluginModule` and `Hooks` types,
 * while the server accepts the narrower input the plugin reads.
 */
import type { PluginModule } from '@opencode-ai/plugin';
import { createMaenifoldPlugin, hooksForHost, type PluginInput } from '../src/main/plugin/create-plugin.js';

export default {
  id: 'opencode-maenifold',
  async server(input: PluginInput, options?: Record<string, unknown>) {
    // With `dispose`, which OpenCode awaits at shutdown so background work can finish.
    return hooksForHost(await createMaenifoldPlugin(input, options));
  },
} satisfies PluginModule;
