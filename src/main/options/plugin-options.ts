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
import { resolvePoolOptions, type ResolvedPoolOptions } from './pool-options.js';
import type { OptionIssue } from './option-issues.js';
import { checkOptionValue, envName, flag, integer, oneOf, readVariable, text, type OptionSpec } from './option-kinds.js';

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
  /**
   * Part of that budget for the project's memory (its latest summary, open problems, next steps and
   * decisions), ahead of the graph context, which gets the rest. 0 turns the project memory off. @default 2500
   */
  sessionStartMemoryTokens: number;
  /**
   * Whose memory session start and task context read: `project` (the whole graph but other projects'
   * session memory: their notes, digests and summary chains) or `all` (everything under the memory
   * root). @default 'project'
   */
  memoryScope: 'project' | 'all';

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

/** The options the table holds; `stateDir` and `pool` are resolved apart. */
type TableKey = Exclude<keyof PluginOptions, 'pool' | 'stateDir'>;

/** Each option's kind and default, one row an option, so that the two never drift apart. */
const OPTIONS: { readonly [K in TableKey]: OptionSpec<PluginOptions[K]> } = {
  enabled: flag(true),
  cli: text(''),
  store: oneOf(['auto', 'maenifold', 'files'], 'auto'),
  project: text(''),
  sessionStart: flag(true),
  sessionStartTokens: integer(4_000, 100, 100_000),
  sessionStartConceptTokens: integer(500, 50, 100_000),
  sessionStartMemoryTokens: integer(2_500, 0, 100_000),
  memoryScope: oneOf(['project', 'all'], 'project'),
  taskContext: flag(true),
  taskContextTokens: integer(8_000, 100, 100_000),
  taskContextConceptTokens: integer(1_000, 50, 100_000),
  compaction: flag(true),
  compactionTokens: integer(500, 50, 20_000),
  compactionDeadlineMs: integer(15_000, 100, 600_000),
  compactionStrategy: oneOf(['conservative', 'aggressive'], 'conservative'),
  minConversationChars: integer(100, 0, 10_000_000),
  summaries: flag(true),
  summaryMaxChars: integer(32_000, 1_000, 32_000),
  confession: flag(true),
  confessionAttempts: integer(3, 1, 10),
  confessionPrompt: text(''),
  rules: flag(true),
  rulesMaxChars: integer(16_000, 500, 200_000),
  workingSetPaths: integer(20, 0, 200),
  frames: flag(true),
  frameAncestorTokens: integer(400, 100, 20_000),
  frameCurrentTokens: integer(400, 100, 20_000),
  frameSiblingTokens: integer(2_000, 100, 50_000),
  framePrompt: flag(false),
  contextTimeoutMs: integer(5_000, 100, 120_000),
  contextTotalTimeoutMs: integer(10_000, 100, 300_000),
  persistTimeoutMs: integer(30_000, 100, 600_000),
};

const ROWS = Object.entries(OPTIONS) as [TableKey, OptionSpec<unknown>][];

function defaultStateDir(env: NodeJS.ProcessEnv): string {
  const base = env['XDG_STATE_HOME'] || join(env['HOME'] || homedir(), '.local', 'state');
  return join(base, 'opencode-maenifold');
}

/** The defaults, for documentation and tests. */
export const DEFAULT_PLUGIN_OPTIONS: Readonly<Omit<PluginOptions, 'pool' | 'stateDir'>> = Object.freeze(
  Object.fromEntries(ROWS.map(([key, spec]) => [key, spec.default])) as Omit<PluginOptions, 'pool' | 'stateDir'>,
);

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
  const known = new Set<string>([...Object.keys(OPTIONS), 'pool', 'stateDir']);
  for (const key of Object.keys(input)) {
    if (!known.has(key)) issues.push({ key, expected: 'a known option (see the README)', actual: input[key] });
  }
  const resolved: Record<string, unknown> = { ...DEFAULT_PLUGIN_OPTIONS };
  for (const [key, { kind }] of ROWS) {
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
