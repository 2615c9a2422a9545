/**
 * Hostile inputs for the compacting hook, generated on demand (nothing large
 * is checked in): sizes that stress the engine, strings aimed at each pattern
 * the stages use, characters that break naive text handling, and message
 * lists of the wrong shape. The 50 MB session is in the adversarial corpus
 * (adversarial-corpus.ts), checked there with stricter assertions.
 */

/** One hostile input. */
export interface HostileCase {
  name: string;
  messages: () => unknown[];
}

const text = (id: string, body: string, role = 'assistant'): unknown => ({ info: { id, role }, parts: [{ type: 'text', text: body }] });
const tool = (id: string, output: string): unknown => ({
  info: { id, role: 'assistant' },
  parts: [{ type: 'text', text: '## Run\nRan the [[test-suite]].' }, { type: 'tool', tool: 'bash', state: { status: 'completed', input: { command: 'npm test' }, output } }],
});
const framed = (id: string, body: string): unknown[] => [text(`${id}-0`, '## Start\nWe decided to use [[redis]] for the [[cache-layer]] because it is shared.'), text(id, body)];

function garbage(bytes: number): string {
  let out = '';
  let state = 7;
  for (let index = 0; index < bytes; index++) {
    state = (state * 1103515245 + 12345) % 2147483648;
    out += String.fromCharCode(state % 256);
  }
  return out;
}

function nested(depth: number, prefix: (level: number) => string): string {
  return Array.from({ length: depth }, (_, level) => `${prefix(level)}item [[deep-${level % 7}]]`).join('\n');
}

export const HOSTILE_CASES: readonly HostileCase[] = [
  { name: 'one 5 MB line', messages: () => framed('line', `[[one-line]] ${'word '.repeat(1_000_000)}`) },
  { name: '1 MB without a sentence terminator', messages: () => framed('noterm', `we decided to ${'keep going and '.repeat(70_000)}`) },
  { name: "'we ' × 300k", messages: () => framed('we', 'we '.repeat(300_000)) },
  { name: "'because ' × 200k", messages: () => framed('because', 'because '.repeat(200_000)) },
  { name: "'approach: ' × 100k", messages: () => framed('approach', 'approach: '.repeat(100_000)) },
  { name: "'using x for ' × 100k", messages: () => framed('using', 'using x for '.repeat(100_000)) },
  { name: "'## ' and 1 MB of spaces", messages: () => framed('spaces', `## ${' '.repeat(1_000_000)}x`) },
  { name: 'fence lines × 100k', messages: () => framed('fences', '```\n'.repeat(100_000)) },
  { name: 'unclosed code fence', messages: () => framed('unclosed', `## Code\n\`\`\`ts\n${'const x = "[[inside]]";\n'.repeat(20_000)}`) },
  { name: "'[[' × 500k", messages: () => framed('open', '[['.repeat(500_000)) },
  { name: "'[[a' × 300k then ']'", messages: () => framed('nestedlinks', `${'[[a'.repeat(300_000)}]`) },
  { name: 'a million closed links', messages: () => framed('million', '[[x]]'.repeat(1_000_000)) },
  { name: '10,000-deep nested list', messages: () => framed('list', `## Deep\n${nested(10_000, (level) => '  '.repeat(Math.min(level, 2_000)) + '- ')}`) },
  { name: '10,000-deep blockquote', messages: () => framed('quote', `## Quote\n${'>'.repeat(10_000)} [[deep-quote]]`) },
  { name: 'lone surrogates, NUL and binary garbage', messages: () => framed('binary', `## Bytes\n\ud800 [[a\u0000b]] \udfff ${garbage(500_000)}`) },
  { name: 'zero-width and bidi controls', messages: () => framed('bidi', `## Tricks\n${'[[ad\u200bmin]] \u202etxt.exe\u202c \u2066x\u2069 \ufeff'.repeat(20_000)}`) },
  { name: 'special-token text', messages: () => framed('special', `## Tokens\n${'<|endoftext|> <|im_start|>system [[special]] '.repeat(20_000)}`) },
  { name: '100k CJK characters', messages: () => framed('cjk', `## 中文\n[[データ構造]] ${'漢字仮名交じり文'.repeat(12_500)}`) },
  { name: '100k emoji', messages: () => framed('emoji', `## Emoji\n${'😀👨\u200d👩\u200d👧'.repeat(25_000)}`) },
  { name: "100k '='", messages: () => framed('equals', `## Rule\n${'='.repeat(100_000)}`) },
  { name: 'secrets × 10k', messages: () => framed('secrets', `## Env\n${`API_KEY=${'a1'.repeat(20)} Bearer ${'z9'.repeat(20)}\n`.repeat(10_000)}`) },
  { name: '20 MB tool output', messages: () => [tool('big', `Error: boom\n${'x'.repeat(20 * 1024 * 1024)}\nFAIL test`)] },
  { name: '100k tiny messages', messages: () => Array.from({ length: 100_000 }, (_, index) => text(`t${index}`, `note ${index} about [[tiny-${index % 50}]]`, index % 2 ? 'user' : 'assistant')) },
  {
    name: 'malformed message lists',
    messages: () => [
      null,
      42,
      'text',
      { info: null, parts: null },
      { info: { id: 7, role: {} }, parts: 'not an array' },
      { info: { id: 'a' }, parts: [null, 1, { type: 'text' }, { type: 'text', text: null }, { type: 'text', text: 42 }] },
      { info: { id: 'b', role: 'assistant' }, parts: [{ type: 'tool', tool: 'read' }, { type: 'tool', tool: 'edit', state: 'done' }, { type: 'tool', state: { status: 'completed' } }] },
      { info: { id: 'c', role: 'assistant' }, parts: [{ type: 'tool', tool: 'edit', state: { status: 'completed', input: { filePath: { evil: true } }, output: { not: 'a string' } } }] },
      text('d', '## Fine\nThe [[survivor]] message is ordinary. We decided to keep it because it is long enough to be worth extracting from.'),
    ],
  },
];
