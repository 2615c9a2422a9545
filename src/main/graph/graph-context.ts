/**
 * Knowledge-graph context from the store's related concepts: judged (failed,
 * no relations, weak), fetched concurrently under one deadline, and fitted
 * to an exact token budget in the pool.
 */
import { performance } from 'node:perf_hooks';
import type { TaskRunner } from '../pool/task-runner.js';
import type { MemoryPort, MemoryResult, Relation } from '../memory/memory-port.js';
import type { TokenEncoding } from '../../core/text/tokens/token-encodings.js';
import { isPrintableUri, printableConcept } from '../../core/memory/memory-format.js';

export type { Relation } from '../memory/memory-port.js';

/** Why a concept's context was left out. */
export type SkipReason = 'error' | 'no-relations' | 'weak' | 'timeout';

/** A concept's context, or why there is none. */
export type ConceptContext =
  | { concept: string; ok: true; text: string; relations: Relation[]; strongest: number }
  | { concept: string; ok: false; reason: SkipReason; detail?: string };

/** Most relations printed for one concept. */
const MAX_RELATIONS = 50;

/** Relations with a strongest co-occurrence at or below this (seen together in one or two files) are weak: a concept with only weak relations is skipped. */
export const WEAK_COOCCURRENCE = 2;

/**
 * Relations as they may be printed: every name made printable (a relation
 * left without one is dropped), only printable URIs, three at most. Either
 * store's answer passes through here: stored notes are data.
 *
 * With `keepFile` (a memory scope), a file it refuses is left out and no
 * longer counts: the co-occurrence is lowered by the files refused, so the
 * weak-relation rule judges what the scope can reach, and a relation whose
 * every listed file is refused (it may be known only from outside the scope)
 * is dropped.
 *
 * @param relations - as the store gave them.
 * @param keepFile - the files the scope reaches; all when absent.
 */
export function printableRelations(relations: readonly Relation[], keepFile?: (uri: string) => boolean): Relation[] {
  const kept: Relation[] = [];
  for (const relation of relations) {
    if (kept.length >= MAX_RELATIONS) break;
    const name = printableConcept(relation.name);
    const counted = Number.isFinite(relation.cooccurrence) && relation.cooccurrence > 0 ? relation.cooccurrence : 0;
    const refused = keepFile ? relation.files.filter((uri) => !keepFile(uri)).length : 0;
    const files = relation.files.filter((uri) => isPrintableUri(uri) && (!keepFile || keepFile(uri))).slice(0, 3);
    if (keepFile && files.length === 0) continue;
    if (name) kept.push({ name, cooccurrence: Math.max(0, counted - refused), files });
  }
  return kept;
}

/**
 * The text injected for one concept, rebuilt from data: only lines of the
 * known shapes, so nothing a note holds can close the block it sits in,
 * open another, or add a line of its own.
 *
 * @param concept - the concept asked for (already normalized).
 * @param relations - its direct relations, printable ({@link printableRelations}).
 */
export function renderBuildContext(concept: string, relations: readonly Relation[]): string {
  const lines = [`Context for CONCEPT: ${printableConcept(concept)}`, '', `Direct relations (${relations.length} CONCEPTS):`];
  for (const relation of relations) {
    lines.push(`  \u2022 ${relation.name} (co-occurs in ${relation.cooccurrence} files)`);
    if (relation.files.length > 0) lines.push(`    Files: ${relation.files.join(', ')}`);
  }
  return lines.join('\n');
}

/**
 * Judges one concept's relations.
 *
 * @param concept - the concept asked for.
 * @param result - the store's answer.
 */
export function judgeRelations(concept: string, result: MemoryResult<readonly Relation[]>, keepFile?: (uri: string) => boolean): ConceptContext {
  if (!result.ok) {
    return { concept, ok: false, reason: result.error.code === 'TIMEOUT' ? 'timeout' : 'error', detail: result.error.message };
  }
  const relations = printableRelations(result.value, keepFile);
  if (relations.length === 0) return { concept, ok: false, reason: 'no-relations' };
  const strongest = Math.max(...relations.map((relation) => relation.cooccurrence));
  if (strongest <= WEAK_COOCCURRENCE) return { concept, ok: false, reason: 'weak' };
  return { concept, ok: true, text: renderBuildContext(concept, relations), relations, strongest };
}

/** Limits of {@link fetchConceptContexts}. */
export interface FetchLimits {
  depth: number;
  maxEntities: number;
  perCallTimeoutMs: number;
  totalTimeoutMs: number;
  /** CLI processes at once. @default 4 */
  concurrency?: number;
  signal?: AbortSignal;
  /** Only relations found in files this accepts (one project's memory); all when absent. */
  keepFile?: (uri: string) => boolean;
}

/**
 * Related concepts (BuildContext) for each concept, a few at a time, all within one deadline;
 * results in the order of `concepts`. Never throws.
 *
 * @param store - the memory store.
 * @param concepts - normalized concept names, most important first.
 * @param limits - see {@link FetchLimits}.
 */
export async function fetchConceptContexts(store: MemoryPort, concepts: readonly string[], limits: FetchLimits): Promise<ConceptContext[]> {
  const start = performance.now();
  const controller = new AbortController();
  const onAbort = (): void => controller.abort();
  limits.signal?.addEventListener('abort', onAbort, { once: true });
  const total = setTimeout(() => controller.abort(), limits.totalTimeoutMs);
  total.unref?.();
  const results: ConceptContext[] = new Array(concepts.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < concepts.length) {
      const index = next++;
      const concept = concepts[index] as string;
      const left = limits.totalTimeoutMs - (performance.now() - start);
      if (controller.signal.aborted || left <= 0) {
        results[index] = { concept, ok: false, reason: 'timeout' };
        continue;
      }
      const result = await store.related(
        { concept, depth: limits.depth, maxEntities: limits.maxEntities },
        { timeoutMs: Math.min(limits.perCallTimeoutMs, left), signal: controller.signal },
      );
      results[index] = judgeRelations(concept, result, limits.keepFile);
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.max(1, Math.min(limits.concurrency ?? 4, concepts.length)) }, worker));
  } finally {
    clearTimeout(total);
    limits.signal?.removeEventListener('abort', onAbort);
  }
  return results;
}

/** A fitted context block, ready to append. */
export interface FittedContext {
  text: string;
  tokens: number;
  concepts: string[];
}

/**
 * Fits the usable contexts under `heading` into the budget (in the pool).
 *
 * @returns `null` when nothing usable fits or the pool cannot serve.
 */
export async function fitConceptContexts(
  runner: TaskRunner,
  contexts: readonly ConceptContext[],
  budget: { heading: string; entryTokens: number; totalTokens: number; encoding: TokenEncoding; signal?: AbortSignal },
): Promise<{ ok: true; value: FittedContext | null } | { ok: false; message: string }> {
  const usable = contexts.filter((context): context is Extract<ConceptContext, { ok: true }> => context.ok);
  if (usable.length === 0) return { ok: true, value: null };
  const fitted = await runner.run(
    'fitContext',
    {
      heading: budget.heading,
      entries: usable.map((context) => context.text),
      entryBudget: budget.entryTokens,
      totalBudget: budget.totalTokens,
      encoding: budget.encoding,
    },
    budget.signal ? { signal: budget.signal } : {},
  );
  if (!fitted.ok) return { ok: false, message: `${fitted.error.code}: ${fitted.error.message}` };
  if (fitted.value.included === 0) return { ok: true, value: null };
  return {
    ok: true,
    value: { text: fitted.value.text, tokens: fitted.value.tokens, concepts: usable.slice(0, fitted.value.included).map((context) => context.concept) },
  };
}
