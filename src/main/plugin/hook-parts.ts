/**
 * Hooks made of several feature handlers (session start, rules and frames in
 * the system transform; compaction and frames in the compacting hook, …).
 * Each handler has its own deadline, but run one after the other they would
 * hold the host for the sum of them. Here the parts run in order within ONE
 * budget: each gets what is left of it, and the hook returns when it runs out.
 *
 * What the host sees: each part works on a scratch copy of `output`, and its
 * changes are applied to the host's `output` only when the part finished in
 * time. A part cut off by the budget goes on in the background with its copy,
 * so nothing it does later can reach an `output` the host already moved on
 * with, and the parts after it are not started (they would build on a state
 * the cut part never finished).
 */
import { errorText, type Logger } from '../shared/logger.js';

/** One feature handler of a composite hook. */
export interface HookPart<I, O> {
  /** Named in the log line when the part is cut off. */
  name: string;
  /** The handler; it gets a scratch copy of the hook's output. */
  run(input: I, output: O): Promise<void> | void;
}

/** How a hook's output is copied for a part, and a finished part's copy applied. */
export interface OutputScratch<O> {
  /** A copy the part may change freely. */
  copy(output: O): O;
  /** Brings the host's `output` to what the part left in `scratch`, in place (the host keeps its references). */
  apply(scratch: O, output: O): void;
}

/** What became of a composite hook's parts (the tests read it; the hook logs it). */
export type PartsOutcome =
  | { state: 'finished'; finished: string[]; failed: string[] }
  | { state: 'cut'; finished: string[]; failed: string[]; cut: string; started: boolean; skipped: string[] };

/** Settings of {@link runPartsWithin}. */
export interface PartsSettings<O> {
  /** The host's name of the hook, for the log line. */
  hook: string;
  /** The one budget of the whole hook, in ms. */
  budgetMs: number;
  logger: Logger;
  scratch: OutputScratch<O>;
}

/**
 * Runs `parts` in order, each within what is left of one budget. Never
 * throws: a part that throws is logged, its changes are dropped, and the next
 * part runs. When the budget runs out, one line names the hook and the part
 * that was cut, and the hook returns.
 *
 * @param input - the hook's input, passed to every part.
 * @param output - the host's output; changed only by parts that finished in time.
 * @param parts - the handlers, in the order their changes must be applied.
 * @param settings - see {@link PartsSettings}.
 */
export async function runPartsWithin<I, O>(input: I, output: O, parts: readonly HookPart<I, O>[], settings: PartsSettings<O>): Promise<PartsOutcome> {
  const { hook, budgetMs, logger, scratch } = settings;
  const finished: string[] = [];
  const failed: string[] = [];
  // One timer for the whole hook: every part races the same end, so the sum can never exceed it.
  let expired = false;
  let timer: NodeJS.Timeout | undefined;
  const end = new Promise<'expired'>((resolve) => {
    timer = setTimeout(() => {
      expired = true;
      resolve('expired');
    }, budgetMs);
    timer.unref?.();
  });
  const cutOff = (index: number, started: boolean): PartsOutcome => {
    const name = parts[index]?.name ?? '?';
    const skipped = parts.slice(index + 1).map((later) => later.name);
    logger.warn(
      `hook ${hook}: ${name} ${started ? 'did not finish' : 'had no time left'} within the hook's ${budgetMs} ms${started ? '; its changes were dropped' : ''}${skipped.length > 0 ? `; skipped ${skipped.join(', ')}` : ''}`,
    );
    return { state: 'cut', finished, failed, cut: name, started, skipped };
  };
  try {
    for (const [index, part] of parts.entries()) {
      if (expired) return cutOff(index, false);
      let copy: O;
      try {
        copy = scratch.copy(output);
      } catch (error) {
        failed.push(part.name);
        logger.error(`hook ${hook}: ${part.name} skipped, its output could not be copied: ${errorText(error)}`);
        continue;
      }
      const running = Promise.resolve()
        .then(() => part.run(input, copy))
        .then(
          () => ({ ok: true }) as const,
          (error: unknown) => ({ ok: false, error }) as const,
        );
      const outcome = await Promise.race([running, end]);
      if (outcome === 'expired') return cutOff(index, true);
      if (!outcome.ok) {
        failed.push(part.name);
        logger.error(`hook ${hook}: ${part.name} failed, its changes were dropped: ${errorText(outcome.error)}`);
        continue;
      }
      try {
        scratch.apply(copy, output);
        finished.push(part.name);
      } catch (error) {
        failed.push(part.name);
        logger.error(`hook ${hook}: changes of ${part.name} could not be applied: ${errorText(error)}`);
      }
    }
    return { state: 'finished', finished, failed };
  } finally {
    clearTimeout(timer);
  }
}

/** Scratch for `experimental.chat.system.transform`: the parts append to `output.system`. */
export const SYSTEM_SCRATCH: OutputScratch<{ system: string[] }> = {
  copy: (output) => ({ ...output, system: Array.isArray(output?.system) ? [...output.system] : output?.system }),
  apply: (scratch, output) => replaceInPlace(output?.system, scratch.system),
};

/** Scratch for `experimental.session.compacting`: the parts push to `output.context` and may set `output.prompt`. */
export const COMPACTING_SCRATCH: OutputScratch<{ context: string[]; prompt?: string }> = {
  copy: (output) => ({ ...output, context: Array.isArray(output?.context) ? [...output.context] : output?.context }),
  apply: (scratch, output) => {
    replaceInPlace(output?.context, scratch.context);
    // Only a part that set the prompt sets it: an absent key stays absent.
    if (scratch.prompt !== output?.prompt && output) output.prompt = scratch.prompt;
  },
};

/** Scratch for `tool.execute.after`: the parts may change the result's `output` and `title`. */
export const TOOL_RESULT_SCRATCH: OutputScratch<{ title?: string; output: string; metadata?: unknown }> = {
  copy: (output) => ({ ...output }),
  apply: (scratch, output) => {
    if (!output) return;
    if (scratch.output !== output.output) output.output = scratch.output;
    if (scratch.title !== output.title) output.title = scratch.title;
  },
};

/**
 * Scratch for `tool.execute.before`: the parts change the call's arguments, which the host reads from
 * the `output.args` object it passed. The copy is shallow (parts set top-level arguments, such as a
 * task's `prompt`); a finished part's arguments are written back into the host's object.
 */
export const TOOL_ARGS_SCRATCH: OutputScratch<{ args: unknown }> = {
  copy: (output) => ({ ...output, args: isPlainRecord(output?.args) ? { ...output.args } : output?.args }),
  apply: (scratch, output) => {
    const target = output?.args;
    const source = scratch.args;
    if (!isPlainRecord(target) || !isPlainRecord(source) || target === source) return;
    for (const key of Object.keys(target)) if (!Object.hasOwn(source, key)) delete target[key];
    for (const [key, value] of Object.entries(source)) if (target[key] !== value) target[key] = value;
  },
};

/** Scratch for hooks without an output (`event`). */
export const NO_OUTPUT: OutputScratch<undefined> = { copy: () => undefined, apply: () => undefined };

function replaceInPlace(target: unknown, source: unknown): void {
  // The host reads the array it passed (reassigning it is ignored), so its contents are replaced.
  if (!Array.isArray(target) || !Array.isArray(source) || target === source) return;
  const items = [...(source as unknown[])];
  target.length = 0;
  for (const item of items) target.push(item);
}

function isPlainRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
