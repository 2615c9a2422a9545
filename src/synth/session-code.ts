/**
 * The code synthetic sessions show: TypeScript snippets, fenced blocks in
 * several fence styles and languages (some holding headings and links that
 * are text, not structure), and the stack traces that code throws. Shared by
 * the text of the turns and by the output of tool calls.
 */
import { absolutePath, between, concept, HEADINGS, pick, relativePath, repeat, SYMBOLS, TEST_NAMES, TYPES, type Generator, type Template } from './session-content.js';

/** TypeScript snippets: a function, a pool call, an options interface, a test, a class. */
export const CODE: readonly Template[] = [
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

/** Fenced blocks: code, shell commands, JSON, and Markdown that extraction must not read as structure. */
export const FENCED: readonly Template[] = [
  (gen) => `\`\`\`ts\n${pick(gen, CODE)(gen)}\n\`\`\``,
  (gen) => `~~~ts\n${pick(gen, CODE)(gen)}\n~~~`,
  (gen) => `\`\`\`bash\nnpm run typecheck\nnpx vitest run ${relativePath(gen).replace(/^src/, 'test')}\n\`\`\``,
  (gen) => `\`\`\`json\n{ "maxThreads": ${between(gen, 1, 8)}, "taskTimeoutMs": ${between(gen, 1, 30) * 100}, "projectRoot": "${gen.projectRoot}" }\n\`\`\``,
  // Headings and links inside fences are text, not structure: extraction must skip them.
  (gen) => `\`\`\`md\n## ${pick(gen, HEADINGS)}\n\nSee ${concept(gen)} for the details.\n\`\`\``,
  (gen) => `~~~markdown\n# Notes\n## ${pick(gen, HEADINGS)}\n- ${concept(gen)} is not a real link here\n~~~`,
];

/** A TypeError and the frames of the project's code it went through. */
export function stackTrace(gen: Generator): string {
  const frames = repeat(gen, 3, 7, (g) => `    at ${pick(g, SYMBOLS)} (${absolutePath(g)}:${between(g, 3, 240)}:${between(g, 5, 40)})`);
  return `TypeError: Cannot read properties of undefined (reading '${pick(gen, ['id', 'parts', 'text', 'state'])}')\n${frames.join('\n')}`;
}
