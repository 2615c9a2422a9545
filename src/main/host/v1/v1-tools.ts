/**
 * The plugin's tools as OpenCode 1.x takes them: built with the `tool()`
 * helper of `@opencode-ai/plugin` (zod arguments), found at run time since the
 * package is an optional peer (tool-helper.ts).
 */
import type { PluginTool } from '../host-port.js';
import type { ToolHelper } from './tool-helper.js';

/** A 1.x tool, as the helper builds it. */
export type V1Tool = ReturnType<ToolHelper>;

/**
 * @param tools - the plugin's tools, in the port's terms.
 * @param tool - the `tool()` helper.
 * @returns the value of 1.x's `tool` hook.
 */
export function toV1Tools(tools: Record<string, PluginTool>, tool: ToolHelper): Record<string, V1Tool> {
  const z = tool.schema;
  const built: Record<string, V1Tool> = {};
  for (const [name, definition] of Object.entries(tools)) {
    const args = Object.fromEntries(
      Object.entries(definition.args).map(([key, arg]) => [key, arg.optional ? z.string().optional().describe(arg.description) : z.string().describe(arg.description)]),
    );
    built[name] = tool({
      description: definition.description,
      args,
      execute: (input, context) =>
        definition.execute(input as Record<string, unknown>, { sessionID: context.sessionID, agent: context.agent, messageID: context.messageID, callID: (context as { callID?: string }).callID }),
    });
  }
  return built;
}
