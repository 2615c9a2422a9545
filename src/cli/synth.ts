/**
 * `npm run synth -- --size 10MB`: writes a synthetic session export to stdout,
 * to try the plugin or the preview on a session of any size.
 */
import { isAbsolute } from 'node:path';
import { DEFAULT_PROJECT_ROOT, generateSession } from '../synth/session-generator.js';
import { parseSize } from '../synth/session-size.js';
import type { SessionExport } from '../core/session-types.js';
import { asUsageError, parseCliArgs, runCli, UsageError } from './run-cli.js';

const USAGE = `Usage: npm run synth -- --size SIZE [--seed N] [--project-root DIR]

Writes a synthetic OpenCode session export (the JSON that \`opencode export <id>\`
prints) to stdout: the same seed gives the same session, within 5 % of SIZE.

  --size SIZE         size of the export, in bytes or with a unit: 100KB, 10MB, 1GB (powers of 1024)
  --seed N            seed of the generated content (default 1)
  --project-root DIR  directory the tool calls work in (default ${DEFAULT_PROJECT_ROOT})
  --help              show this text`;

/** Characters gathered before each write: few writes, and backpressure still honoured. */
const WRITE_CHUNK_CHARS = 1024 ** 2;

let stdoutClosed = false;

function write(text: string): Promise<void> {
  return new Promise((resolve) => {
    if (process.stdout.write(text)) resolve();
    else process.stdout.once('drain', resolve);
  });
}

/**
 * Writes `JSON.stringify(session)` a message at a time: one string for the
 * whole export would hit V8's string length limit near 512 MB.
 */
async function writeExport(session: SessionExport): Promise<void> {
  // `{"info":…,"messages":[` — the serialisation of an empty list, minus its closing `]}`.
  let chunk = JSON.stringify({ info: session.info, messages: [] }).slice(0, -2);
  for (const [index, message] of session.messages.entries()) {
    chunk += `${index === 0 ? '' : ','}${JSON.stringify(message)}`;
    if (chunk.length < WRITE_CHUNK_CHARS) continue;
    await write(chunk);
    if (stdoutClosed) return;
    chunk = '';
  }
  await write(`${chunk}]}\n`);
}

async function main(argv: string[]): Promise<number> {
  const args = parseCliArgs(
    argv,
    {
      size: { type: 'string' },
      seed: { type: 'string', default: '1' },
      'project-root': { type: 'string', default: DEFAULT_PROJECT_ROOT },
    },
    USAGE,
  );
  if (!args) return 0;
  const { size } = args;
  if (size === undefined) throw new UsageError('--size is required, e.g. --size 10MB');
  const seed = Number(args.seed);
  if (!Number.isInteger(seed)) throw new UsageError(`--seed must be an integer (got "${args.seed}")`);
  const projectRoot = args['project-root'] ?? DEFAULT_PROJECT_ROOT;
  if (!isAbsolute(projectRoot)) throw new UsageError(`--project-root must be an absolute path (got "${projectRoot}")`);
  const targetBytes = asUsageError(() => parseSize(size));
  await writeExport(generateSession({ seed, targetBytes, projectRoot }));
  return 0;
}

// A reader that stops early (`| head`) is not a failure: stop writing quietly.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  stdoutClosed = true;
  if (error.code === 'EPIPE') return;
  process.stderr.write(`synth: cannot write to stdout (${error.code ?? error.message})\n`);
  process.exitCode = 1;
});

runCli('synth', main);
