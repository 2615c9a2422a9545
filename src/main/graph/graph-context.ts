/**
 * Knowledge-graph context from BuildContext: parsed, judged (empty, failed,
 * no relations, weak), fetched concurrently under one deadline, and fitted
 * to an exact token budget in the pool.
 */
import { performance } from 'node:perf_hooks';
import type { TaskRunner } from '../pool/task-runner.js';
import type { CliResult, MemoryStore } from '../memory/cli/maenifold-client.js';
import type { TokenEncoding } from '../../core/text/tokens.js';
import { normalizeMemoryConcept } from '../../core/memory/memory-markdown.js';

/** One related concept of a BuildContext answer. */
export interface Relation {
  name: string;
  /** Files in which both concepts appear. */
  cooccurrence: number;
  /** The `Files:` line's memory URIs (at most three). */
  files: string[];
}

/** Why a concept's context was left out. */
export type SkipReason = 'empty' | 'error' | 'no-relations' | 'weak' | 'timeout';

/** A concept's context, or why there is none. */
export type ConceptContext =
  | { concept: string; ok: true; text: string; relations: Relation[]; strongest: number }
  | { concept: string; ok: false; reason: SkipReason; detail?: string };

const HEADER = /^Context for CONCEPT:/m;
const DIRECT = /^Direct relations \((\d+) CONCEPTS?\):/m;
const RELATION = /^\s*\u2022\s*(.+?)\s+\(co-occurs in (\d+) files?\)/;
const FILES = /^\s+Files:\s*(.*)$/;
// A memory URI as maenifold prints it: no space, no markup.
const MEMORY_URI = /^memory:\/\/[\p{L}\p{N}\p{M}._~\/-]{1,300}$/u;
// Characters that open or close markup (tags, code, links, tables) never reach a prompt from a stored name.
const MARKUP = /[<>`[\]{}|\\#*]/g;
const MAX_RELATIONS = 50;

/** Relations with a strongest co-occurrence at or below this are weak (NFR-12.1.3). */
export const WEAK_COOCCURRENCE = 2;

/**
 * Parses the Direct relations of a BuildContext answer.
 *
 * @param text - BuildContext's stdout.
 * @returns `null` when the text is not a BuildContext answer.
 */
export function parseBuildContext(text: string): { declared: number; relations: Relation[] } | null {
  if (!HEADER.test(text)) return null;
  const direct = DIRECT.exec(text);
  if (!direct) return { declared: 0, relations: [] };
  const relations: Relation[] = [];
  const rest = text.slice(direct.index + direct[0].length).split('\n');
  for (const line of rest) {
    // The direct list ends at the next section heading (Expanded relations, Community siblings), or at any line that is not of it.
    if (/^\S/.test(line) && line.trim() !== '') break;
    const match = RELATION.exec(line);
    if (match) {
      if (relations.length >= MAX_RELATIONS) break;
      const name = printableConcept(match[1] ?? '');
      if (name) relations.push({ name, cooccurrence: Number(match[2]), files: [] });
      continue;
    }
    const files = FILES.exec(line);
    const last = relations.at(-1);
    if (files && last && last.files.length === 0) {
      last.files = (files[1] ?? '').split(',').map((uri) => uri.trim()).filter((uri) => MEMORY_URI.test(uri)).slice(0, 3);
    }
  }
  return { declared: Number(direct[1]), relations };
}

/**
 * A concept name from the store as it may be printed into a prompt: one
 * line, no controls, bounded (maenifold's normalization made safe), and no
 * markup characters. Stored notes are data, never instructions.
 *
 * @param raw - a name as the store printed it.
 */
export function printableConcept(raw: string): string {
  return normalizeMemoryConcept(raw.replace(MARKUP, ' '));
}

/**
 * The text injected for one concept, rebuilt from what was parsed: only
 * lines of the known shapes, so nothing a note holds can close the block it
 * sits in, open another, or add a line of its own.
 *
 * @param concept - the concept asked for (already normalized).
 * @param relations - its direct relations.
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
 * Judges one BuildContext result.
 *
 * @param concept - the concept asked for.
 * @param result - the CLI result.
 */
export function judgeBuildContext(concept: string, result: CliResult<string>): ConceptContext {
  if (!result.ok) {
    return { concept, ok: false, reason: result.error.code === 'TIMEOUT' ? 'timeout' : 'error', detail: result.error.message };
  }
  const text = result.value.trim();
  if (text === '') return { concept, ok: false, reason: 'empty' };
  const parsed = parseBuildContext(text);
  if (!parsed) return { concept, ok: false, reason: 'error', detail: 'not a BuildContext answer' };
  if (parsed.declared === 0 || parsed.relations.length === 0) return { concept, ok: false, reason: 'no-relations' };
  const strongest = Math.max(...parsed.relations.map((relation) => relation.cooccurrence));
  if (strongest <= WEAK_COOCCURRENCE) return { concept, ok: false, reason: 'weak' };
  return { concept, ok: true, text: renderBuildContext(concept, parsed.relations), relations: parsed.relations, strongest };
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
}

/**
 * BuildContext for each concept, a few at a time, all within one deadline;
 * results in the order of `concepts`. Never throws.
 *
 * @param client - the maenifold client.
 * @param concepts - normalized concept names, most important first.
 * @param limits - see {@link FetchLimits}.
 */
export async function fetchConceptContexts(client: MemoryStore, concepts: readonly string[], limits: FetchLimits): Promise<ConceptContext[]> {
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
      const result = await client.callText(
        'BuildContext',
        { conceptName: concept, depth: limits.depth, maxEntities: limits.maxEntities },
        { timeoutMs: Math.min(limits.perCallTimeoutMs, left), signal: controller.signal },
      );
      results[index] = judgeBuildContext(concept, result);
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
