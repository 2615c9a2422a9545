import { describe, expect, it } from 'vitest';
import { CLEAN_RUN_PREFIX, resolveByLaterRuns, signalsFromPastedText, signalsFromToolCall } from '../../../../src/core/extraction/problems/tool-signals.js';

const bash = (command: string, output: string, order: number, failed = false) => signalsFromToolCall({ tool: 'bash', input: { command }, output, failed, order });

describe('signalsFromToolCall', () => {
  it("should read a command's output into problems keyed by the command", () => {
    const signals = bash('cd /srv/web && npm run build 2>&1 | tail -40', "Failed to compile.\n./app/page.js\nModule not found: Can't resolve '@/lib/db'\n", 4);
    expect(signals).toHaveLength(1);
    expect(signals[0]).toMatchObject({ type: 'problem', text: "Module not found: Can't resolve '@/lib/db' (./app/page.js)", source: 'npm run build', order: 4 });
  });

  it('should name the command the host killed at its timeout, and keep two such commands apart', () => {
    const killed = 'running 14 tests\n\nbash tool terminated command after exceeding timeout 120000 ms';
    const hang = (command: string, order: number) => bash(command, killed, order).find((signal) => signal.text.startsWith('hung: '));
    const first = hang('cd /repo && npx bats tests/scripts/75-pane-runtime.bats', 3);
    const second = hang('npm run test:e2e -- --grep "checkout flow"', 5);
    expect(first?.text).toBe('hung: `npx bats tests/scripts/75-pane-runtime.bats` terminated after exceeding the 120000 ms timeout');
    expect(second?.text).toBe('hung: `npm run test:e2e -- --grep checkout flow` terminated after exceeding the 120000 ms timeout');
    expect(first?.id).not.toBe(second?.id);
    // Only the program and its first arguments: a long command line is cut at a word.
    const long = hang(`node scripts/migrate.js ${'--table orders '.repeat(12)}`, 7);
    expect(long?.text).toMatch(/^hung: `node scripts\/migrate\.js --table orders[^`]*` terminated after/);
    expect(long?.text.length).toBeLessThanOrEqual(80 + 'hung: `` terminated after exceeding the 120000 ms timeout'.length);
  });

  it('should leave a clean-run marker for a command that reported nothing wrong', () => {
    const [marker] = bash('npm run build', 'Compiled successfully in 3.1s', 9);
    expect(marker).toMatchObject({ id: `${CLEAN_RUN_PREFIX}npm run build`, type: 'success', text: 'Compiled successfully in 3.1s', source: 'npm run build' });
  });

  it('should not read the content that file tools return', () => {
    const output = '12: throw new Error("unreachable");\n13: // FAIL fast';
    const signals = signalsFromToolCall({ tool: 'read', input: { filePath: 'src/a.ts' }, output, failed: false, order: 1 });
    expect(signals.filter((signal) => !signal.id.startsWith(CLEAN_RUN_PREFIX))).toEqual([]);
  });

  it('should report failed calls, except routine edit retries', () => {
    const [denied] = signalsFromToolCall({ tool: 'edit', input: {}, output: 'The edit tool was called with invalid arguments: SchemaError(Missing key\n  at ["filePath"]).', failed: true, order: 2 });
    expect(denied?.text).toBe('edit failed: The edit tool was called with invalid arguments: SchemaError(Missing key at ["filePath"]).');
    for (const routine of [
      'Error: File /srv/a.ts has been modified since it was last read.',
      'You must read the file /srv/a.ts before overwriting it.',
      'Could not find oldString in the file. It must match exactly.',
    ]) {
      expect(signalsFromToolCall({ tool: 'edit', input: {}, output: routine, failed: true, order: 3 })).toEqual([]);
    }
  });

  it('should not take a question the user dismissed for a problem', () => {
    expect(signalsFromToolCall({ tool: 'question', input: {}, output: 'The user dismissed this question', failed: true, order: 5 })).toEqual([]);
    const [refused] = signalsFromToolCall({ tool: 'question', input: {}, output: 'Invalid input: questions must not be empty', failed: true, order: 6 });
    expect(refused?.text).toBe('question failed: Invalid input: questions must not be empty');
  });

  it('should not take a call stopped by an interrupted turn for a problem, and keep an abort the tool itself reports', () => {
    expect(signalsFromToolCall({ tool: 'apply_patch', input: { filePath: 'install/dock.sh' }, output: 'Tool execution aborted', failed: true, order: 7 })).toEqual([]);
    const [aborted] = signalsFromToolCall({ tool: 'webfetch', input: {}, output: 'Request aborted: the server closed the connection', failed: true, order: 8 });
    expect(aborted?.text).toBe('webfetch failed: Request aborted: the server closed the connection');
  });

  it("should read the compiler errors the host appends to a file tool's output, and settle them by a clean edit", () => {
    const output = [
      'Edit applied successfully.',
      '',
      'LSP errors detected in this file, please fix:',
      '<diagnostics file="/home/dev/ledger/Api/Report.cs">',
      'ERROR [88:21] "Invoice" enthält keine Definition für "Net". (Möglicherweise fehlt eine using-Direktive.)',
      '</diagnostics>',
      '',
      'LSP errors detected in other files:',
      '<diagnostics file="/home/dev/ledger/native/sum.c">',
      "ERROR [1:10] 'ledger.h' file not found",
      "ERROR [4:3] Call to undeclared function 'ledger_sum'",
      '</diagnostics>',
    ].join('\n');
    const edit = (order: number, text: string) => signalsFromToolCall({ tool: 'edit', input: { filePath: '/home/dev/ledger/Api/Report.cs' }, output: text, failed: false, order });
    const first = edit(3, output);
    expect(first.filter((signal) => !signal.id.startsWith(CLEAN_RUN_PREFIX)).map((signal) => `${signal.type}: ${signal.text}`)).toEqual([
      'problem: "Invoice" enthält keine Definition für "Net". (/home/dev/ledger/Api/Report.cs:88)',
      "warning: 'ledger.h' file not found (/home/dev/ledger/native/sum.c:1)",
    ]);
    expect(first[0]?.source).toBe('lsp:/home/dev/ledger/Api/Report.cs');
    const settled = resolveByLaterRuns([...first, ...edit(5, 'Edit applied successfully.')]);
    expect(settled.map((signal) => signal.text)).toEqual([
      'resolved: "Invoice" enthält keine Definition für "Net". (/home/dev/ledger/Api/Report.cs:88)',
      "'ledger.h' file not found (/home/dev/ledger/native/sum.c:1)",
    ]);
  });

  it('should key and name a run without the secrets its command passed', () => {
    const token = 'sk-live-4f8Qz7Lm2Nx9Rb6Tc3Vd1Wh5';
    const failed = bash(`curl -s -H "Authorization: Bearer ${token}" https://api.example.com/v1/orders`, 'HTTP/1.1 503 Service Unavailable\n', 3);
    const clean = bash(`curl -s -H "Authorization: Bearer ${token}" https://api.example.com/v1/orders`, '{"orders":[]}', 5);
    const text = JSON.stringify([...failed, ...clean]);
    expect(text.toLowerCase()).not.toContain(token.toLowerCase());
    expect(failed[0]?.source).toContain('[redacted:');
    // The same command still settles its own failure.
    expect(clean[0]?.source).toBe(failed[0]?.source);
  });

  it('should never cut a character in half and stay bounded', () => {
    const lone = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
    const signals = [...bash('make', `Error: ${'😀'.repeat(1_000)}`, 0), ...bash('make', `xy${'😀'.repeat(1_000)}`, 0, true)];
    expect(signals.length).toBeGreaterThanOrEqual(2);
    for (const signal of signals) expect(signal.text).not.toMatch(lone);
    const many = Array.from({ length: 50_000 }, (_, index) => `error: case ${index}q`).join('\n');
    expect(bash('make', many, 0).length).toBeLessThanOrEqual(8);
  });
});

describe('signalsFromPastedText', () => {
  it('should read the console error a person pastes after describing what they did', () => {
    const text = 'when I press save on the orders grid it fails: ordersApi.js:12\nPUT http://localhost:5173/api/orders/7 net::ERR_CONNECTION_REFUSED\n(anonymous)\t@\tGrid.jsx:88';
    expect(signalsFromPastedText(text, 4).map((signal) => signal.text)).toEqual(['PUT localhost:5173/api/orders/7 failed: net::ERR_CONNECTION_REFUSED']);
  });

  it('should take a pasted traceback and nothing from plain prose', () => {
    const text = 'This is what I get:\n\nTraceback (most recent call last):\n  File "app/main.py", line 3, in <module>\nKeyError: \'price\'\n\nCan you fix it?';
    expect(signalsFromPastedText(text, 5).map((signal) => signal.text)).toEqual(["KeyError: 'price' (app/main.py:3)"]);
    expect(signalsFromPastedText('The error is that the page is blank. Error handling looks wrong.', 5)).toEqual([]);
  });
});

describe('resolveByLaterRuns', () => {
  it('should mark a problem resolved when the same or a broader command later ran clean', () => {
    const signals = [
      ...bash('npx vitest run tests/cart.test.ts', ' FAIL  tests/cart.test.ts > totals\nAssertionError: expected 3 to be 4', 1),
      ...bash('timeout 60 npm test', 'zsh:1: command not found: timeout', 2),
      ...bash('npx vitest run 2>&1 | tail -5', 'Tests  40 passed (40)', 3),
      ...bash('npm test', 'Tests  40 passed (40)', 4),
    ];
    const resolved = resolveByLaterRuns(signals);
    expect(resolved.map((signal) => `${signal.type}: ${signal.text}`)).toEqual([
      'warning: resolved: FAIL tests/cart.test.ts > totals: AssertionError: expected 3 to be 4',
      // A clean `npm test` does not settle a missing `timeout`.
      'problem: zsh:1: command not found: timeout',
    ]);
  });

  it('should drop a one-off tool failure that a later call of the same tool recovered from, and keep one that recurs', () => {
    const read = (order: number, failed: boolean, output: string) => signalsFromToolCall({ tool: 'read', input: { filePath: 'src/cart.ts' }, output, failed, order });
    const edit = (order: number, failed: boolean, output: string) => signalsFromToolCall({ tool: 'edit', input: { filePath: 'src/cart.ts' }, output, failed, order });
    const guessed = [...read(2, true, 'File not found: /home/dev/shop/src/carts.ts'), ...read(2, false, '1: export const cart = {};')];
    expect(resolveByLaterRuns(guessed)).toEqual([]);
    const refused = [...read(4, true, 'The user has specified a rule which prevents you from using this tool'), ...read(5, false, '1: x')];
    expect(resolveByLaterRuns(refused).map((signal) => signal.type)).toEqual(['problem']);
    const recurring = [
      ...edit(6, true, 'The edit tool was called with invalid arguments: SchemaError(Missing key at ["oldString"])'),
      ...edit(7, true, 'The edit tool was called with invalid arguments: SchemaError(Missing key at ["filePath"])'),
      ...edit(8, false, 'Edit applied successfully.'),
    ];
    // Kept as pitfalls met: the tool was called wrongly more than once before it worked.
    expect(resolveByLaterRuns(recurring).map((signal) => signal.text.slice(0, 22))).toEqual(['resolved: edit failed:', 'resolved: edit failed:']);
  });

  it('should keep a problem that came after the last clean run', () => {
    const signals = [...bash('cargo build', 'Finished dev profile', 1), ...bash('cargo build', 'error: could not compile `app`', 2)];
    expect(resolveByLaterRuns(signals).map((signal) => signal.type)).toEqual(['problem']);
  });
});
