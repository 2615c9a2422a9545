/**
 * The plugin's options: from the `[spec, options]` tuple in `opencode.json`
 * and from `MAENIFOLD_*` environment variables, validated once per key: a
 * valid variable wins, else a valid tuple value, else the default. A bad value
 * is reported with its key, what was expected and the value used instead, also
 * when a valid variable overrides it: a typo in a config file or the
 * environment never stops a session, and never hides behind another source.
 */
import { homedir } from 'node:os';
import { join } from 'node:path';
import { resolvePoolOptions, type OptionIssue, type ResolvedPoolOptions } from '../pool/pool-options.js';
import { checkOptionValue, envName, readVariable, type OptionKind } from './option-kinds.js';

/** Every option after defaults and validation. */
export interface PluginOptions {
  /** Master switch. @default true */
  enabled: boolean;
  /** Path of the maenifold CLI; empty means: `$MAENIFOLD_CLI`, PATH, then `~/maenifold/bin/maenifold`. @default '' */
  cli: string;
  /**
   * Where memory is kept: `maenifold` (the CLI), `files` (the built-in store, maenifold's own file
   * layout under `$MAENIFOLD_ROOT/memory`), or `auto` (the CLI when found, else files). @default 'auto'
   */
  store: 'auto' | 'maenifold' | 'files';
  /** Project name used for searches, tags and the summary chain; empty means the worktree's folder name. @default '' */
  project: string;
  /** Where the plugin keeps its own state (summary chains). @default $XDG_STATE_HOME/opencode-maenifold */
  stateDir: string;

  /** Inject knowledge-graph context into each session's system prompt. @default true */
  sessionStart: boolean;
  /** Token budget of that context. @default 4000 */
  sessionStartTokens: number;
  /** Token budget of one concept's entry in it. @default 500 */
  sessionStartConceptTokens: number;

  /** Append graph context to subagent task prompts. @default true */
  taskContext: boolean;
  /** Token budget of the task context. @default 8000 */
  taskContextTokens: number;
  /** Token budget of one concept's entry in it. @default 1000 */
  taskContextConceptTokens: number;

  /** Steer and enrich compactions and write a compaction note. @default true */
  compaction: boolean;
  /** Exact token budget of the preservation context. @default 500 */
  compactionTokens: number;
  /** How long the compacting hook may hold the compaction, in ms. @default 15000 */
  compactionDeadlineMs: number;
  /** `conservative` keeps decisions and problems; `aggressive` drops by score alone. @default 'conservative' */
  compactionStrategy: 'conservative' | 'aggressive';
  /** Conversations shorter than this (characters) are not extracted. @default 100 */
  minConversationChars: number;

  /** Persist each compaction summary to a per-project thinking chain. @default true */
  summaries: boolean;
  /** Cap on a persisted summary, in characters. @default 32000 */
  summaryMaxChars: number;

  /** Ask subagents for a ConfessionReport when their result lacks one. @default true */
  confession: boolean;
  /** Attempts before giving up on a confession. @default 3 */
  confessionAttempts: number;
  /** Replaces the built-in confession demand; empty keeps it. @default '' */
  confessionPrompt: string;

  /** Append the project's rules (`.opencode/rules`, `~/.config/opencode/rules`) to the system text. @default true */
  rules: boolean;
  /** Cap on the injected rules, in characters. @default 16000 */
  rulesMaxChars: number;
  /** Working-set paths named in a compaction. @default 20 */
  workingSetPaths: number;

  /** Goal frames: the flame_* tools, frame-aware compaction and frame context. @default true */
  frames: boolean;
  /** Exact token budget of the ancestors' goals in a frame's system text. @default 400 */
  frameAncestorTokens: number;
  /** Exact token budget of the current frame's goal and status. @default 400 */
  frameCurrentTokens: number;
  /** Exact token budget of finished children's and siblings' summaries. @default 2000 */
  frameSiblingTokens: number;
  /** Set `output.prompt` to the frame instructions (and drop every plugin's context entries). @default false */
  framePrompt: boolean;

  /** Timeout of one context call to the CLI (BuildContext, searches), in ms. @default 5000 */
  contextTimeoutMs: number;
  /** Timeout of all context calls of one injection together, in ms. @default 10000 */
  contextTotalTimeoutMs: number;
  /** Timeout of one persistence call (WriteMemory, SequentialThinking), in ms. @default 30000 */
  persistTimeoutMs: number;

  /** Worker pool options. */
  pool: ResolvedPoolOptions;
}

const SPECS: Readonly<Record<Exclude<keyof PluginOptions, 'pool' | 'stateDir'>, OptionKind>> = {
  enabled: { type: 'boolean' },
  cli: { type: 'string' },
  store: { type: 'enum', values: ['auto', 'maenifold', 'files'] },
  project: { type: 'string' },
  sessionStart: { type: 'boolean' },
  sessionStartTokens: { type: 'integer', min: 100, max: 100_000 },
  sessionStartConceptTokens: { type: 'integer', min: 50, max: 100_000 },
  taskContext: { type: 'boolean' },
  taskContextTokens: { type: 'integer', min: 100, max: 100_000 },
  taskContextConceptTokens: { type: 'integer', min: 50, max: 100_000 },
  compaction: { type: 'boolean' },
  compactionTokens: { type: 'integer', min: 50, max: 20_000 },
  compactionDeadlineMs: { type: 'integer', min: 100, max: 600_000 },
  compactionStrategy: { type: 'enum', values: ['conservative', 'aggressive'] },
  minConversationChars: { type: 'integer', min: 0, max: 10_000_000 },
  summaries: { type: 'boolean' },
  summaryMaxChars: { type: 'integer', min: 1_000, max: 32_000 },
  confession: { type: 'boolean' },
  confessionAttempts: { type: 'integer', min: 1, max: 10 },
  confessionPrompt: { type: 'string' },
  rules: { type: 'boolean' },
  rulesMaxChars: { type: 'integer', min: 500, max: 200_000 },
  workingSetPaths: { type: 'integer', min: 0, max: 200 },
  frames: { type: 'boolean' },
  frameAncestorTokens: { type: 'integer', min: 100, max: 20_000 },
  frameCurrentTokens: { type: 'integer', min: 100, max: 20_000 },
  frameSiblingTokens: { type: 'integer', min: 100, max: 50_000 },
  framePrompt: { type: 'boolean' },
  contextTimeoutMs: { type: 'integer', min: 100, max: 120_000 },
  contextTotalTimeoutMs: { type: 'integer', min: 100, max: 300_000 },
  persistTimeoutMs: { type: 'integer', min: 100, max: 600_000 },
};

function defaultStateDir(env: NodeJS.ProcessEnv): string {
  const base = env['XDG_STATE_HOME'] || join(env['HOME'] || homedir(), '.local', 'state');
  return join(base, 'opencode-maenifold');
}

/** The defaults, for documentation and tests. */
export const DEFAULT_PLUGIN_OPTIONS: Readonly<Omit<PluginOptions, 'pool' | 'stateDir'>> = Object.freeze({
  enabled: true,
  cli: '',
  store: 'auto',
  project: '',
  sessionStart: true,
  sessionStartTokens: 4_000,
  sessionStartConceptTokens: 500,
  taskContext: true,
  taskContextTokens: 8_000,
  taskContextConceptTokens: 1_000,
  compaction: true,
  compactionTokens: 500,
  compactionDeadlineMs: 15_000,
  compactionStrategy: 'conservative',
  minConversationChars: 100,
  summaries: true,
  summaryMaxChars: 32_000,
  confession: true,
  confessionAttempts: 3,
  confessionPrompt: '',
  rules: true,
  rulesMaxChars: 16_000,
  workingSetPaths: 20,
  frames: true,
  frameAncestorTokens: 400,
  frameCurrentTokens: 400,
  frameSiblingTokens: 2_000,
  framePrompt: false,
  contextTimeoutMs: 5_000,
  contextTotalTimeoutMs: 10_000,
  persistTimeoutMs: 30_000,
});

/**
 * Resolves options. Never throws.
 *
 * @param raw - the options object of the `[spec, options]` tuple (any shape).
 * @param env - the environment; `MAENIFOLD_*` variables override `raw`.
 */
export function resolvePluginOptions(raw: unknown, env: NodeJS.ProcessEnv = process.env): { options: PluginOptions; issues: OptionIssue[] } {
  const issues: OptionIssue[] = [];
  const input = typeof raw === 'object' && raw !== null && !Array.isArray(raw) ? (raw as Record<string, unknown>) : {};
  if (raw !== undefined && raw !== null && input !== raw) {
    issues.push({ key: 'options', expected: 'an object', actual: raw, used: { value: 'the defaults', from: 'the default' } });
  }
  const known = new Set<string>([...Object.keys(SPECS), 'pool', 'stateDir']);
  for (const key of Object.keys(input)) {
    if (!known.has(key)) issues.push({ key, expected: 'a known option (see the README)', actual: input[key] });
  }
  const resolved: Record<string, unknown> = { ...DEFAULT_PLUGIN_OPTIONS };
  for (const [key, kind] of Object.entries(SPECS) as [keyof typeof SPECS, OptionKind][]) {
    // MAENIFOLD_CLI is read where the CLI is looked up, so the log can say where it came from.
    const variable = envName(key);
    const fromVariable = key === 'cli' ? undefined : env[variable];
    const candidates: [string, unknown][] = [];
    if (fromVariable !== undefined && fromVariable !== '') candidates.push([variable, readVariable(fromVariable, kind)]);
    if (input[key] !== undefined) candidates.push([key, input[key]]);
    // Every source is checked, the overridden one too: a bad opencode.json value hidden by a
    // valid variable would come back, unannounced, once the variable is unset.
    const rejected: OptionIssue[] = [];
    let winner: [string, unknown] | undefined;
    for (const [source, value] of candidates) {
      const issue = checkOptionValue(source, value, kind);
      if (issue) rejected.push(issue);
      else winner ??= [source, value];
    }
    if (winner) resolved[key] = winner[1];
    const used = winner ? { value: winner[1], from: winner[0] === key ? 'opencode.json' : winner[0] } : { value: resolved[key], from: 'the default' };
    issues.push(...rejected.map((bad) => ({ ...bad, used })));
  }
  const stateDirVariable = env['MAENIFOLD_STATE_DIR'];
  const stateDir = input['stateDir'];
  resolved['stateDir'] = stateDirVariable || (typeof stateDir === 'string' && stateDir ? stateDir : defaultStateDir(env));
  if (stateDir !== undefined && typeof stateDir !== 'string') {
    const from = stateDirVariable ? 'MAENIFOLD_STATE_DIR' : 'the default';
    issues.push({ key: 'stateDir', expected: 'a path', actual: stateDir, used: { value: resolved['stateDir'], from } });
  }
  const pool = resolvePoolOptions(input['pool']);
  issues.push(...pool.issues);
  resolved['pool'] = pool.options;
  return { options: resolved as unknown as PluginOptions, issues };
}
