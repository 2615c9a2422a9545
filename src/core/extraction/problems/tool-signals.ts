/**
 * Problems, warnings and clean runs that tool calls report: the typed
 * observations (observations.ts) that are not decisions, concepts or files.
 *
 * Only output that is machine output is read for them — a shell command's —
 * since what `read`, `grep` or `webfetch` return is file or page content,
 * where "error" is just a word. A failed call of any tool is a problem,
 * unless it is one of the routine retries an agent makes on its own edits.
 */
import type { Observation, ObservationType } from '../observations.js';
import { readOutput } from './problems.js';
import { capChars } from '../../text/char-cap.js';
import { commandKey } from '../shell/command-key.js';
import { compactMessage } from './output-lines.js';
import { HUNG_PREFIX } from './line-readers.js';
import { diagnosticsSource, readDiagnostics, reportedDiagnostics } from './lsp-diagnostics.js';

/** How many signals one tool output may yield. */
const MAX_SIGNALS_PER_OUTPUT = 8;
/** Longest signal line. */
const MAX_SIGNAL_CHARS = 200;
/** Id prefix of a clean-run marker: it resolves earlier problems of the same command and is never shown itself. */
export const CLEAN_RUN_PREFIX = 'run:';

/** A tool whose output is a command's output. */
const SHELL_TOOL = /bash|shell|terminal|powershell|^cmd$|exec|run_command/i;
/** A tool that changes one file, after which the host reports that file's compiler errors. */
const FILE_EDIT_TOOL = /(?:^|[_.:-])(?:edit|write|multiedit|str_replace\w*)$/i;

/**
 * Failures of a tool call that are the host enforcing its own protocol on an edit, not a problem of the
 * project: the agent re-reads and retries, and nothing about the code is learned from them.
 */
const ROUTINE_FAILURE = /must read (?:the )?file .*before|has been modified since (?:it was )?last read|Could not find oldString|oldString (?:not found|must be different)|Found multiple matches for oldString|apply_patch verification failed|Failed to find expected lines/i;

/**
 * Failures an agent recovers from by calling the same tool again: arguments the tool's schema rejected, a
 * guessed path that does not exist. When a later call of that tool succeeds they were routine, not a
 * problem of the session.
 */
const RETRIED_FAILURE = /invalid arguments|invalid input|schema ?error|validation error|expected \S+, received|required (?:property|parameter|field)|not found|no such file|does not exist|ENOENT|is a directory|not a directory/i;
/** Source prefix of a failure a later call of the same tool settles (see {@link resolveByLaterRuns}). */
const RETRY_PREFIX = 'retry:';
/** Characters of a command a problem names it by. */
const MAX_NAMED_COMMAND_CHARS = 80;

/** A command's key as a problem names it: its first words, at most {@link MAX_NAMED_COMMAND_CHARS} characters (its program and first arguments say what ran). */
function shortCommand(key: string): string {
  if (key.length <= MAX_NAMED_COMMAND_CHARS) return key;
  const cut = key.lastIndexOf(' ', MAX_NAMED_COMMAND_CHARS);
  return key.slice(0, cut > 0 ? cut : MAX_NAMED_COMMAND_CHARS);
}

const lowercaseKey = (text: string): string => text.toLowerCase().replace(/\d+/g, '#').replace(/\s+/g, ' ').slice(0, 160);

/**
 * A call the user ended: a question dismissed instead of answered (the user usually says what to do next in the
 * following message), or a call still running when its turn was interrupted (OpenCode marks it with this error).
 * The call ends as an error, but nothing in the project failed.
 */
const USER_ENDED = /^\s*(?:Error:\s*)?(?:The user dismissed (?:this|the) question|Tool execution aborted\b)/i;

/** A tool call as the signal reader needs it. */
export interface ToolCallSignalsInput {
  tool: string;
  /** Arguments as `pathArguments` kept them (the shell `command` among them). */
  input: Record<string, unknown>;
  /** The bounded, sanitized output (or error text when the call failed). */
  output: string;
  failed: boolean;
  order: number;
}

/**
 * Observations signalled by one tool call.
 *
 * A shell command's output is read by `readOutput`: each problem becomes a `problem` or `warning`
 * whose `source` is the command's key, and a run with no problem yields a clean-run marker (id
 * {@link CLEAN_RUN_PREFIX}…, type `success`) the final pass uses to resolve earlier failures of the
 * same command. A failed call of any tool yields a `problem` from its error's first lines.
 */
export function signalsFromToolCall(call: ToolCallSignalsInput): Observation[] {
  const { tool, input, output, failed, order } = call;
  const signals: Observation[] = [];
  const command = typeof input['command'] === 'string' && SHELL_TOOL.test(tool) ? input['command'] : null;
  const source = command === null ? undefined : commandKey(command) || undefined;
  const push = (type: ObservationType, raw: string, key: string, from = source): void => {
    // Cut whole characters only: half of a surrogate pair must never reach a prompt or a note.
    const text = capChars(raw.replace(/\s+/g, ' ').trim(), MAX_SIGNAL_CHARS);
    const id = `${type}:${key}`;
    if (text.length === 0 || signals.some((signal) => signal.id === id) || signals.length >= MAX_SIGNALS_PER_OUTPUT) return;
    signals.push({ id, type, text, order, frequency: 1, topics: [tool], ...(from ? { source: from } : {}) });
  };
  const head = failed ? capChars(output, 600) : '';
  if (failed && !ROUTINE_FAILURE.test(output.slice(0, 2_000)) && !USER_ENDED.test(output.slice(0, 200))) {
    // The first lines of the error, joined: schema errors and permission refusals say what in their second line.
    const lines = head.split('\n', 3).join(' ');
    const retried = command === null && !SHELL_TOOL.test(tool) && RETRIED_FAILURE.test(head) ? `${RETRY_PREFIX}${tool}` : source;
    push('problem', `${tool} failed: ${lines}`, lowercaseKey(`${tool} ${lines}`), retried);
  }
  if (command === null) {
    if (failed) return signals;
    signals.push(...diagnosticSignals(tool, input, output, order));
    // A call that worked settles the failures of the same tool that came before it in the conversation.
    if (!SHELL_TOOL.test(tool)) signals.push({ id: `${CLEAN_RUN_PREFIX}${RETRY_PREFIX}${tool}`, type: 'success', text: `${tool} worked`, order, frequency: 1, topics: [tool], source: `${RETRY_PREFIX}${tool}` });
    return signals;
  }
  const reading = readOutput(output, { max: MAX_SIGNALS_PER_OUTPUT });
  for (const problem of reading.problems) {
    // "hung: terminated after …" alone says nothing of what hung: the command does, and keeps two hangs apart.
    const hung = source && problem.text.startsWith(HUNG_PREFIX) ? `${HUNG_PREFIX}\`${shortCommand(source)}\` ${problem.text.slice(HUNG_PREFIX.length)}` : null;
    push(problem.type, hung ?? problem.text, hung ? lowercaseKey(hung) : problem.key);
  }
  if (!failed && !reading.failed && source) {
    signals.push({ id: `${CLEAN_RUN_PREFIX}${source}`, type: 'success', text: reading.success ?? `\`${source}\` ran clean`, order, frequency: 1, topics: [tool], source });
  }
  return signals;
}

/**
 * The compiler errors the host appended to a file tool's output (see lsp-diagnostics.ts): a `problem`
 * per error of the file the call changed, a `warning` for the first error of each other file, both
 * sourced by their file; and, when the call edited one file and no block names it, a clean-run
 * marker that settles that file's earlier errors.
 */
function diagnosticSignals(tool: string, input: Record<string, unknown>, output: string, order: number): Observation[] {
  const edited = input['filePath'] ?? input['file_path'] ?? input['path'];
  const diagnostics = reportedDiagnostics(readDiagnostics(output, typeof edited === 'string' ? edited : '')).slice(0, MAX_SIGNALS_PER_OUTPUT);
  const signals = diagnostics.map((diagnostic): Observation => {
    const type = diagnostic.current ? 'problem' : 'warning';
    const text = capChars(`${compactMessage(diagnostic.message.replace(/\s+/g, ' '))} (${diagnostic.file}:${diagnostic.line})`, MAX_SIGNAL_CHARS);
    return { id: `${type}:${diagnostic.key}`, type, text, order, frequency: 1, topics: [tool], source: diagnosticsSource(diagnostic.file) };
  });
  if (typeof edited === 'string' && FILE_EDIT_TOOL.test(tool)) {
    const source = diagnosticsSource(edited);
    // A block "in this file" is about the edited file whatever path form it uses.
    if (!signals.some((signal) => signal.type === 'problem')) {
      signals.push({ id: `${CLEAN_RUN_PREFIX}${source}`, type: 'success', text: `\`${edited}\` has no compiler errors`, order, frequency: 1, topics: [tool], source });
    }
  }
  return signals;
}

/**
 * Problems in a stack trace or compiler output a person pasted into a message: the strict reading
 * (tracebacks, qualified exceptions, compiler and test lines), never prose.
 *
 * @param text - the message's text, sanitized.
 * @param order - the message position.
 */
export function signalsFromPastedText(text: string, order: number): Observation[] {
  // Cheap gate: most messages have nothing that a trace or a compiler prints.
  if (!/Traceback \(most recent|\n\s+at |Exception|Error:|error TS\d|\.\w+:\d+:\d+|FAILED|--- FAIL|net::ERR_|Failed to load resource| [45]\d\d \(/.test(text)) return [];
  return readOutput(text, { max: 4, strict: true }).problems.map((problem): Observation => ({
    id: `${problem.type}:${problem.key}`,
    type: problem.type,
    text: capChars(problem.text, MAX_SIGNAL_CHARS),
    order,
    frequency: 1,
    topics: ['pasted'],
  }));
}

/**
 * Settles problems by later runs: a problem from a command is resolved when a later run of the same
 * command (or of a broader one: `npx vitest run` after `npx vitest run tests/a.test.ts`) came back clean.
 * A resolved problem is no longer an open problem, but it is not dropped either: it becomes a `warning`
 * ("resolved: …") — the type this project gives a pitfall already met, which a continuation must not
 * step into twice and which outranks a mere success when the budget is tight. A warning that stopped
 * appearing is kept the same way (a logged warning is often a caught bug). Clean-run markers never
 * reach the result.
 *
 * @param signals - merged signals (one per id), markers included.
 * @returns the signals without markers, resolved ones retyped.
 */
export function resolveByLaterRuns(signals: readonly Observation[]): Observation[] {
  const cleanRuns = new Map<string, number>();
  for (const signal of signals) {
    if (!signal.id.startsWith(CLEAN_RUN_PREFIX) || !signal.source) continue;
    cleanRuns.set(signal.source, Math.max(cleanRuns.get(signal.source) ?? -Infinity, signal.order));
  }
  const resolvedAfter = (source: string): number => {
    let latest = -Infinity;
    const words = source.split(' ');
    // The run itself and each shorter run of the same program (at most ~40 words in a 160-character key).
    for (let length = words.length; length >= 1; length--) latest = Math.max(latest, cleanRuns.get(words.slice(0, length).join(' ')) ?? -Infinity);
    return latest;
  };
  // How often each tool failed in a way a retry fixes: once is routine, a tool that keeps failing is a pattern.
  const failures = new Map<string, number>();
  for (const signal of signals) {
    if (signal.source?.startsWith(RETRY_PREFIX) && !signal.id.startsWith(CLEAN_RUN_PREFIX)) failures.set(signal.source, (failures.get(signal.source) ?? 0) + signal.frequency);
  }
  const out: Observation[] = [];
  for (const signal of signals) {
    if (signal.id.startsWith(CLEAN_RUN_PREFIX)) continue;
    // A one-off failure that a working call of the same tool settled (in the same message or later) was a retry.
    const retried = signal.source?.startsWith(RETRY_PREFIX) === true && failures.get(signal.source) === 1;
    if (retried && (cleanRuns.get(signal.source ?? '') ?? -Infinity) >= signal.order) continue;
    const settled = signal.source !== undefined && (signal.type === 'problem' || signal.type === 'warning') && resolvedAfter(signal.source) > signal.order;
    if (!settled) out.push(signal);
    else out.push({ ...signal, id: `resolved:${signal.id}`, type: 'warning', text: capChars(`resolved: ${signal.text}`, MAX_SIGNAL_CHARS) });
  }
  return out;
}
