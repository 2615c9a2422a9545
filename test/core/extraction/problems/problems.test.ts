import { describe, expect, it } from 'vitest';
import { readOutput } from '../../../../src/core/extraction/problems/problems.js';

const texts = (output: string, strict = false): string[] => readOutput(output, { strict }).problems.map((problem) => `${problem.type}: ${problem.text}`);

describe('readOutput', () => {
  it("should read an exception behind an application logger's tag, a bare Error too, even in strict reading", () => {
    const logged = ['[Job Error] sync: TypeError: store.flushAll is not a function', '    at runSync (/srv/app/lib/sync.cjs:48:9)', '    at async main (/srv/app/index.js:12:3)'].join('\n');
    expect(readOutput(logged, { strict: true }).problems.map((problem) => problem.text)).toEqual(['TypeError: store.flushAll is not a function (/srv/app/lib/sync.cjs:48)']);
    expect(readOutput("[Plugin Error] export: Error: Cannot find module './helpers'", { strict: true }).problems.map((problem) => problem.text)).toEqual([
      "Error: Cannot find module './helpers'",
    ]);
    expect(readOutput('[worker] started 4 threads', { strict: true }).problems).toEqual([]);
  });

  it('should turn a Python traceback into its exception with the project frame', () => {
    const output = [
      'Traceback (most recent call last):',
      '  File "/home/dev/shop/tools/report.py", line 14, in <module>',
      '    from shop.pricing import totals',
      '  File "/usr/lib/python3.12/site-packages/pandas/__init__.py", line 3, in <module>',
      "ModuleNotFoundError: No module named 'pyarrow'",
    ].join('\n');
    expect(texts(output)).toEqual(["problem: ModuleNotFoundError: No module named 'pyarrow' (/home/dev/shop/tools/report.py:14)"]);
  });

  it('should pair a failing test with its message (vitest, maven surefire, go, pytest)', () => {
    const vitest = ' FAIL  tests/cart.test.ts > cart > applies the coupon once\nError: Test timed out in 5000ms.\n Test Files  1 failed | 12 passed (13)';
    expect(texts(vitest)).toEqual(['problem: FAIL tests/cart.test.ts > cart > applies the coupon once: Error: Test timed out in 5000ms.']);
    const surefire = [
      '[ERROR] com.acme.orders.OrderServiceTest.cancelsPaidOrder -- Time elapsed: 0.02 s <<< ERROR!',
      'org.mockito.exceptions.misusing.UnnecessaryStubbingException: ',
      '\tat com.acme.orders.OrderService.cancel(OrderService.java:88)',
      '[ERROR] Errors: ',
      '[ERROR]   OrderServiceTest.cancelsPaidOrder » UnnecessaryStubbing',
      '[INFO] BUILD FAILURE',
    ].join('\n');
    expect(texts(surefire)).toEqual(['problem: OrderServiceTest.cancelsPaidOrder: UnnecessaryStubbingException']);
    expect(texts('--- FAIL: TestParseDate (0.00s)\n    date_test.go:31: got 2023-01-02, want 2023-01-01\nFAIL\tacme/dates\t0.01s')).toEqual([
      'problem: TestParseDate: date_test.go:31: got 2023-01-02, want 2023-01-01',
    ]);
    expect(texts('FAILED tests/test_api.py::test_login - AssertionError: assert 401 == 200\n1 failed, 9 passed in 0.31s')).toEqual([
      'problem: FAILED tests/test_api.py::test_login: AssertionError: assert 401 == 200',
    ]);
  });

  it('should read compiler, type-checker and linter lines with their location', () => {
    expect(texts("src/cart.ts(12,5): error TS2322: Type 'string' is not assignable to type 'number'.")).toEqual([
      "problem: TS2322: Type 'string' is not assignable to type 'number'. (src/cart.ts:12)",
    ]);
    expect(texts('[ERROR] /home/dev/api/src/main/java/Api.java:[40,17] cannot find symbol')).toEqual(['problem: cannot find symbol (/home/dev/api/src/main/java/Api.java:40)']);
    expect(texts('/home/dev/web/src/App.tsx\n  7:10  error  \'useMemo\' is defined but never used  no-unused-vars')).toEqual([
      "problem: 'useMemo' is defined but never used [no-unused-vars] (/home/dev/web/src/App.tsx:7)",
    ]);
    expect(texts('error[E0308]: mismatched types\n  --> src/main.rs:4:18\n   |')).toEqual(['problem: error[E0308]: mismatched types (src/main.rs:4:18)']);
    expect(texts("./app/page.js\nModule not found: Can't resolve '@/lib/db'")).toEqual(["problem: Module not found: Can't resolve '@/lib/db' (./app/page.js)"]);
    expect(texts("✘ [ERROR] Can't find stylesheet to import.\n\n    src/app/theme.scss:2:8:\n      2 │ @import '../tokens';")).toEqual([
      "problem: Can't find stylesheet to import. (src/app/theme.scss:2:8)",
    ]);
  });

  it("should read MSBuild's lines in any UI language, with their code and place, and the project's", () => {
    expect(texts('/home/dev/ledger/Api/Report.cs(88,21): error CS1061: "Invoice" enthält keine Definition für "Net". [/home/dev/ledger/Api/Api.csproj]')).toEqual([
      'problem: CS1061: "Invoice" enthält keine Definition für "Net". (/home/dev/ledger/Api/Report.cs:88)',
    ]);
    expect(texts("C:\\dev\\Ledger\\Api\\Report.cs(9,5): avertissement CS0168: La variable 'ex' est déclarée, mais jamais utilisée")).toEqual([
      "warning: CS0168: La variable 'ex' est déclarée, mais jamais utilisée (C:/dev/Ledger/Api/Report.cs:9)",
    ]);
    expect(texts("/home/dev/ledger/Api/Api.csproj : error NU1101: Unable to find package Ledger.Core. No packages exist with this id in source(s): nuget.org")).toEqual([
      'problem: NU1101: Unable to find package Ledger.Core. No packages exist with this id in source(s): nuget.org',
    ]);
    // The hint every message of its kind ends with, and a quoted signature's parameters, say nothing.
    expect(texts("Api/Report.cs(3,14): error CS0246: The type or namespace name 'Money' could not be found (are you missing a using directive or an assembly reference?)")).toEqual([
      "problem: CS0246: The type or namespace name 'Money' could not be found (Api/Report.cs:3)",
    ]);
    expect(texts('Build FAILED.\n\n    0 Warning(s)\n    1 Error(s)')).toEqual(['problem: Build FAILED.']);
  });

  it('should pair a failing test with its message (dotnet test, cargo test, Gradle, Jest)', () => {
    const dotnet = [
      '  Failed Ledger.Tests.ReportTests.SumsNet [8 ms]',
      '  Error Message:',
      '   Assert.Equal() Failure: Values differ',
      '  Stack Trace:',
      '     at Ledger.Tests.ReportTests.SumsNet() in /home/dev/ledger/Tests/ReportTests.cs:line 30',
      'Failed!  - Failed:     1, Passed:    41, Skipped:     0, Total:    42, Duration: 2 s - Ledger.Tests.dll (net8.0)',
    ].join('\n');
    expect(texts(dotnet)).toEqual(['problem: ReportTests.SumsNet: Assert.Equal() Failure: Values differ']);
    expect(readOutput('Bestanden!   : Fehler:     0, erfolgreich:    42, übersprungen:     0, gesamt:    42').success).toMatch(/^Bestanden/);
    expect(readOutput('Fehler!   : Fehler:     2, erfolgreich:    40, übersprungen:     0, gesamt:    42').failed).toBe(true);
    const cargo = "test parse::dates ... FAILED\n\n---- parse::dates stdout ----\nthread 'parse::dates' panicked at src/parse.rs:44:9:\nassertion `left == right` failed\n  left: 3";
    expect(texts(cargo)).toEqual(['problem: parse::dates (src/parse.rs:44): assertion `left == right` failed']);
    expect(texts('LedgerTest > sumsNet() FAILED\n    org.opentest4j.AssertionFailedError at LedgerTest.java:30')).toEqual([
      'problem: LedgerTest > sumsNet(): AssertionFailedError at LedgerTest.java:30',
    ]);
    expect(texts('  ● ledger › sums net\n\n    expect(received).toBe(expected)\n\n    Expected: 4')).toEqual(['problem: ledger › sums net: Expected: 4']);
  });

  it("should read a linker's unresolved symbols and Kotlin's errors under Gradle", () => {
    expect(texts("/usr/bin/ld: main.o: in function `main':\nmain.c:(.text+0x1a): undefined reference to `ledger_sum'\ncollect2: error: ld returned 1 exit status")[0]).toBe(
      "problem: undefined reference to `ledger_sum' (main.c)",
    );
    expect(texts('e: file:///home/dev/ledger/app/src/main/kotlin/Sum.kt:12:5 Unresolved reference: net')).toEqual([
      'problem: Unresolved reference: net (/home/dev/ledger/app/src/main/kotlin/Sum.kt:12)',
    ]);
  });

  it('should read more type checkers, linters, runtimes and runners with their place', () => {
    expect(texts('  /home/dev/shop/cart.py:12:5 - error: "vat" is not defined (reportUndefinedVariable)')).toEqual([
      'problem: "vat" is not defined (reportUndefinedVariable) (/home/dev/shop/cart.py:12)',
    ]);
    expect(texts('shop/cart.py:1:8: F401 [*] `json` imported but unused\nshop/cart.py:9:80: W505 doc line too long')).toEqual([
      'problem: F401: `json` imported but unused (shop/cart.py:1)',
      'warning: W505: doc line too long (shop/cart.py:9)',
    ]);
    expect(texts('PHP Fatal error:  Uncaught Error: Call to undefined function vat() in /srv/shop/cart.php:40')).toEqual([
      'problem: Uncaught Error: Call to undefined function vat() (/srv/shop/cart.php:40)',
    ]);
    expect(texts('(node:4121) UnhandledPromiseRejectionWarning: Error: connect ECONNREFUSED 127.0.0.1:6379')).toEqual([
      'problem: UnhandledPromiseRejectionWarning: Error: connect ECONNREFUSED 127.0.0.1:6379',
    ]);
    expect(texts('Error from server (Forbidden): pods is forbidden: User "ci" cannot list resource "pods"')).toEqual([
      'problem: Forbidden: pods is forbidden: User "ci" cannot list resource "pods"',
    ]);
    expect(texts('╷\n│ Error: Unsupported argument\n│ \n│   on main.tf line 8, in resource "aws_s3_bucket" "logs":')).toEqual(['problem: Error: Unsupported argument']);
    expect(texts('rspec ./spec/cart_spec.rb:14 # Cart adds the tax')).toEqual(['problem: Cart adds the tax (./spec/cart_spec.rb:14)']);
    expect(texts('1) Tests\\CartTest::testTax\nFailed asserting that 3 matches expected 4.')).toEqual([
      'problem: Tests\\CartTest::testTax: Failed asserting that 3 matches expected 4.',
    ]);
    expect(texts('[xUnit.net 00:00:01.20]     Shop.Tests.CartTests.AddsTax [FAIL]\n      Assert.Equal() Failure')).toEqual([
      'problem: Shop.Tests.CartTests.AddsTax: Assert.Equal() Failure',
    ]);
    expect(texts('ERROR in ./src/cart.ts 12:5-9\nModule parse failed: Unexpected token (12:5)')).toEqual([
      'problem: ./src/cart.ts 12:5-9: Module parse failed: Unexpected token (12:5)',
    ]);
  });

  it('should read shell, package manager, logging and host failures', () => {
    expect(texts('zsh:1: command not found: timeout')).toEqual(['problem: zsh:1: command not found: timeout']);
    expect(texts('hadolint not found\nfalling back to a plain docker build')).toEqual(['problem: hadolint not found']);
    expect(texts("grep: The term 'grep' is not recognized as a name of a cmdlet, function, script file, or executable program.")).toEqual([
      "problem: grep: The term 'grep' is not recognized as a name of a cmdlet, function, script file, or executable program.",
    ]);
    expect(texts('yarn : File C:\\tools\\yarn.ps1 cannot be loaded because running scripts is disabled on this system.')).toEqual([
      'problem: yarn : File C:\\tools\\yarn.ps1 cannot be loaded because running scripts is disabled on this system.',
    ]);
    expect(texts('gradle not found on PATH')).toEqual(['problem: gradle not found on PATH']);
    const warnings = [1, 2, 3].map((n) => `/srv/app/.venv/lib/site-packages/joblib/parallel.py:88: FutureWarning: worker ${n} uses the old backend`).join('\n');
    expect(texts(warnings)).toEqual(['warning: FutureWarning: worker 1 uses the old backend (parallel.py:88)']);
    expect(texts('jq: not installed, skipping the JSON check\nGeneral help text follows')).toEqual(['problem: jq: not installed, skipping the JSON check']);
    expect(texts('npm error Missing script: "build"\nnpm error A complete log of this run can be found in: /x.log')).toEqual(['problem: npm error: Missing script: "build"']);
    expect(texts('2026-01-02 10:00:01,123 - ERROR - quotes fetch failed: curl: (28) Operation timed out')).toEqual(['problem: quotes fetch failed: curl: (28) Operation timed out']);
    expect(texts('shell tool terminated command after exceeding timeout 120000 ms. Retry with a larger timeout.')).toEqual([
      'problem: hung: terminated after exceeding the 120000 ms timeout',
    ]);
    expect(texts('npm warn deprecated left-pad@1.0.0: This version has a security vulnerability, upgrade')).toEqual([
      'warning: deprecated left-pad@1.0.0: This version has a security vulnerability, upgrade',
    ]);
  });

  it('should group many tests failing the same way into one line', () => {
    const output = ['a', 'b', 'c', 'd'].map((name) => ` FAIL  tests/${name}.test.ts > suite > case ${name}\nError: Test timed out in 5000ms.`).join('\n');
    expect(texts(output)).toEqual(['problem: Error: Test timed out in 5000ms. in 4 tests: tests/a.test.ts, tests/b.test.ts, tests/c.test.ts, tests/d.test.ts']);
  });

  it('should read script status lines and skip bare logger names', () => {
    expect(texts('Logging in…\n  ❌ ERROR: read ECONNRESET\nERROR:quotes:\nWARNING:app.jobs:nightly export skipped: no rows')).toEqual([
      'problem: ERROR: read ECONNRESET',
      'warning: nightly export skipped: no rows',
    ]);
  });

  it('should drop report noise and merge repeats', () => {
    const output = [
      ' ✓ tests/a.test.ts (3 tests)',
      ' ✗ old reporter line',
      'warning: in the working copy of \'a.txt\', LF will be replaced by CRLF the next time Git touches it',
      '45% |██████████          |',
      'Error: connect ECONNREFUSED 127.0.0.1:5432',
      'Error: connect ECONNREFUSED 127.0.0.1:5433',
    ].join('\n');
    const reading = readOutput(output);
    expect(reading.problems.map((problem) => problem.text)).toEqual(['Error: connect ECONNREFUSED 127.0.0.1:5432']);
  });

  it('should report success only for a clean output', () => {
    expect(readOutput('Tests  12 passed (12)').success).toBe('Tests  12 passed (12)');
    expect(readOutput('Tests  12 passed (12)').failed).toBe(false);
    expect(readOutput('Tests  1 failed | 11 passed (12)')).toMatchObject({ success: null, failed: true });
    // A failure no line names still counts, through the summary.
    expect(texts('[INFO] BUILD FAILURE')).toEqual(['problem: [INFO] BUILD FAILURE']);
  });

  it('should, in strict mode for pasted text, keep traces and leave prose', () => {
    const pasted = "it crashes when I open the page, error: something broke\nTypeError: Cannot read properties of undefined (reading 'map')\n    at List (/home/dev/web/src/List.jsx:12:20)";
    expect(texts(pasted, true)).toEqual(["problem: TypeError: Cannot read properties of undefined (reading 'map') (/home/dev/web/src/List.jsx:12)"]);
  });

  it('should stay bounded and linear on hostile output', () => {
    const many = Array.from({ length: 50_000 }, (_, index) => `Error: case ${index}x`).join('\n');
    expect(readOutput(`${many}\n${'E'.repeat(5_000_000)}\n${'FAIL '.repeat(200_000)}`).problems.length).toBeLessThanOrEqual(8);
    const lone = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
    for (const problem of readOutput(`Error: ${'😀'.repeat(1_000)}`).problems) expect(problem.text).not.toMatch(lone);
  });
});

describe('readOutput (a warning over several lines)', () => {
  it('should read a runtime notice printed as several WARNING lines as one warning, marked a notice by its continuation', () => {
    const output = [
      '[INFO] Running shop.orders.CheckoutServiceTest',
      'WARNING: A terminal agent was attached at run time (/home/dev/.m2/repository/org/agentlib/agent-2.1.jar)',
      'WARNING: Start the runtime with -Xshare:off to see where it came from',
      'WARNING: Attaching agents at run time will be disallowed by default in a future release',
      '[ERROR] Tests run: 4, Failures: 1, Errors: 0, Skipped: 0',
    ].join('\n');
    const warnings = readOutput(output).problems.filter((problem) => problem.type === 'warning');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]?.text).toMatch(/^A terminal agent was attached/);
    expect(warnings[0]?.key.startsWith('notice:')).toBe(true);
  });

  it('should keep two warnings apart when another line comes between them', () => {
    const output = ['WARNING: cache folder /tmp/build is not writable', 'compiling 12 files', 'WARNING: retrying the upload of report.xml'].join('\n');
    expect(readOutput(output).problems.filter((problem) => problem.type === 'warning')).toHaveLength(2);
  });
});
