/**
 * Task augmentation: a subagent's prompt gets the graph context of the
 * concepts it links, appended under a "Graph Context" heading; with the
 * `project` memory scope, relations found only in another project's session
 * memory are left out (memory-scope.ts).
 */
import { fetchConceptContexts, fitConceptContexts, type ConceptContext, type FittedContext } from './graph-context.js';
import { linksOf } from './wikilink-ranking.js';
import { withDeadline } from '../shared/deadline.js';
import { errorText } from '../shared/logger.js';
import { forHook, type HandlerDeps } from '../shared/handler-deps.js';
import type { MemoryPort } from '../memory/memory-port.js';
import type { TaskRunner } from '../pool/task-runner.js';
import type { Project } from '../shared/project.js';
import { projectFilters, readChainSessions, type ScopeChains } from './memory-scope.js';

/** The heading of the appended block. */
export const TASK_CONTEXT_HEADING = '## Graph Context';

/** What the hook may spend beyond the context calls' own budget: fitting the block in the pool. */
export const TASK_FIT_RESERVE_MS = 2_000;

type ToolBefore = (input: { tool: string; sessionID?: string; callID?: string }, output: { args: unknown }) => Promise<void>;

/** The options task augmentation reads. */
export const TASK_AUGMENTATION_OPTIONS = ['taskContext', 'taskContextTokens', 'taskContextConceptTokens', 'memoryScope', 'contextTimeoutMs', 'contextTotalTimeoutMs'] as const;

/** What the handler uses of the plugin's shared parts. */
export interface TaskAugmentationDeps extends HandlerDeps<(typeof TASK_AUGMENTATION_OPTIONS)[number]> {
  /** The memory store: the maenifold CLI or the built-in file store. */
  memory: MemoryPort;
  runner: TaskRunner;
  /** The session's project: with the `project` memory scope, other projects' session memory relates no concept. */
  project: Project;
  chains: ScopeChains;
}

/**
 * @param context - the parts of the plugin it uses.
 */
export function createTaskAugmentation(context: TaskAugmentationDeps): ToolBefore {
  const { options, memory, runner, project, chains, logger } = forHook(context, 'task');

  async function buildBlock(concepts: string[], signal: AbortSignal): Promise<{ contexts: ConceptContext[]; fitted: Awaited<ReturnType<typeof fitConceptContexts>> }> {
    const wanted = Math.max(1, Math.floor(options.taskContextTokens / options.taskContextConceptTokens));
    let keepFile: ((uri: string) => boolean) | undefined;
    if (options.memoryScope === 'project') {
      const chain = await withDeadline(chains.get(project.key), options.contextTimeoutMs);
      keepFile = projectFilters(project, await readChainSessions(chains, project, chain.done ? chain.value : null, options.contextTimeoutMs)).file;
    }
    const contexts = await fetchConceptContexts(memory, concepts.slice(0, wanted * 2), {
      depth: 1,
      maxEntities: 5,
      perCallTimeoutMs: options.contextTimeoutMs,
      totalTimeoutMs: options.contextTotalTimeoutMs,
      signal,
      ...(keepFile ? { keepFile } : {}),
    });
    const fitted = await fitConceptContexts(runner, contexts, {
      heading: TASK_CONTEXT_HEADING,
      entryTokens: options.taskContextConceptTokens,
      totalTokens: options.taskContextTokens,
      encoding: 'o200k_base',
      signal,
    });
    return { contexts, fitted };
  }

  return async (input, output) => {
    try {
      if (!options.taskContext || input?.tool !== 'task' || !memory.available) return;
      const args = output?.args as { prompt?: unknown } | undefined;
      if (!args || typeof args.prompt !== 'string') return;
      const concepts = linksOf(args.prompt);
      if (concepts.length === 0) return;
      // One deadline for the whole hook: the subagent waits for it, whatever the CLI or the pool do.
      const deadlineMs = options.contextTotalTimeoutMs + TASK_FIT_RESERVE_MS;
      const controller = new AbortController();
      const built = await withDeadline(buildBlock(concepts, controller.signal), deadlineMs, controller);
      if (!built.done) {
        const why = built.reason === 'timeout' ? `not ready within ${deadlineMs} ms` : `failed: ${errorText(built.error)}`;
        logger.warn(`task context: ${why}; prompt left as it was`);
        return;
      }
      const { contexts, fitted } = built.value;
      const skipped = contexts.filter((entry) => !entry.ok).map((entry) => `${entry.concept} (${entry.ok ? '' : entry.reason})`);
      if (!fitted.ok) {
        logger.warn(`task context: budgeting failed, prompt left as it was: ${fitted.message}`);
        return;
      }
      if (!fitted.value) {
        logger.info(`task context: no usable concept among ${concepts.length}; skipped ${skipped.join(', ')}`);
        return;
      }
      append(args, fitted.value);
      logger.info(`task context: ${fitted.value.concepts.length} concepts, ${fitted.value.tokens} tokens appended (${fitted.value.concepts.join(', ')})`);
    } catch (error) {
      logger.error(`task context: hook failed, prompt left as it was: ${errorText(error)}`);
    }
  };
}

function append(args: { prompt?: unknown }, block: FittedContext): void {
  // Read again: another hook may have replaced the prompt while this one waited.
  if (typeof args.prompt !== 'string') return;
  args.prompt = `${args.prompt}\n\n---\n\n${block.text}`;
}
