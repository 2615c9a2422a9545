/**
 * The pool's warm-up: a small conversation shaped like a coding session — a
 * request, plans and decisions under headings, edits, shell runs that fail
 * with compiler, test and traceback output and then pass, a prior summary,
 * turns in every language the cues know — analyzed a few times over, then
 * finalized.
 *
 * A worker's first real task otherwise runs the stages in V8's interpreter:
 * the first extraction of a fresh pool cost about three times the second on
 * the same session. Most of the difference is the cue expressions of each
 * language, compiled on their first use in each worker: a language missing
 * here is paid for by the first real message written in it.
 */
import { getHeapStatistics } from 'node:v8';
import type { AnalysisUnit, UnitAnalysis } from '../protocol.js';
import { analyzeUnits } from '../../core/extraction/pipeline/analyze-unit.js';
import { finalizeExtraction } from '../../core/extraction/pipeline/finalize.js';

/** Passes over the conversation when none are asked for: enough under V8 (Node) for the hot functions to be optimized, about 100 ms of a worker. */
export const WARM_UP_ROUNDS = 6;

/**
 * Below this heap limit a worker warms up on the first turns only, once: the full warm-up keeps about
 * 3 MB of compiled code, and a worker given a small heap needs every megabyte for the text it reads.
 */
export const LEAN_WARM_UP_HEAP_MB = 256;

function tool(name: string, input: Record<string, string>, output: string, failed = false): AnalysisUnit['tools'][number] {
  return { tool: name, input, output, failed };
}

/** The conversation of one round; `round` varies a file name, so no round is a copy of another. */
export function warmUpUnits(round: number): AnalysisUnit[] {
  const file = `src/cache/store-${round}.ts`;
  const said = (role: string, text: string, tools: AnalysisUnit['tools'] = [], summary = false): AnalysisUnit => ({ key: null, order: 0, role, text, tools, summary });
  const list: AnalysisUnit[] = [
    said('user', `The checkout page times out when the cart has more than 50 items. Can you look at ${file} and make the cache expire after five minutes?`),
    said('assistant', `## Plan\n1. Read \`${file}\` and the tests.\n2. Replace the \`Map\` with an LRU cache bounded to 500 entries.\n3. Run \`npm test\`.\n\nWe decided to use [[lru-cache]] instead of a hand-written map because it already handles TTL.`, [
      tool('read', { filePath: `/home/dev/shop/${file}` }, `export class Store {\n  private items = new Map<string, Item>();\n  get(id: string) { return this.items.get(id); }\n}`),
      tool('grep', { pattern: 'Store', path: '/home/dev/shop/src' }, `src/cache/index.ts:3: import { Store } from './store';\nsrc/checkout/cart.ts:12: const store = new Store();`),
    ]),
    said('assistant', 'Changed `items` from a `Map` to an `LRUCache` with `ttl: 300_000` and switched the checkout to `store.fetch()`.', [
      tool('edit', { filePath: `/home/dev/shop/${file}` }, 'Edit applied successfully.'),
      tool('bash', { command: 'npx tsc --noEmit && npm test -- --run' }, `src/checkout/cart.ts(14,7): error TS2339: Property 'get' does not exist on type 'CartStore'.\n\n FAIL  test/cart.test.ts > cart > totals 60 items\nAssertionError: expected 59 to be 60\n ❯ test/cart.test.ts:41:18\n\nTest Files  1 failed | 12 passed (13)`, true),
    ]),
    said('assistant', '### Root cause\nThe cart read the store before the cache was filled, so the last item was missing. Fixed by awaiting `store.fetch()` in `loadCart`.', [
      tool('bash', { command: 'python scripts/seed.py --items 60' }, `Traceback (most recent call last):\n  File "scripts/seed.py", line 22, in <module>\n    main()\n  File "scripts/seed.py", line 18, in main\n    db.insert(rows)\nKeyError: 'price'`, true),
      tool('write', { filePath: '/home/dev/shop/test/cart-limits.test.ts' }, 'Wrote file successfully.'),
      tool('bash', { command: 'npm test -- --run && git add -A && git commit -m "cache: bound the store with lru-cache"' }, ' ✓ test/cart.test.ts (14 tests) 88ms\n\nTest Files  13 passed (13)\n[main 4f2a9c1] cache: bound the store with lru-cache'),
    ]),
    said('assistant', `## Summary\n### Key decisions\n- Replaced the hand-written map with [[lru-cache]] (TTL five minutes).\n- Kept the checkout API unchanged.\n### Next steps\n- Add a metric for cache hits.\n- Review \`src/cache/index.ts\` for the same pattern.`, [], true),
    said('user', 'Perfecto. Ahora cambia el límite a 1000 elementos y documenta la decisión en el README, por favor.'),
    said('assistant', 'Cambié el límite de 500 a 1000 elementos porque el carrito grande lo necesita. Próximos pasos: actualizar la documentación.', [
      tool('edit', { filePath: '/home/dev/shop/README.md' }, 'Edit applied successfully.'),
    ]),
    said('user', 'Bitte ändere das Limit auf 1000 Einträge und führe danach die Tests aus.'),
    said('assistant', 'Ich habe das Limit von 500 auf 1000 geändert, weil große Warenkörbe es brauchen. Nächster Schritt: die Tests ausführen.'),
    said('user', 'Peux-tu remplacer le cache par Redis et expliquer pourquoi ?'),
    said('assistant', "J'ai remplacé le cache mémoire par Redis car il est partagé entre les nœuds. Prochaine étape : mettre à jour la configuration."),
    said('user', 'Pode mudar o tempo de expiração para dez minutos?'),
    said('assistant', 'Mudei o tempo de expiração de cinco para dez minutos porque o checkout demora. Próximos passos: rodar os testes.'),
    said('user', 'キャッシュの有効期限を十分に変更してください。'),
    said('assistant', '有効期限を五分から十分に変更しました。決済の処理が長いためです。次のステップ:テストを実行します。'),
    said('user', '缓存的过期时间改成十分钟,然后运行测试。'),
    said('assistant', '我把过期时间从五分钟改成了十分钟,因为结账流程比较长。下一步:运行完整的测试。', [
      tool('bash', { command: 'npm run lint' }, `/home/dev/shop/src/cache/store-${round}.ts\n  12:5  warning  Unexpected console statement  no-console\n\n✖ 1 problem (0 errors, 1 warning)`),
    ]),
  ];
  return list.map((unit, order) => ({ ...unit, order }));
}

/**
 * How many copies of the conversation's items each warm-up final pass reads. A real pass reads a window of
 * hundreds of items of each kind (200 decisions, 500 signals, 300 notes, about 900 terms at 10 MB); one
 * that has only read a conversation's few dozen runs its per-item steps unoptimized on the first real
 * compaction, about three times slower than once warm.
 */
export const FINAL_COPIES: readonly number[] = [1, 12, 12];

/**
 * Final passes over copied items a worker runs in all its warm-ups: enough for both engines' optimizing
 * tiers; Bun's many waves would otherwise repeat them sixty times over.
 */
export const MAX_COPIED_FINALS = 8;

/** Final passes over copied items this worker has run. */
let copiedFinals = 0;

/** `items` `copies` times over, each copy later in the conversation and told apart from the others. */
function copied<T extends { order?: number }>(items: readonly T[], copies: number, span: number, vary: (item: T, copy: number) => T): T[] {
  const out: T[] = [];
  for (let copy = 0; copy < copies; copy++) for (const item of items) out.push(vary({ ...item, ...(item.order === undefined ? {} : { order: item.order + copy * span }) }, copy));
  return out;
}

/** Final passes this worker's warm-ups have run: each one's sections are told apart by it. */
let finals = 0;

/**
 * The final pass's input over the conversation's analyses, their items `copies` times over.
 *
 * @param pass - tells this pass's sections from every other's: the final pass keeps the sections it parsed
 *   (finalize.ts), so sections read again would never reach the markdown parser, the pass's costliest step
 *   when cold (about 15 ms for its first 2 KB section in a worker, under 1 ms once compiled).
 */
export function warmUpFinalInput(analyses: readonly UnitAnalysis[], copies: number, pass = 0): Parameters<typeof finalizeExtraction>[0] {
  const span = analyses.length;
  const all = <T extends { order?: number }>(pick: (analysis: UnitAnalysis) => readonly T[], vary: (item: T, copy: number) => T): T[] =>
    copied(analyses.flatMap(pick), copies, span, vary);
  const say = (text: string, copy: number): string => (copy === 0 ? text : `${text} (step ${copy})`);
  return {
    // A real section runs to thousands of characters: the copies' sections are every message's text, as one.
    // Two sections as a real window has, its first and its last (the conversation's last message has none of its own).
    sections: (copies === 1
      ? [analyses.find((analysis) => analysis.firstSection)?.firstSection ?? '', analyses.findLast((analysis) => analysis.lastSection)?.lastSection ?? '']
      : [warmUpUnits(copies).map((unit) => unit.text).join('\n\n')]
    ).map((section) => `${section}\n\nWarm-up pass ${pass}.`),
    sectionKind: 'h2',
    decisions: all((analysis) => analysis.decisions, (decision, copy) => ({ ...decision, text: say(decision.text, copy) })),
    files: all((analysis) => analysis.files, (touch, copy) => (copy === 0 ? touch : { ...touch, path: touch.path.replace(/(\.\w+)?$/, `-${copy}$1`) })),
    signals: all((analysis) => analysis.signals, (signal, copy) => ({ ...signal, id: `${signal.id}:${copy}`, text: say(signal.text, copy) })),
    notes: all((analysis) => analysis.notes, (note, copy) => ({ ...note, id: `${note.id}:${copy}`, text: say(note.text, copy) })),
    terms: all((analysis) => analysis.terms, (term, copy) => (copy === 0 ? term : { ...term, name: `${term.name}-${copy}` })),
    latestOrder: span * copies - 1,
    settings: {
      encoding: 'o200k_base',
      contextTokenBudget: 500,
      maxConcepts: 20,
      maxDecisions: 10,
      maxFiles: 20,
      strategy: { mode: 'conservative', targetTokenCount: 500, preserveTypes: ['decision', 'problem', 'next', 'warning'] },
    },
  };
}

/**
 * The conversation above, `rounds` times, then the final pass over its items, once as they are and
 * (up to {@link MAX_COPIED_FINALS} times in a worker's life) over {@link FINAL_COPIES} copies of them; in a worker whose heap is under
 * {@link LEAN_WARM_UP_HEAP_MB}, its first turns once.
 *
 * @param heapLimitMb - the worker's heap limit; this isolate's by default.
 * @param rounds - passes over the conversation; 0 runs nothing (the pool's first wave, which only tells
 *   that the worker loaded).
 * @returns the tokens of the last preservation context (a warm-up of passes that built none has failed).
 */
export function runWarmUp(heapLimitMb = getHeapStatistics().heap_size_limit / 2 ** 20, rounds = WARM_UP_ROUNDS): number {
  if (rounds === 0) return 0;
  const lean = heapLimitMb < LEAN_WARM_UP_HEAP_MB;
  let analyses: UnitAnalysis[] = [];
  for (let round = 0; round < (lean ? 1 : rounds); round++) {
    analyses = analyzeUnits({ units: lean ? warmUpUnits(round).slice(0, 5) : warmUpUnits(round), settings: { projectRoot: '/home/dev/shop', maxSectionChars: 16_000, maxDecisionsPerUnit: 10 } }).analyses;
  }
  let tokens = 0;
  for (const copies of lean ? [1] : FINAL_COPIES) {
    if (copies > 1 && copiedFinals >= MAX_COPIED_FINALS) continue;
    if (copies > 1) copiedFinals++;
    tokens = finalizeExtraction(warmUpFinalInput(analyses, copies, ++finals)).context.tokens;
  }
  return tokens;
}
