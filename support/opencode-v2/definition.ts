/**
 * The 2.x loader's decoding of a plugin module's default export, and the
 * context the 1.18.33 binary's embedded preview loader hands `setup`.
 */
import type { V2Cleanup, V2PluginContext } from '../../src/main/host/v2/opencode-v2.js';

/** What the 2.x loader says when a module's default export is neither form (opencode-v2-api.md, "Entry"). */
export const DEFINITION_ERROR = 'Plugin must export a default definition with an id and an effect or setup function';

/** A decoded default export: the `setup` form, which this host runs, or the `effect` form, which it only recognises. */
export type DecodedDefinition =
  | { form: 'setup'; id: string; setup: (ctx: V2PluginContext) => Promise<V2Cleanup | void> | V2Cleanup | void }
  | { form: 'effect'; id: string; effect: unknown };

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

/**
 * Decodes a module namespace as the 2.x loader does: `default` must be `{ id, setup }` or `{ id, effect }`;
 * extra keys (a 1.x `server`) are ignored.
 *
 * @param namespace - the imported module (`await import(path)`), not its default export.
 * @throws Error with {@link DEFINITION_ERROR} when the default export is missing or of neither form.
 */
export function decodeDefinition(namespace: unknown): DecodedDefinition {
  const definition = isObject(namespace) ? namespace['default'] : undefined;
  if (!isObject(definition) || typeof definition['id'] !== 'string' || definition['id'] === '') throw new Error(DEFINITION_ERROR);
  const { id, setup, effect } = definition;
  if (typeof setup === 'function') {
    const bound = (ctx: V2PluginContext): Promise<V2Cleanup | void> | V2Cleanup | void => (setup as (ctx: V2PluginContext) => V2Cleanup | void).call(definition, ctx);
    return { form: 'setup', id, setup: bound };
  }
  if (effect !== undefined && effect !== null) return { form: 'effect', id, effect };
  throw new Error(DEFINITION_ERROR);
}

/**
 * The `ctx` 1.18.33's preview loader hands `setup`: options and the preview's own services, and no
 * `session`, `tool` or `event` (opencode-v2-api.md: "On 1.18.33 both `server()` and `setup()` run").
 *
 * @param options - the plugin's options as the config gives them.
 */
export function previewContext(options: Record<string, unknown> = {}): V2PluginContext & Record<string, unknown> {
  const service = (): Record<string, unknown> => ({});
  return { options, agent: service(), aisdk: service(), catalog: service(), command: service(), integration: service(), plugin: service(), reference: service(), skill: service() };
}
