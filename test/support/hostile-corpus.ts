/**
 * Hostile inputs for the compacting hook, generated on demand (nothing large
 * is checked in): strings aimed at patterns the stages use, characters that
 * break naive text handling, secrets, and message lists of the wrong shape.
 * Inputs the adversarial corpus (adversarial-corpus.ts) holds, checked there
 * with stricter assertions, are not repeated here: in the same or a larger
 * size the 5 MB line, the 20 MB tool output and the fence, link, quote, bidi,
 * special-token, CJK, emoji and '=' runs; and a session of tiny messages.
 */
/** One hostile input. */
export interface HostileCase {
  name: string;
  messages: () => unknown[];
}

const text = (id: string, body: string, role = 'assistant'): unknown => ({ info: { id, role }, parts: [{ type: 'text', text: body }] });
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
  { name: '1 MB without a sentence terminator', messages: () => framed('noterm', `we decided to ${'keep going and '.repeat(70_000)}`) },
  { name: "'because ' × 200k", messages: () => framed('because', 'because '.repeat(200_000)) },
  { name: "'approach: ' × 100k", messages: () => framed('approach', 'approach: '.repeat(100_000)) },
  { name: "'using x for ' × 100k", messages: () => framed('using', 'using x for '.repeat(100_000)) },
  { name: "'## ' and 1 MB of spaces", messages: () => framed('spaces', `## ${' '.repeat(1_000_000)}x`) },
  { name: '10,000-deep nested list', messages: () => framed('list', `## Deep\n${nested(10_000, (level) => '  '.repeat(Math.min(level, 2_000)) + '- ')}`) },
  { name: 'lone surrogates, NUL and binary garbage', messages: () => framed('binary', `## Bytes\n\ud800 [[a\u0000b]] \udfff ${garbage(500_000)}`) },
  { name: 'secrets × 10k', messages: () => framed('secrets', `## Env\n${`API_KEY=${'a1'.repeat(20)} Bearer ${'z9'.repeat(20)}\n`.repeat(10_000)}`) },
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
