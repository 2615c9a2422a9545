/**
 * Adversarial message lists for the compacting hook, built on demand so that
 * nothing large is checked in and only one case is in memory at a time.
 *
 * Every case but the malformed ones opens with the same ordinary message (an
 * H2 section, a decision, concepts, a file edit), so a healthy extraction
 * always has something to preserve; the hostile payload follows, shaped to
 * reach a specific stage: the sanitizer, the heading and fence scan, the
 * decision patterns, the tool-output signals, the working set, the `[[link]]`
 * scan, the markdown parser (payloads under an H2 become the last boundary
 * section) and the tokenizer (payloads placed where they end up in decisions,
 * signals or paths, the lines the budget counts).
 */
import { generateSession } from '../../src/synth/session-generator.js';

/** One adversarial input: what `client.session.messages` returns. */
export interface AdversarialCase {
  name: string;
  messages: unknown[];
}

/** A case and how to build it; building allocates, listing does not. */
export interface AdversarialCaseSource {
  name: string;
  build(): AdversarialCase;
}

const MB = 1024 * 1024;

// ---- Message shapes ---------------------------------------------------------

function textMessage(id: string, text: unknown, role = 'assistant'): unknown {
  return { info: { id, role }, parts: [{ type: 'text', text }] };
}

function toolMessage(id: string, text: string, tool: unknown, state: unknown): unknown {
  return { info: { id, role: 'assistant' }, parts: [{ type: 'text', text }, { type: 'tool', tool, state }] };
}

function completed(input: unknown, output: unknown): Record<string, unknown> {
  return { status: 'completed', input, output };
}

/** The ordinary message every case starts with. */
function opening(): unknown {
  return {
    info: { id: 'msg_open', role: 'assistant' },
    parts: [
      { type: 'text', text: '## Plan\nWe decided to use [[Redis]] for the [[cache layer]] because every node of the [[API Gateway]] shares it.' },
      { type: 'tool', tool: 'edit', state: completed({ filePath: '/work/acme-shop/src/cache.ts' }, 'ok') },
    ],
  };
}

/** The opening, then one message per payload. */
function framed(id: string, ...payloads: unknown[]): unknown[] {
  return [opening(), ...payloads.map((payload, index) => textMessage(`${id}_${index}`, payload))];
}

/** The opening, then tool calls (one per message) with the given states. */
function framedTools(id: string, tool: unknown, ...states: unknown[]): unknown[] {
  return [opening(), ...states.map((state, index) => toolMessage(`${id}_${index}`, 'Ran the tool.', tool, state))];
}

// ---- Payload builders ---------------------------------------------------------

/** `unit` repeated until the result is about `chars` long. */
function fill(unit: string, chars: number): string {
  return unit.repeat(Math.max(1, Math.ceil(chars / unit.length)));
}

/** Deterministic random bytes read as latin1: every code unit from U+0000 to U+00FF. */
function binaryGarbage(bytes: number, seed: number): string {
  const buffer = Buffer.allocUnsafe(bytes);
  let state = seed >>> 0;
  for (let index = 0; index < bytes; index++) {
    // xorshift32
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    buffer[index] = state & 0xff;
  }
  return buffer.toString('latin1');
}

/** An array nested `depth` levels deep, as JSON.parse builds it from `[[[…]]]`. */
function nestedArray(depth: number): unknown {
  let value: unknown = 'leaf';
  for (let level = 0; level < depth; level++) value = [value];
  return value;
}

const BIDI_AND_INVISIBLE = '\u202e\u202d\u202a\u202b\u202c\u2066\u2067\u2068\u2069\u200e\u200f\u061c\u200b\ufeff';
const SPECIAL_TOKENS = '<|endoftext|><|im_start|>system<|im_end|><|fim_prefix|><|endofprompt|>';

// ---- The cases ----------------------------------------------------------------

const SOURCES: ReadonlyArray<readonly [string, () => unknown[]]> = [
  // Size.
  ['50 MB session', () => generateSession({ seed: 50, targetBytes: 50 * MB }).messages],
  ['one 5 MB line', () => framed('line', `We decided to keep [[one-line]] because ${fill('word ', 5 * MB)}`)],
  ['one 5 MB heading line', () => framed('hline', `## ${fill('title ', 5 * MB)}`)],
  ['1 MB without a sentence terminator', () => framed('noterm', `we decided to ${fill('keep going and\n', MB)}`)],
  ["1 MB of '.' after a decision", () => framed('dots', `we decided to ${'.'.repeat(MB)}`)],

  // decisions.ts: the five families, their anchors, near-misses and whitespace runs.
  ["'we ' × 350k", () => framed('we', fill('we ', MB))],
  ['rejection near-misses', () => framed('reject', fill("we won I will we should we won't x\n", MB))],
  ['explicit near-misses (capture under 10 chars)', () => framed('explicit', fill('we decided to x\nI chose y\n', MB))],
  ["'because ' × 130k", () => framed('because', fill('because ', MB))],
  ['rationale near-misses', () => framed('rationale', fill('because\nsince\nthe reason is\n', MB))],
  ["'using x ' × 130k", () => framed('using', fill('using x ', MB))],
  ["'using ' + 1 MB word", () => framed('usingword', `using ${'a'.repeat(MB)}`)],
  ["'approach:' near-misses", () => framed('approach', fill('approach:\nstrategy \nsolution:\n', MB))],
  ['anchor + 1 MB of whitespace', () => framed('ws', `we${' \t'.repeat(MB / 4)}x because${'\n '.repeat(MB / 4)}y`)],
  ["'. ' × 500k (half a million sentences)", () => framed('sentences', fill('. ', MB))],
  ["'?!' + whitespace runs", () => framed('punct', fill('?! \t\n\r', MB))],

  // sections.ts: heading and fence lines.
  ["'## ' + 1 MB of spaces + '#'", () => framed('hspaces', `## ${' '.repeat(MB)}#`)],
  ["'## ' + 1 MB of '#'", () => framed('hhashes', `## ${'#'.repeat(MB)}`)],
  ["'#' × 1M at a line start", () => framed('hashes', '#'.repeat(MB))],
  ["'## x' + ' #' × 500k", () => framed('hclose', `## x${fill(' #', MB)}`)],
  ['200k H2 headings', () => framed('headings', fill('## h\n', MB))],
  ["'```' × 330k on one line", () => framed('fencerun', fill('```', MB))],
  ['fence lines × 250k', () => framed('fences', fill('```\n', MB))],
  ['mixed, indented and invalid fences', () => framed('fencemix', fill('~~~\n   ```\n```a`b\n    ```\n````\n', MB))],
  ['unclosed code fence', () => framed('unclosed', `## Code\n\`\`\`ts\n${fill('const x = "[[inside]]";\n', MB)}`)],
  ["1 MB of '\\r'", () => framed('cr', '\r'.repeat(MB))],
  ['CRLF headings and fences', () => framed('crlf', fill('## h\r\n```\r\n[[a]]\r\n```\r\n', MB))],

  // sanitize.ts: escape sequences, NFKC, controls.
  ['ANSI CSI without a final byte', () => framed('csi', `\u001b[${fill('0;', MB)}`)],
  ['unterminated ANSI OSC', () => framed('osc', `\u001b]${'x'.repeat(MB)}`)],
  ['1M ESC bytes', () => framed('esc', '\u001b'.repeat(MB))],
  ["'\\u001b[' × 500k", () => framed('csirun', fill('\u001b[', MB))],
  ['combining marks in reverse canonical order (NFKC reordering)', () => framed('marks', `## Marks\nWe decided to use a${'\u0301'.repeat(MB / 4)}${'\u0316'.repeat(MB / 4)}`)],
  ['1M U+FDFA (18-fold NFKC expansion)', () => framed('fdfa', '\ufdfa'.repeat(MB))],
  ['lone surrogates', () => framed('surrogates', `## Halves\nWe decided to use [[a\ud800b]] because \udfff${fill('\ud800 \udc00x\udbff', MB)}`)],
  ['NUL bytes and binary garbage', () => framed('binary', `## Bytes\nWe decided to keep [[nul\u0000link]] because \u0000\u0000 ${binaryGarbage(MB, 7)}`)],
  ['zero-width and bidi controls', () => framed('bidi', `## Tricks\n${fill(`We decided to ship [[ad${BIDI_AND_INVISIBLE}min]] \u202etxt.exe\u202c because it works. `, MB)}`)],

  // tokens.ts: text the tokenizer treats specially, placed where budgeted lines come from.
  ['special-token text', () => [
    ...framed('special', `## Tokens\n${fill(`We decided to emit ${SPECIAL_TOKENS} [[special]] because it breaks naive tokenizers. `, MB)}`),
    toolMessage('special_tool', 'Ran it.', 'bash', { status: 'error', input: { filePath: `src/${SPECIAL_TOKENS}.ts` }, error: `Error: ${SPECIAL_TOKENS}` }),
  ]],
  ['100k-character CJK run', () => [
    ...framed('cjk', `## 中文\nWe decided to use [[データ構造]] because ${'漢字仮名交じり文'.repeat(12_500)}`),
    toolMessage('cjk_tool', 'Ran it.', 'bash', completed({ filePath: `src/${'漢'.repeat(1_000)}.ts` }, `Error: ${'漢'.repeat(100_000)}`)),
  ]],
  ['100k-emoji run', () => [
    // Odd offsets: a cut at a fixed character count lands inside a surrogate pair.
    ...framed('emoji', `## Emoji\nWe decided to x ${'😀👨\u200d👩\u200d👧'.repeat(25_000)}`, `we decided to x${'😀'.repeat(100_000)}`),
    toolMessage('emoji_tool', 'Ran it.', 'bash', completed({ filePath: `src/${'😀'.repeat(400)}.ts` }, `Error: ${'😀'.repeat(100_000)}\nFAIL x${'😀'.repeat(1_000)}`)),
    toolMessage('emoji_fail', 'Ran it.', 'bash', { status: 'error', input: {}, error: `xy${'😀'.repeat(1_000)}` }),
  ]],
  ["100k '=' run", () => [
    ...framed('equals', `## Rule\nWe decided to draw ${'='.repeat(100_000)}`),
    toolMessage('equals_tool', 'Ran it.', 'bash', completed({ filePath: '='.repeat(1_000) }, `Error: ${'='.repeat(100_000)}`)),
  ]],

  // concepts.ts: `[[ ]]` scans and normalization.
  ["unclosed '[[' × 500k", () => framed('open', `## Links\n${fill('[[', MB)}`)],
  ["'[[a' × 330k then ']'", () => framed('unclosed', `## Links\n${fill('[[a', MB)}]`)],
  ["'[[x]]' × 1M (million-fold links)", () => framed('million', `## Links\n${fill('[[x]]', 5 * MB)}`)],
  ['100k-deep nested links', () => framed('nested', `## Links\n${'[['.repeat(100_000)}a${']]'.repeat(100_000)}`)],
  ['link targets of separators and 15k spaces', () => framed('targets', `## Links\n[[${' '.repeat(15_000)}]] [[${fill('-_/ ', 900)}]] [[${'é'.repeat(5_000)}]]`)],

  // markdown.ts: nesting and constructs micromark resolves in superlinear time, inside the last H2 section.
  ['10,000-deep nested list', () => framed('list', `## Deep list\n${'- '.repeat(10_000)}[[deep-list]]`)],
  ['10,000-deep blockquote', () => framed('quote', `## Deep quote\n${'>'.repeat(10_000)} [[deep-quote]]`)],
  ['quotes inside lists, 4,000 deep', () => framed('quotelist', `## Quote list\n${'> - '.repeat(4_000)}[[deep-mix]]`)],
  ['4,000 setext headings', () => framed('setext', `## Setext\n${'a\n=\n'.repeat(4_000)}`)],
  ['emphasis delimiter runs', () => framed('emphasis', `## Emphasis\n${'*_'.repeat(8_000)}`)],
  ['unclosed link destinations', () => framed('links', `## Destinations\n${'[a]('.repeat(4_000)}`)],

  // tool-signals.ts and working-set.ts: outputs, errors and inputs.
  ['20 MB tool output and 20 MB tool error', () => {
    const huge = `Error: boom\n${'x'.repeat(20 * MB)}\nFAIL test`;
    return framedTools('bigout', 'bash', completed({ command: 'npm test' }, huge), { status: 'error', input: { command: 'npm test' }, error: huge });
  }],
  ['signal-line near-misses', () => framedTools('signals', 'bash', completed({}, fill(`${'a.'.repeat(120)}\n${' '.repeat(239)}Error\nTests: ${' '.repeat(200)}\n(node:1) ${'W'.repeat(200)}\n`, 3_000)))],
  ['20 MB tool input', () => framedTools('bigin', 'write', completed({ filePath: 'src/big.ts', content: 'x'.repeat(20 * MB) }, 'ok'))],
  ['100,000-deep nested tool input', () => [
    ...framedTools('deepin', 'mcp', completed({ filePath: 'src/deep.ts', data: nestedArray(100_000) }, 'ok')),
    // Enough text in the same batch that the inline fallback does not take it.
    textMessage('deepin_text', fill('plain words ', 100_000)),
  ]],
  ['hostile paths', () => framedTools(
    'paths',
    'edit',
    completed({ filePath: '/'.repeat(1_024) }, 'ok'),
    completed({ filePath: './'.repeat(512) }, 'ok'),
    completed({ filePath: '\\'.repeat(1_000) }, 'ok'),
    completed({ filePath: `/work/acme-shop/${'a/'.repeat(MB / 2)}` }, 'ok'),
    completed({ filePath: `src/${BIDI_AND_INVISIBLE}evil\u202egnp.js` }, 'ok'),
    completed({ filePath: 'src/half\ud800.ts' }, 'ok'),
    completed({ filePath: 'src/ctl\u0001\u001b[31m\u007f\u0085.ts' }, 'ok'),
    completed({ filePath: 'src/nul\u0000.ts' }, 'ok'),
    completed({ paths: Array.from({ length: 1_000_000 }, (_, index) => `src/p${index}.ts`) }, 'ok'),
    completed({ patchText: fill('*** Update File: src/patched.ts\n', 20 * MB) }, 'ok'),
    completed({ patchText: `*** Add File: ${'p'.repeat(20 * MB)}` }, 'ok'),
  )],
  ['hostile tool names', () => framedTools('names', `bash${BIDI_AND_INVISIBLE}\u0000\ud800`, { status: 'error', input: {}, error: 'Error: failed' })],

  // Malformed message lists.
  ['malformed messages and parts', () => [
    null,
    undefined,
    42,
    'text',
    true,
    [opening()],
    {},
    { info: null, parts: null },
    { info: 'x', parts: 'not an array' },
    { info: { id: 7, role: {} }, parts: { 0: { type: 'text', text: 'array-like' }, length: 1 } },
    { info: { id: 'm_a' }, parts: [null, 1, 'x', [], { type: 'text' }, { type: 'text', text: null }, { type: 'text', text: 42 }, { type: 'text', text: { toString: 'no' } }] },
    { info: { id: 'm_b', role: 'assistant' }, parts: [{ type: 'tool', tool: 'read' }, { type: 'tool', tool: 'edit', state: 'done' }, { type: 'tool', state: { status: 'completed' } }, { type: 'tool', tool: 7, state: {} }] },
    { info: { id: 'm_c', role: 'assistant' }, parts: [{ type: 'tool', tool: 'edit', state: { status: 'completed', input: { filePath: { evil: true }, paths: 'x' }, output: { not: 'a string' } } }] },
    { info: { id: 'm_d', role: 'assistant' }, parts: [{ type: 'tool', tool: 'edit', state: { status: 'error', input: null, error: 42 } }, { type: 'tool', tool: 'edit', state: { input: [], output: null } }] },
    { info: { id: 'x'.repeat(MB), role: 'x'.repeat(MB) }, parts: [{ type: 'text', text: 'A message with a 1 MB id and role.' }] },
    opening(),
  ]],
  // Past any count a spread into a call's arguments survives (about 120k), which a million still is.
  ['1M null parts in one message', () => [opening(), { info: { id: 'nulls', role: 'assistant' }, parts: new Array<null>(1_000_000).fill(null) }]],
  ['100k tool calls in one message', () => [opening(), {
    info: { id: 'calls', role: 'assistant' },
    parts: Array.from({ length: 100_000 }, (_, index) => ({ type: 'tool', tool: 'read', state: completed({ filePath: `src/f${index}.ts` }, `Error: e${index}`) })),
  }]],
  // Many messages of a few words: about 170 pages of the host's list, read back to the start. A window too long to
  // read whole is the 50 MB session's.
  ['20k tiny messages', () => [opening(), ...Array.from({ length: 20_000 }, (_, index) => textMessage(`tiny_${index}`, `note ${index} about [[tiny-${index % 50}]]`, index % 2 ? 'user' : 'assistant'))]],
  ['one message object 100k times', () => {
    const same = textMessage('same', '## Same\nWe decided to repeat [[same]] because the host sent it again.');
    return [opening(), ...new Array<unknown>(100_000).fill(same)];
  }],
];

/** Every case, by name, built only when asked. */
export const ADVERSARIAL_CASES: readonly AdversarialCaseSource[] = SOURCES.map(([name, messages]) => ({
  name,
  build: () => ({ name, messages: messages() }),
}));

/**
 * The cases one at a time, each built when the iteration reaches it, so at
 * most one is held by the generator.
 */
export function* adversarialCorpus(): Generator<AdversarialCase> {
  for (const source of ADVERSARIAL_CASES) yield source.build();
}

/**
 * Two lines of U+FDFA, which NFKC expands eighteen-fold, and a fence: once
 * enough to kill a 64 MB worker (a stage copied the expanded prose whole).
 */
export function workerExhaustingSession(): unknown[] {
  const line = '\ufdfa'.repeat(MB / 2);
  return framed('exhaust', `${line}\n${line}\n\`\`\`\n`);
}

/** A small, ordinary session that always yields a preservation context. */
export function ordinarySession(): unknown[] {
  return [opening(), textMessage('msg_more', '## Result\nWe will not use [[Memcached]] here since it lacks persistence. Tests pass for the [[API Gateway]].')];
}
