/**
 * maenifold's tools by name: `maenifold --tool <Name> --payload <json> [--json]`,
 * run and classified. The CLI exits 0 for every handled outcome, errors
 * included, so results are classified from stdout alone: the one-line
 * `--json` envelope for the tools that print it, plain text (with `ERROR:`
 * / `Error invoking` for errors) for the rest. Nothing here throws. The
 * typed port on top of it is maenifold-client.ts.
 */
import type { CliLocation } from './cli-locator.js';
import { runProcess, type ProcessOutcome } from './process-runner.js';
import { MAX_ARGUMENT_BYTES } from '../../../core/memory/summary-thought.js';
import type { CallOptions, MemoryError, MemoryErrorCode, MemoryResult } from '../memory-port.js';

/** Tools that print the JSON envelope when given `--json`. */
export type JsonTool = 'WriteMemory' | 'ReadMemory' | 'DeleteMemory' | 'SequentialThinking' | 'SearchMemories';
/** Tools that always print text. */
export type TextTool = 'BuildContext' | 'RecentActivity' | 'ListMemories' | 'Sync';

/** The raw calls: payloads as maenifold takes them, answers as it gives them. */
export interface CliInvoker {
  /** Calls a JSON tool and returns the envelope's `data`; plain-text answers come back as `TOOL_ERROR` unless `acceptText` maps them. */
  callJson(tool: JsonTool, payload: Record<string, unknown>, options: CallOptions, acceptText?: (text: string) => unknown): Promise<MemoryResult<unknown>>;
  /** Calls a text tool and returns its stdout, trimmed. */
  callText(tool: TextTool, payload: Record<string, unknown>, options: CallOptions): Promise<MemoryResult<string>>;
}

/** Linux caps one argv element at 128 KiB including its terminating NUL, counted in bytes. */
export const MAX_PAYLOAD_BYTES = MAX_ARGUMENT_BYTES;

/** What the CLI may print before the call is stopped. @default 4 MiB */
export const MAX_STDOUT_BYTES = 4 * 1024 * 1024;

const TEXT_ERROR = /^(?:ERROR:|Error invoking\b)/;

function fail(code: MemoryErrorCode, message: string, toolCode?: string): { ok: false; error: MemoryError } {
  return { ok: false, error: toolCode ? { code, message, toolCode } : { code, message } };
}

function processFailure(tool: string, outcome: Exclude<ProcessOutcome, { kind: 'exited' }>, timeoutMs: number): { ok: false; error: MemoryError } {
  switch (outcome.kind) {
    case 'timeout':
      return fail('TIMEOUT', `${tool} did not answer within ${timeoutMs} ms and was stopped`);
    case 'output-too-large':
      return fail('OUTPUT_TOO_LARGE', `${tool} printed more than ${MAX_STDOUT_BYTES} bytes and was stopped`);
    case 'spawn-failed':
      return fail('SPAWN_FAILED', `could not start maenifold: ${outcome.message}`);
  }
}

function firstLine(text: string): string {
  const line = text.trim().split('\n', 1)[0] ?? '';
  return line.length > 300 ? `${line.slice(0, 300)}…` : line;
}

function parseEnvelope(stdout: string): { success: boolean; data: unknown; error: { code?: unknown; message?: unknown } | null } | null {
  // The envelope is one line; diagnostics, if any, go to stderr, but read defensively.
  const lines = stdout.split('\n').map((line) => line.trim()).filter((line) => line.startsWith('{'));
  for (let index = lines.length - 1; index >= 0; index--) {
    try {
      const parsed: unknown = JSON.parse(lines[index] as string);
      if (typeof parsed === 'object' && parsed !== null && typeof (parsed as { success?: unknown }).success === 'boolean') {
        return parsed as { success: boolean; data: unknown; error: { code?: unknown; message?: unknown } | null };
      }
    } catch {
      // Not this line.
    }
  }
  return null;
}

/**
 * @param location - where the CLI is (see `locateCli`).
 * @param env - environment of the CLI process (MAENIFOLD_ROOT and the like).
 */
export function createCliInvoker(location: CliLocation, env: NodeJS.ProcessEnv = process.env): CliInvoker {
  async function invoke(tool: string, payload: Record<string, unknown>, json: boolean, options: CallOptions): Promise<MemoryResult<string>> {
    if (!location.found) return fail('CLI_MISSING', 'the maenifold CLI was not found');
    let serialized: string;
    try {
      serialized = JSON.stringify(payload);
    } catch (error) {
      return fail('PAYLOAD_TOO_LARGE', `payload of ${tool} cannot be serialized: ${(error as Error).message}`);
    }
    const bytes = Buffer.byteLength(serialized, 'utf8');
    if (bytes > MAX_PAYLOAD_BYTES) {
      return fail('PAYLOAD_TOO_LARGE', `payload of ${tool} is ${bytes} bytes; one argument may hold ${MAX_PAYLOAD_BYTES}`);
    }
    const args = ['--tool', tool, '--payload', serialized, ...(json ? ['--json'] : [])];
    const outcome = await runProcess(location.path, args, {
      timeoutMs: options.timeoutMs,
      maxStdoutBytes: MAX_STDOUT_BYTES,
      env,
      ...(options.signal ? { signal: options.signal } : {}),
    });
    if (outcome.kind !== 'exited') return processFailure(tool, outcome, options.timeoutMs);
    if (outcome.code !== 0 && outcome.stdout.trim() === '') {
      const why = outcome.signal ? `signal ${outcome.signal}` : `exit code ${outcome.code}`;
      return fail('CRASHED', `${tool} crashed (${why}): ${firstLine(outcome.stderr) || 'no output'}`);
    }
    return { ok: true, value: outcome.stdout };
  }

  return {
    async callJson(tool, payload, options, acceptText) {
      const raw = await invoke(tool, payload, true, options);
      if (!raw.ok) return raw;
      const envelope = parseEnvelope(raw.value);
      if (envelope) {
        if (envelope.success) return { ok: true, value: envelope.data };
        const code = typeof envelope.error?.code === 'string' ? envelope.error.code : 'UNKNOWN';
        const message = typeof envelope.error?.message === 'string' ? envelope.error.message : 'no message';
        return fail('TOOL_ERROR', `${tool} failed: ${code}: ${message}`, code);
      }
      const text = raw.value.trim();
      if (TEXT_ERROR.test(text)) return fail('TOOL_ERROR', `${tool} failed: ${firstLine(text)}`);
      if (acceptText) {
        const mapped = acceptText(text);
        if (mapped !== undefined) return { ok: true, value: mapped };
      }
      return fail('BAD_OUTPUT', `${tool} printed no JSON envelope: ${firstLine(text) || 'empty output'}`);
    },
    async callText(tool, payload, options) {
      const raw = await invoke(tool, payload, false, options);
      if (!raw.ok) return raw;
      const text = raw.value.trim();
      if (TEXT_ERROR.test(text)) return fail('TOOL_ERROR', `${tool} failed: ${firstLine(text)}`);
      return { ok: true, value: text };
    },
  };
}
