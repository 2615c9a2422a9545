/**
 * The shape each task's input must have, checked where it arrives in the
 * worker. Shallow on purpose: a batch of a 10 MB session is checked for its
 * lists and settings, not walked item by item; the stages read every field
 * defensively. A refusal names the first field that is wrong.
 */
import * as v from 'valibot';

const nonEmpty = v.pipe(v.string(), v.minLength(1));
const list = v.array(v.unknown());
const settings = v.looseObject({});

/** A memory URI under the memory folder: no step out of it. */
const memoryUri = v.pipe(
  v.string(),
  v.startsWith('memory://'),
  v.check((uri) => !uri.split('/').includes('..'), 'a memory URI without ".." segments'),
);

/** Input schemas by task. */
export const TASK_INPUTS = {
  analyzeUnits: v.looseObject({ units: list, settings }),
  finalizeExtraction: v.looseObject({ sections: list, decisions: list, files: list, signals: list, notes: list, terms: list, settings }),
  fitContext: v.looseObject({
    heading: v.string(),
    entries: v.array(v.string()),
    entryBudget: v.number(),
    totalBudget: v.number(),
    encoding: v.picklist(['o200k_base', 'cl100k_base']),
    separator: v.optional(v.string()),
  }),
  scanMemoryFolder: v.looseObject({ memoryDir: nonEmpty }),
  indexMemoryFiles: v.looseObject({ memoryDir: nonEmpty, uris: v.array(memoryUri) }),
  loadMemoryIndex: v.looseObject({ file: nonEmpty, memoryDir: nonEmpty }),
  searchMemoryIndex: v.looseObject({ entries: list, query: v.string(), pageSize: v.pipe(v.number(), v.integer()) }),
  summaryThought: v.looseObject({ project: v.string(), sessionID: v.string(), summary: v.string(), maxChars: v.pipe(v.number(), v.integer(), v.minValue(1)) }),
  summaryLists: v.looseObject({ summary: v.string(), note: v.nullable(v.looseObject({ uri: v.string(), content: v.string() })) }),
  cleanSummary: v.looseObject({ summary: v.string(), maxChars: v.pipe(v.number(), v.integer(), v.minValue(1)) }),
  projectMemory: v.looseObject({
    project: v.string(),
    notes: v.array(v.looseObject({ uri: v.string(), content: v.string() })),
    digest: v.optional(v.nullable(v.looseObject({ uri: v.string(), content: v.string() }))),
    now: v.optional(v.number()),
    summary: v.nullable(v.looseObject({ text: v.string(), at: v.string() })),
    totalBudget: v.pipe(v.number(), v.integer(), v.minValue(0)),
    summaryBudget: v.pipe(v.number(), v.integer(), v.minValue(0)),
    encoding: v.picklist(['o200k_base', 'cl100k_base']),
  }),
  digestPass: v.looseObject({
    digest: v.string(),
    concept: v.string(),
    key: v.string(),
    notes: v.array(v.looseObject({ uri: v.string(), content: v.string() })),
    now: v.number(),
    forget: v.optional(v.string()),
  }),
  warmUp: v.looseObject({ rounds: v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(1_000)) }),
} as const;

/** A schema of {@link TASK_INPUTS}. */
export type TaskInputSchema = (typeof TASK_INPUTS)[keyof typeof TASK_INPUTS];

/**
 * Why an input does not fit its schema, in one line (`units: expected Array, got string`), or `null` when it fits.
 *
 * @param schema - the task's input schema.
 * @param input - what the task received.
 */
export function inputProblem(schema: TaskInputSchema, input: unknown): string | null {
  const result = v.safeParse(schema, input, { abortEarly: true });
  if (result.success) return null;
  const issue = result.issues[0];
  const key = v.getDotPath(issue) ?? 'input';
  return `${key}: expected ${issue.expected ?? issue.message}, got ${issue.received}`.slice(0, 300);
}
