/**
 * The templates synthetic sessions are written with: prose with decisions and
 * WikiLinks, lists, tables, fenced code, user requests, and tool calls with
 * their output, some of them failed.
 */
import type { ToolPart } from '../core/session-types.js';
import {
  absolutePath, APPROACHES, ASCII_CONCEPTS, between, chance, CHOICES, concept, FOREIGN, HEADINGS, link, ONE_WORD_CHOICES, pick,
  PURPOSES, randomSuffix, REASONS, relativePath, repeat, SYMBOLS, TEST_NAMES, TYPES, type Generator, type Template,
} from './session-content.js';
import { answerIn, requestIn } from './session-languages.js';
import { failingRun, fileCommand, pastedTemplate, pastedTrace, summaryShapedAnswer } from './session-phenomena.js';

// ---- Text ------------------------------------------------------------------

const DECISIONS: readonly Template[] = [
  (gen) => `We decided to use ${pick(gen, CHOICES)} because ${pick(gen, REASONS)}.`,
  (gen) => `We will not use ${pick(gen, CHOICES)} since ${pick(gen, REASONS)}.`,
  (gen) => `Approach: ${pick(gen, APPROACHES)}.`,
  (gen) => `For now we are using ${pick(gen, ONE_WORD_CHOICES)} for ${pick(gen, PURPOSES)}.`,
  (gen) => {
    const chosen = pick(gen, CHOICES);
    return `I chose ${chosen} over ${pick(gen, CHOICES.filter((choice) => choice !== chosen))} because ${pick(gen, REASONS)}.`;
  },
  (gen) => `We decided against ${pick(gen, CHOICES)} because ${pick(gen, REASONS)}.`,
];

// ASCII only and free of quotes and backslashes: filler is cut to an exact byte count.
const PLAIN_PROSE: readonly Template[] = [
  ...DECISIONS,
  (gen) => `The ${link(gen, pick(gen, ASCII_CONCEPTS))} now handles ${pick(gen, PURPOSES)} without blocking the event loop.`,
  (gen) => `Profiling shows ${between(gen, 12, 87)} percent of the time in ${pick(gen, SYMBOLS)} on large sessions.`,
  (gen) => `Nothing here touches the ${pick(gen, ASCII_CONCEPTS)}, so the existing tests still cover it.`,
];

const PROSE: readonly Template[] = [
  ...PLAIN_PROSE,
  (gen) => `I traced how ${concept(gen)} talks to ${concept(gen)} and found ${between(gen, 2, 14)} call sites to change.`,
  (gen) => `\`${pick(gen, SYMBOLS)}\` in ${relativePath(gen)} still does the work twice; the ${concept(gen)} should own it.`,
  (gen) => `Once ${concept(gen)} is in place, ${concept(gen)} becomes a thin wrapper.`,
  (gen) => `The failing case is an empty list: \`${pick(gen, SYMBOLS)}\` returns \`undefined\` instead of \`[]\`.`,
  (gen) => pick(gen, FOREIGN),
];

/** A paragraph of two to five sentences, some of them decisions. */
export function paragraph(gen: Generator): string {
  return repeat(gen, 2, 5, (g) => (chance(g, 0.2) ? pick(g, DECISIONS)(g) : pick(g, PROSE)(g))).join(' ');
}

function list(gen: Generator): string {
  const ordered = chance(gen, 0.3);
  return repeat(gen, 3, 6, (g) => pick(g, PROSE)(g))
    .map((item, index) => `${ordered ? `${index + 1}.` : '-'} ${item}`)
    .join('\n');
}

function table(gen: Generator): string {
  const rows = repeat(gen, 2, 5, (g) => `| \`${relativePath(g)}\` | ${pick(g, APPROACHES)} | ${pick(g, ['✅', '❌', '🚧'])} |`);
  return ['| File | Change | Status |', '| --- | --- | --- |', ...rows].join('\n');
}

const CODE: readonly Template[] = [
  (gen) => {
    const type = pick(gen, TYPES);
    return `export function ${pick(gen, SYMBOLS)}(items: readonly ${type}[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const item of items) {
    // One entry per ${type}; duplicates only bump the count.
    counts.set(item.id, (counts.get(item.id) ?? 0) + 1);
  }
  return counts;
}`;
  },
  (gen) => `const result = await pool.run({ task: '${pick(gen, SYMBOLS)}', input }, { signal: AbortSignal.timeout(${between(gen, 2, 50) * 100}) });
if (!result.ok) {
  log.warn('${pick(gen, SYMBOLS)} failed: %s', result.error.message);
  return fallback;
}`,
  (gen) => `export interface ${pick(gen, TYPES)}Options {
  /** @default ${between(gen, 1, 64) * 1024} */
  maxEntries?: number;
  /** @default '${gen.projectRoot}' */
  projectRoot?: string;
}`,
  (gen) => `it('should ${pick(gen, TEST_NAMES)}', () => {
  const result = ${pick(gen, SYMBOLS)}(fixture);
  expect(result).toHaveLength(${between(gen, 0, 9)});
});`,
  () => `class LruCache<K, V> {
  readonly #entries = new Map<K, V>();
  get(key: K): V | undefined {
    const value = this.#entries.get(key);
    if (value !== undefined) {
      this.#entries.delete(key);
      this.#entries.set(key, value);
    }
    return value;
  }
}`,
];

const FENCED: readonly Template[] = [
  (gen) => `\`\`\`ts\n${pick(gen, CODE)(gen)}\n\`\`\``,
  (gen) => `~~~ts\n${pick(gen, CODE)(gen)}\n~~~`,
  (gen) => `\`\`\`bash\nnpm run typecheck\nnpx vitest run ${relativePath(gen).replace(/^src/, 'test')}\n\`\`\``,
  (gen) => `\`\`\`json\n{ "maxThreads": ${between(gen, 1, 8)}, "taskTimeoutMs": ${between(gen, 1, 30) * 100}, "projectRoot": "${gen.projectRoot}" }\n\`\`\``,
  // Headings and links inside fences are text, not structure: extraction must skip them.
  (gen) => `\`\`\`md\n## ${pick(gen, HEADINGS)}\n\nSee ${concept(gen)} for the details.\n\`\`\``,
  (gen) => `~~~markdown\n# Notes\n## ${pick(gen, HEADINGS)}\n- ${concept(gen)} is not a real link here\n~~~`,
];

function block(gen: Generator): string {
  const roll = gen.random();
  if (roll < 0.55) return paragraph(gen);
  if (roll < 0.7) return list(gen);
  if (roll < 0.78) return table(gen);
  return pick(gen, FENCED)(gen);
}

/** The text of an assistant answer: loose blocks, sections under headings, or a summary of changes. */
export function assistantText(gen: Generator): string {
  const blocks: string[] = [];
  const { language } = gen.style;
  if (language !== 'en' && chance(gen, 0.6)) return [answerIn(gen, language), ...(chance(gen, 0.5) ? [block(gen)] : [])].join('\n\n');
  if (chance(gen, 0.12)) return summaryShapedAnswer(gen);
  if (chance(gen, 0.25)) return repeat(gen, 1, 3, block).join('\n\n');
  if (chance(gen, 0.5)) blocks.push(paragraph(gen));
  const sections = between(gen, 1, 4);
  for (let index = 0; index < sections; index += 1) {
    blocks.push(`${chance(gen, 0.15) ? '###' : '##'} ${pick(gen, HEADINGS)}`, ...repeat(gen, 1, 3, block));
  }
  return blocks.join('\n\n');
}

/** What the user says to start a turn, in English. */
export const USER_TEXT: readonly Template[] = [
  (gen) => `Can you look at ${relativePath(gen)}? ${paragraph(gen)}`,
  (gen) => `The tests fail again:\n\n\`\`\`\n${stackTrace(gen)}\n\`\`\`\n\nPlease fix it without touching the ${concept(gen)}.`,
  (gen) => `Let's go with ${pick(gen, CHOICES)}. ${pick(gen, DECISIONS)(gen)}`,
  (gen) => `${pick(gen, FOREIGN)} ${concept(gen)} の部分をもう一度確認してください。`,
  (gen) => `Next: ${pick(gen, APPROACHES)}, and add a test that should ${pick(gen, TEST_NAMES)}.`,
  // Pasted without a fence, as users often do.
  (gen) => `I get this when I run it:\n${pastedTrace(gen)}\nWhat is going on?`,
  (gen) => pastedTemplate(gen),
];

/** What the user says to start a turn, in the session's language most of the time. */
export function userText(gen: Generator): string {
  const { language } = gen.style;
  if (language !== 'en' && chance(gen, 0.7)) return requestIn(gen, language);
  return pick(gen, USER_TEXT)(gen);
}

/**
 * ASCII prose cut to exactly `length` characters, which are also its bytes and
 * its serialised length: filler that meets a size to the byte.
 */
export function plainText(gen: Generator, length: number): string {
  let text = '';
  while (text.length < length) text += `${text ? ' ' : ''}${pick(gen, PLAIN_PROSE)(gen)}`;
  return text.slice(0, length);
}

// ---- Tool output -------------------------------------------------------------

function stackTrace(gen: Generator): string {
  const frames = repeat(gen, 3, 7, (g) => `    at ${pick(g, SYMBOLS)} (${absolutePath(g)}:${between(g, 3, 240)}:${between(g, 5, 40)})`);
  return `TypeError: Cannot read properties of undefined (reading '${pick(gen, ['id', 'parts', 'text', 'state'])}')\n${frames.join('\n')}`;
}

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
