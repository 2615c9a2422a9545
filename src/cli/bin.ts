#!/usr/bin/env node
/**
 * `opencode-maenifold`, the package's command: `report` shows what a
 * compaction keeps from a session export, `synth` writes a synthetic one,
 * `memory` shows what a project's next session receives and `forget` drops
 * an item of it for good.
 * It runs from any folder (relative paths are read from the working
 * directory), prints only the requested output on stdout, and every failure
 * is one line on stderr with a non-zero exit code.
 */
import { readFileSync } from 'node:fs';
import { report } from './report.js';
import { synthCommand, synthUsage } from './synth-command.js';
import { parseCliCommand, POOL_FLAGS, poolOptionsOf, runCli, UsageError } from './run-cli.js';
import { resolve } from 'node:path';
import { forgetItem, formatMemoryReport, readMemoryReport } from './memory-command.js';
import type { StoreRequest } from './memory-store.js';

const NAME = 'opencode-maenifold';

const USAGE = `Usage: ${NAME} <command> [options]

Commands:
  report FILE   show what a compaction keeps from a session export
                (\`opencode export <id> > FILE\`); --help for its options
  synth         write a synthetic session export; --help for its options
  memory        show what the next session of a project receives; --help for its options
  forget ITEM   drop an item (its id or its text) from a project's memory for good

  --version     print the package's version
  --help        show this text`;

const REPORT_USAGE = `Usage: ${NAME} report FILE [--json] [--store] [--root DIR] [--keep]

Runs the extraction the compacting hook uses (same engine, through the worker
pool) on a session export and shows what a compaction would preserve: concepts,
decisions by category, the working set, the preservation context with its exact
token count, and per-stage timings.

  FILE          a session export (\`opencode export <id> > FILE\`) or a message list (JSON)
  --json        print one JSON object on stdout and nothing else
  --store       also keep three compactions of the session in the built-in file store
                (maenifold's file layout, no maenifold needed) and show the notes, the
                summary chain and the graph context a next session receives
  --root DIR    the store's folder, kept (default: a temporary folder, removed on exit)
  --keep        keep the temporary folder and name it on stderr
  --threads N   worker threads (default: the plugin's)
  --no-warm-up  start extracting without warming the workers up first: less work in all,
                and the timings show a cold worker's first extraction
  --help        show this text`;

const STORE_FLAGS_USAGE = `  --project DIR   a folder of the project (default: the working directory); the project is
                  its git worktree's, as OpenCode names it, or the MAENIFOLD_PROJECT variable's
  --store KIND    files or maenifold (default: MAENIFOLD_STORE, else the maenifold CLI when found)
  --state-dir DIR the plugin's state folder (default: MAENIFOLD_STATE_DIR, else the plugin's)
  --help          show this text

The memory root is $MAENIFOLD_ROOT (~/maenifold) and the CLI $MAENIFOLD_CLI, as for the plugin.`;

const MEMORY_USAGE = `Usage: ${NAME} memory [--project DIR] [--json]

Prints the Project Memory block the next session of the project receives (read
as session start reads it), then every item of the project's memory digest with
its id, kind, source (the model's summary or the extraction), the day it was
first seen and last confirmed.

  --json          one JSON object: { project, block, tokens, items }
${STORE_FLAGS_USAGE}`;

const FORGET_USAGE = `Usage: ${NAME} forget <id|text> [--project DIR]

Drops an item from the project's memory digest for good: later compactions
that say it again do not bring it back. Give its id (\`${NAME} memory\` lists
them) or its text.

${STORE_FLAGS_USAGE}`;

const STORE_FLAGS = {
  project: { type: 'string' },
  store: { type: 'string' },
  'state-dir': { type: 'string' },
} as const;

function storeRequest(values: { project?: string | undefined; store?: string | undefined; 'state-dir'?: string | undefined }): StoreRequest {
  const store = values.store;
  if (store !== undefined && store !== 'files' && store !== 'maenifold') throw new UsageError(`--store must be files or maenifold (got "${store}")`);
  return {
    dir: resolve(values.project ?? process.cwd()),
    env: process.env,
    onIssue: (line) => void process.stderr.write(`${NAME}: ${line}\n`),
    ...(store ? { store } : {}),
    ...(values['state-dir'] !== undefined ? { stateDir: resolve(values['state-dir']) } : {}),
  };
}

async function memoryCommand(argv: string[]): Promise<number> {
  const parsed = parseCliCommand(argv, { json: { type: 'boolean', default: false }, ...STORE_FLAGS }, MEMORY_USAGE, 0);
  if (!parsed) return 0;
  const report = await readMemoryReport(storeRequest(parsed.values));
  process.stdout.write(parsed.values.json ? `${JSON.stringify(report)}\n` : formatMemoryReport(report));
  return 0;
}

async function forgetCommand(argv: string[]): Promise<number> {
  const parsed = parseCliCommand(argv, STORE_FLAGS, FORGET_USAGE, 1);
  if (!parsed) return 0;
  const [item] = parsed.positionals;
  if (item === undefined || item.trim() === '') throw new UsageError('forget needs an item: its id (as `memory` lists them) or its text');
  process.stdout.write(await forgetItem(item, storeRequest(parsed.values)));
  return 0;
}

/** The version in the package's own package.json, two folders up from both `src/cli` and `dist/src/cli`. */
function packageVersion(): string {
  for (const up of ['../..', '../../..']) {
    try {
      const manifest = JSON.parse(readFileSync(new URL(`${up}/package.json`, import.meta.url), 'utf8')) as { name?: unknown; version?: unknown };
      if (manifest.name === NAME && typeof manifest.version === 'string') return manifest.version;
    } catch {
      // Not this folder; try the next.
    }
  }
  throw new Error('cannot find the package.json of opencode-maenifold');
}

async function reportCommand(argv: string[]): Promise<number> {
  const parsed = parseCliCommand(
    argv,
    {
      json: { type: 'boolean', default: false },
      store: { type: 'boolean', default: false },
      root: { type: 'string' },
      keep: { type: 'boolean', default: false },
      ...POOL_FLAGS,
    },
    REPORT_USAGE,
    1,
  );
  if (!parsed) return 0;
  const [file] = parsed.positionals;
  if (file === undefined) throw new UsageError('report needs a session export, e.g. report session.json (made by `opencode export <id> > session.json`)');
  const { values } = parsed;
  if ((values.root !== undefined || values.keep) && !values.store) throw new UsageError('--root and --keep go with --store');
  const pool = poolOptionsOf(values);
  const output = await report({
    session: { file: resolve(file) },
    json: values.json ?? false,
    store: values.store ?? false,
    ...(values.root !== undefined ? { root: resolve(values.root) } : {}),
    keep: values.keep ?? false,
    pool,
  });
  process.stdout.write(output);
  return 0;
}

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  switch (command) {
    case 'report':
      return await reportCommand(rest);
    case 'synth':
      return await synthCommand(rest, { usage: synthUsage(`${NAME} synth`), base: process.cwd() });
    case 'memory':
      return await memoryCommand(rest);
    case 'forget':
      return await forgetCommand(rest);
    case '--version':
      process.stdout.write(`${packageVersion()}\n`);
      return 0;
    case '--help':
    case '-h':
    case 'help':
      process.stdout.write(`${USAGE}\n`);
      return 0;
    case undefined:
      throw new UsageError('a command is needed: report, synth, memory or forget');
    default:
      throw new UsageError(`unknown command "${command}": report, synth, memory or forget`);
  }
}

// Whatever escapes the command (a worker that died in a way the pool did not report) is still one line.
for (const event of ['uncaughtException', 'unhandledRejection'] as const) {
  process.on(event, (error: unknown) => {
    process.stderr.write(`${NAME}: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  });
}

runCli(NAME, main);
