/**
 * The `tool()` helper of `@opencode-ai/plugin`, found at run time. The package
 * is an optional peer: an installed plugin may not have it beside itself, but
 * OpenCode installs it into every `.opencode/` folder it loads (the project's
 * and the global config's), so it is looked for there too.
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { tool as toolHelper } from '@opencode-ai/plugin';

/** The helper: `tool({ description, args, execute })`, with `tool.schema` (zod). */
export type ToolHelper = typeof toolHelper;

function isHelper(value: unknown): value is ToolHelper {
  return typeof value === 'function' && typeof (value as { schema?: { string?: unknown } }).schema?.string === 'function';
}

/**
 * Where to look, in order, besides the plugin's own dependencies.
 *
 * @param folders - the project's directory and worktree.
 * @param env - for `$XDG_CONFIG_HOME` and `$HOME`.
 */
export function toolHelperCandidates(folders: readonly string[], env: NodeJS.ProcessEnv): string[] {
  const config = env['XDG_CONFIG_HOME'] || (env['HOME'] ? join(env['HOME'], '.config') : '');
  const roots = [...folders.map((folder) => join(folder, '.opencode')), ...(config ? [join(config, 'opencode')] : [])];
  return [...new Set(roots)].map((root) => join(root, 'node_modules', '@opencode-ai', 'plugin', 'dist', 'tool.js'));
}

/**
 * @param folders - the project's directory and worktree.
 * @param env - the environment.
 * @returns the helper and where it was found, or the places tried.
 */
export async function loadToolHelper(folders: readonly string[], env: NodeJS.ProcessEnv): Promise<{ ok: true; tool: ToolHelper; from: string } | { ok: false; tried: string[] }> {
  const tried = ['@opencode-ai/plugin'];
  try {
    const own = (await import('@opencode-ai/plugin/tool')) as { tool?: unknown };
    if (isHelper(own.tool)) return { ok: true, tool: own.tool, from: '@opencode-ai/plugin' };
  } catch {
    // Not beside the plugin: try OpenCode's own installs.
  }
  for (const candidate of toolHelperCandidates(folders, env)) {
    tried.push(candidate);
    try {
      const found = (await import(pathToFileURL(candidate).href)) as { tool?: unknown };
      if (isHelper(found.tool)) return { ok: true, tool: found.tool, from: candidate };
    } catch {
      // Missing or unloadable: the next place.
    }
  }
  return { ok: false, tried };
}
