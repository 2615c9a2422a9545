/**
 * What `npm run synth` and `opencode-maenifold synth` share: write a synthetic
 * session export, to stdout or to a file, a message at a time.
 */
import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { isAbsolute, resolve } from 'node:path';
import type { Writable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { DEFAULT_PROJECT_ROOT, generateSession } from '../synth/session-generator.js';
import { parseSize } from '../synth/session-size.js';
import type { SessionExport } from '../core/session-types.js';
import { asUsageError, parseCliArgs, UsageError } from './run-cli.js';

/**
 * The `--help` text.
 *
 * @param command - how the user starts the command (`npm run synth --`, `opencode-maenifold synth`).
 */
export function synthUsage(command: string): string {
  return `Usage: ${command} --size SIZE [--seed N] [--project-root DIR] [--out FILE]

Writes a synthetic OpenCode session export (the JSON that \`opencode export <id>\`
prints) to stdout, or to FILE: the same seed gives the same session, within 5 % of SIZE.

  --size SIZE         size of the export, in bytes or with a unit: 100KB, 10MB, 1GB (powers of 1024)
  --seed N            seed of the generated content (default 1)
  --project-root DIR  directory the tool calls work in (default ${DEFAULT_PROJECT_ROOT})
  --out FILE          write the export to FILE instead of stdout
  --help              show this text`;
}

/** Characters gathered before each write: few writes, and backpressure still honoured. */
const WRITE_CHUNK_CHARS = 1024 ** 2;

/** Where the export goes: a stream, and whether its reader went away (`| head`). */
interface Sink {
  stream: Writable;
  closed: () => boolean;
}

function write(sink: Sink, text: string): Promise<void> {
  return new Promise((done) => {
    if (sink.stream.write(text)) done();
    else {
      // A reader that went away never drains: its error ends the wait as well.
      const finish = (): void => {
        sink.stream.off('drain', finish);
        sink.stream.off('error', finish);
        done();
      };
      sink.stream.once('drain', finish).once('error', finish);
    }
  });
}

/**
 * Writes `JSON.stringify(session)` a message at a time: one string for the
 * whole export would hit V8's string length limit near 512 MB.
 */
async function writeExport(session: SessionExport, sink: Sink): Promise<void> {
  // `{"info":…,"messages":[` — the serialisation of an empty list, minus its closing `]}`.
  let chunk = JSON.stringify({ info: session.info, messages: [] }).slice(0, -2);
  for (const [index, message] of session.messages.entries()) {
    chunk += `${index === 0 ? '' : ','}${JSON.stringify(message)}`;
    if (chunk.length < WRITE_CHUNK_CHARS) continue;
    await write(sink, chunk);
    if (sink.closed()) return;
    chunk = '';
  }
  await write(sink, `${chunk}]}\n`);
}

/** Standard output as a sink: a reader that stops early is not a failure, any other write error is. */
function stdoutSink(): Sink {
  let closed = false;
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    closed = true;
    if (error.code === 'EPIPE') return;
    process.stderr.write(`synth: cannot write to stdout (${error.code ?? error.message})\n`);
    process.exitCode = 1;
  });
  return { stream: process.stdout, closed: () => closed };
}

/** Writes the export to `path`, removing a partial file when a write fails. */
async function writeFileExport(session: SessionExport, path: string): Promise<void> {
  const stream = createWriteStream(path);
  let failure: NodeJS.ErrnoException | null = null;
  stream.on('error', (error: NodeJS.ErrnoException) => {
    failure ??= error;
  });
  await writeExport(session, { stream, closed: () => failure !== null });
  stream.end();
  await finished(stream).catch(() => undefined);
  if (failure === null) return;
  const { code, message } = failure as NodeJS.ErrnoException;
  await rm(path, { force: true });
  throw new Error(`cannot write ${path} (${code ?? message})`);
}

/**
 * Runs the command.
 *
 * @param argv - the arguments after the command's name.
 * @param options - its `--help` text, and the folder a relative `--out` is read from.
 * @returns the exit code.
 * @throws UsageError for a missing or malformed flag; Error when `--out` cannot be written.
 */
export async function synthCommand(argv: string[], options: { usage: string; base: string }): Promise<number> {
  const args = parseCliArgs(
    argv,
    {
      size: { type: 'string' },
      seed: { type: 'string', default: '1' },
      'project-root': { type: 'string', default: DEFAULT_PROJECT_ROOT },
      out: { type: 'string' },
    },
    options.usage,
  );
  if (!args) return 0;
  const { size } = args;
  if (size === undefined) throw new UsageError('--size is required, e.g. --size 10MB');
  const seed = Number(args.seed);
  if (!Number.isInteger(seed)) throw new UsageError(`--seed must be an integer (got "${args.seed}")`);
  const projectRoot = args['project-root'] ?? DEFAULT_PROJECT_ROOT;
  if (!isAbsolute(projectRoot)) throw new UsageError(`--project-root must be an absolute path (got "${projectRoot}")`);
  if (args.out === '') throw new UsageError('--out needs a file name');
  const targetBytes = asUsageError(() => parseSize(size));
  const session = generateSession({ seed, targetBytes, projectRoot });
  if (args.out === undefined) await writeExport(session, stdoutSink());
  else await writeFileExport(session, resolve(options.base, args.out));
  return 0;
}
