/**
 * The tool calls of a synthetic session: files read, edited and written,
 * commands run with their output, searches, some calls failed, and build or
 * test runs that fail, get fixed and pass.
 */
import type { ToolPart } from '../core/session-types.js';
import { absolutePath, between, chance, pick, randomSuffix, relativePath, repeat, SYMBOLS, TEST_NAMES, TYPES, type Generator } from './session-content.js';
import { CODE, stackTrace } from './session-code.js';
import { failingRun, fileCommand } from './session-phenomena.js';
import { PLAIN_PROSE } from './session-text.js';

function testRun(gen: Generator): string {
  const files = repeat(gen, 3, 8, relativePath).map((path) => path.replace(/^src/, 'test').replace(/(?<!\.test)\.ts$/, '.test.ts'));
  const failed = chance(gen, 0.4);
  const lines = files.map((file, index) => (failed && index === 0 ? ` FAIL  ${file} > should ${pick(gen, TEST_NAMES)}` : ` PASS  ${file} (${between(gen, 2, 40)} tests) ${between(gen, 5, 900)}ms`));
  if (failed) lines.push('AssertionError: expected 3 to be 4', `error: ${stackTrace(gen)}`);
  if (chance(gen, 0.3)) lines.push(`warning: ${pick(gen, SYMBOLS)} is deprecated, use ${pick(gen, SYMBOLS)} instead`);
  lines.push('', ` Test Files  ${failed ? '1 failed | ' : ''}${files.length - (failed ? 1 : 0)} passed (${files.length})`);
  return lines.join('\n');
}

function numberedFile(gen: Generator): string[] {
  const text = [`import type { ${pick(gen, TYPES)} } from './protocol.js';`, '', ...repeat(gen, 2, 6, (g) => `${pick(g, CODE)(g)}\n`)].join('\n');
  return text.split('\n').map((line, index) => `${index + 1}: ${line}`);
}

const BASH_RUNS: readonly ((gen: Generator) => [command: string, output: string])[] = [
  (gen) => ['npx vitest run', testRun(gen)],
  (gen) => ['npx tsc --noEmit', repeat(gen, 1, 4, (g) => `${relativePath(g)}(${between(g, 1, 200)},${between(g, 1, 40)}): error TS2322: Type 'string' is not assignable to type 'number'.`).join('\n')],
  (gen) => ['npm install', `npm warn deprecated inflight@1.0.6: This module is not supported\nadded ${between(gen, 20, 400)} packages in ${between(gen, 1, 30)}s`],
  (gen) => [`node ${relativePath(gen).replace(/\.ts$/, '.js')}`, stackTrace(gen)],
  (gen) => ['git status --short', repeat(gen, 2, 8, (g) => `${pick(g, [' M', '??', ' D', 'A '])} ${relativePath(g)}`).join('\n')],
  (gen) => fileCommand(gen),
  (gen) => ['cat package.json', JSON.stringify({ name: 'project', version: `0.${between(gen, 1, 9)}.0`, type: 'module', scripts: { test: 'vitest run', build: 'tsc' } }, null, 2)],
];

// Rarely, a long log: the kind of output that has to be bounded before it crosses a thread.
function longLog(gen: Generator): [command: string, output: string] {
  return ['npm run build --verbose', repeat(gen, 300, 900, (g) => `${pick(g, ['info', 'warning:', 'verbose'])} ${pick(g, PLAIN_PROSE)(g)}`).join('\n')];
}

function toolError(tool: string, filePath: string): string {
  if (tool === 'read') return `File not found: ${filePath}`;
  if (tool === 'edit') return 'oldString not found in content';
  if (tool === 'write') return `EACCES: permission denied, open '${filePath}'`;
  if (tool === 'bash') return 'Command timed out after 120000 ms';
  return 'The user rejected permission to use this tool';
}

/**
 * A build or test run that fails, the edit that fixes the file it names, and the same command passing.
 */
export function failThenPass(gen: Generator): Omit<ToolPart, 'id' | 'messageID' | 'sessionID'>[] {
  const run = failingRun(gen);
  const bash = (output: string, exit: number): Omit<ToolPart, 'id' | 'messageID' | 'sessionID'> => {
    const start = (gen.clock += between(gen, 50, 4_000));
    const time = { start, end: (gen.clock += between(gen, 200, 20_000)) };
    const input = { command: run.command, description: `Runs ${run.command.split(' ', 2).join(' ')}` };
    return { type: 'tool', tool: 'bash', callID: `call_${randomSuffix(gen, 16)}`, state: { status: 'completed', input, output, title: run.command, metadata: { exit }, time } };
  };
  const failed = bash(run.failure, 1);
  const start = (gen.clock += between(gen, 50, 4_000));
  const filePath = `${gen.projectRoot}/${run.file}`;
  const edit: Omit<ToolPart, 'id' | 'messageID' | 'sessionID'> = {
    type: 'tool',
    tool: 'edit',
    callID: `call_${randomSuffix(gen, 16)}`,
    state: { status: 'completed', input: { filePath, oldString: 'value!', newString: 'value ?? fallback' }, output: 'Edit applied successfully.', title: run.file, metadata: {}, time: { start, end: (gen.clock += between(gen, 5, 500)) } },
  };
  return [failed, edit, bash(run.success, 0)];
}

/** A tool call that read, edited, wrote, ran or searched something, with its output or its error. */
export function toolCall(gen: Generator): Omit<ToolPart, 'id' | 'messageID' | 'sessionID'> {
  const start = (gen.clock += between(gen, 50, 4_000));
  const time = { start, end: (gen.clock += between(gen, 5, 3_000)) };
  const tool = pick(gen, ['read', 'read', 'read', 'edit', 'write', 'bash', 'bash', 'grep', 'glob'] as const);
  const filePath = absolutePath(gen);
  const title = filePath.slice(gen.projectRoot.length + 1);
  let input: Record<string, unknown>;
  let output: string;
  let metadata: Record<string, unknown> = {};
  if (tool === 'read') {
    const lines = numberedFile(gen);
    input = { filePath };
    output = `<path>${filePath}</path>\n<type>file</type>\n<content>\n${lines.join('\n')}\n\n(End of file - total ${lines.length} lines)\n</content>`;
    metadata = { preview: lines.slice(0, 3).join('\n'), truncated: false };
  } else if (tool === 'edit') {
    input = { filePath, oldString: pick(gen, CODE)(gen).split('\n', 1)[0], newString: pick(gen, CODE)(gen).split('\n', 1)[0] };
    output = 'Edit applied successfully.';
    metadata = { diff: `Index: ${filePath}\n--- ${filePath}\n+++ ${filePath}\n@@ -${between(gen, 1, 200)},3 +${between(gen, 1, 200)},3 @@` };
  } else if (tool === 'write') {
    input = { filePath, content: pick(gen, CODE)(gen) };
    output = 'Wrote file successfully.';
  } else if (tool === 'bash') {
    const [command, text] = chance(gen, 0.03) ? longLog(gen) : pick(gen, BASH_RUNS)(gen);
    input = { command, description: `Runs ${command.split(' ', 2).join(' ')}` };
    output = text;
  } else {
    const path = chance(gen, 0.5) ? gen.projectRoot : `${gen.projectRoot}/src`;
    const paths = repeat(gen, 2, 12, absolutePath);
    input = tool === 'grep' ? { pattern: pick(gen, SYMBOLS), path } : { pattern: pick(gen, ['**/*.ts', 'src/**/*.test.ts', '*.json']), path };
    output = tool === 'grep' ? `Found ${paths.length} matches\n${paths.map((p) => `${p}:\n  Line ${between(gen, 1, 300)}: ${pick(gen, SYMBOLS)}(input);`).join('\n')}` : paths.join('\n');
  }
  if (chance(gen, 0.06)) {
    const state = { status: 'error' as const, input, error: toolError(tool, filePath), time };
    return { type: 'tool', tool, callID: `call_${randomSuffix(gen, 16)}`, state };
  }
  return { type: 'tool', tool, callID: `call_${randomSuffix(gen, 16)}`, state: { status: 'completed', input, output, title, metadata, time } };
}
