/**
 * What real coding sessions have and tidy templates do not: summaries left
 * by an earlier compaction, build and test runs that fail and then pass,
 * files touched through the shell, stack traces and prompt templates pasted
 * by the user, and answers shaped as summaries ("changed X to Y", root cause,
 * next steps).
 */
import { APPROACHES, between, chance, CHOICES, pick, REASONS, relativePath, repeat, SYMBOLS, type Generator } from './session-content.js';
import { LANGUAGES, type SessionLanguage } from './session-languages.js';

const IDENTIFIERS = ['maxRetries', 'timeoutMs', 'userId', 'createdAt', 'isEnabled', 'pageSize', 'cacheKey', 'baseUrl'] as const;
const PYTHON_FILES = ['app/models/user.py', 'app/routes/orders.py', 'scripts/train_model.py', 'tests/test_orders.py'] as const;
const GO_PACKAGES = ['internal/parse', 'internal/store', 'cmd/server'] as const;

const english = { summary: 'Summary', decisions: 'Key decisions', state: 'Current state', next: 'Next steps' };

function headingsFor(language: SessionLanguage): typeof english {
  return language === 'en' ? english : LANGUAGES[language].headings;
}

/** "Changed `a` to `b` in path": an edit stated as a fact. */
function changeLine(gen: Generator): string {
  const before = pick(gen, IDENTIFIERS);
  const after = pick(gen, IDENTIFIERS.filter((name) => name !== before));
  return pick(gen, [
    `Changed \`${before}\` to \`${after}\` in \`${relativePath(gen)}\``,
    `Renamed \`${pick(gen, SYMBOLS)}\` to \`${pick(gen, SYMBOLS)}\` and updated its callers`,
    `Switched ${pick(gen, CHOICES)} to ${pick(gen, CHOICES)} in \`${relativePath(gen)}\` because ${pick(gen, REASONS)}`,
    `Replaced the manual loop with ${pick(gen, CHOICES)} instead of copying each entry`,
  ]);
}

/**
 * The text of a summary an earlier compaction left: what was done, the key decisions, where things stand,
 * and what comes next, in the session's language.
 */
export function priorSummaryText(gen: Generator, language: SessionLanguage): string {
  const h = headingsFor(language);
  const pack = language === 'en' ? null : LANGUAGES[language];
  const decisions = repeat(gen, 2, 4, (g) => `- ${pack ? pick(g, pack.decisions)(g) : changeLine(g)}`);
  const state = repeat(gen, 1, 2, (g) => `- ${pack ? pick(g, pack.problems)(g) : `\`${relativePath(g)}\` compiles; ${between(g, 1, 4)} tests in \`${relativePath(g)}\` still fail`}`);
  const next = repeat(gen, 1, 3, (g) => `${pack ? pick(g, pack.next)(g) : `Add a test that covers ${pick(g, APPROACHES)}`}`).map((item, index) => `${index + 1}. ${item}`);
  return [`## ${h.summary}`, '', `### ${h.decisions}`, ...decisions, '', `### ${h.state}`, ...state, '', `### ${h.next}`, ...next].join('\n');
}

/** An answer shaped as a summary of changes: facts, a root cause, what comes next. */
export function summaryShapedAnswer(gen: Generator): string {
  return [
    pick(gen, ['## Summary of changes', '## Changes', '## Fixes applied', '## What changed']),
    '',
    ...repeat(gen, 2, 4, (g) => `- ${changeLine(g)}`),
    '',
    '### Root cause',
    `\`${pick(gen, SYMBOLS)}\` read \`${pick(gen, IDENTIFIERS)}\` before the config was loaded, so it was always undefined.`,
    '',
    '### Next steps',
    ...repeat(gen, 1, 3, (g) => `- ${pick(g, ['Run the full suite', 'Add a regression test for', 'Check the migration of'])} ${relativePath(g)}`),
  ].join('\n');
}

/** A command run twice: its failing output, then the passing one after a fix, and the file the failure names. */
export interface FailingRun {
  command: string;
  failure: string;
  success: string;
  file: string;
}

/** A build or test run that fails, for a rerun that passes once the named file is fixed. */
export function failingRun(gen: Generator): FailingRun {
  const kind = between(gen, 0, 4);
  if (kind === 0) {
    const file = relativePath(gen);
    const failure = repeat(gen, 1, 3, (g) => `${file}(${between(g, 3, 220)},${between(g, 1, 40)}): error TS2345: Argument of type 'string | undefined' is not assignable to parameter of type 'string'.`);
    return { command: 'npx tsc --noEmit', failure: `${failure.join('\n')}\n\nFound ${failure.length} error${failure.length > 1 ? 's' : ''} in ${file}`, success: '', file };
  }
  if (kind === 1) {
    const file = relativePath(gen).replace(/^src/, 'test').replace(/(?<!\.test)\.ts$/, '.test.ts');
    const test = `should keep ${pick(gen, IDENTIFIERS)} when the cache is cold`;
    return {
      command: `npx vitest run ${file}`,
      failure: ` FAIL  ${file} > ${test}\nAssertionError: expected undefined to deeply equal { id: 'a1' }\n ❯ ${file}:${between(gen, 10, 90)}:${between(gen, 5, 30)}\n\n Test Files  1 failed (1)\n      Tests  1 failed | ${between(gen, 2, 30)} passed`,
      success: ` ✓ ${file} (${between(gen, 3, 31)} tests) ${between(gen, 4, 300)}ms\n\n Test Files  1 passed (1)`,
      file,
    };
  }
  if (kind === 2) {
    const file = pick(gen, PYTHON_FILES);
    const passed = between(gen, 4, 60);
    return {
      command: `python -m pytest ${file.startsWith('tests/') ? file : 'tests/'} -q`,
      failure: `F..\n=================================== FAILURES ===================================\n___________________________ test_total_includes_tax ___________________________\n    def test_total_includes_tax():\n>       assert order.total() == 110\nE       assert 100 == 110\n${file}:${between(gen, 10, 80)}: AssertionError\n=========================== short test summary info ============================\nFAILED ${file}::test_total_includes_tax - assert 100 == 110\n1 failed, ${passed} passed in 0.${between(gen, 10, 99)}s`,
      success: `${'.'.repeat(Math.min(passed + 1, 40))}\n${passed + 1} passed in 0.${between(gen, 10, 99)}s`,
      file,
    };
  }
  if (kind === 3) {
    const pkg = pick(gen, GO_PACKAGES);
    const file = `${pkg}/${pkg.split('/').pop()}_test.go`;
    return {
      command: 'go test ./...',
      failure: `--- FAIL: TestParseHeader (0.00s)\n    ${file.split('/').pop()}:${between(gen, 10, 90)}: got "v1", want "v2"\nFAIL\nFAIL\texample.com/app/${pkg}\t0.0${between(gen, 10, 99)}s\nFAIL`,
      success: `ok  \texample.com/app/${pkg}\t0.0${between(gen, 10, 99)}s`,
      file,
    };
  }
  const file = 'src/main.rs';
  return {
    command: 'cargo build',
    failure: `error[E0308]: mismatched types\n  --> ${file}:${between(gen, 10, 200)}:${between(gen, 5, 30)}\n   |\n   = note: expected \`u32\`, found \`usize\`\n\nerror: could not compile \`app\` (bin "app") due to 1 previous error`,
    success: `   Compiling app v0.1.0\n    Finished \`dev\` profile [unoptimized + debuginfo] target(s) in ${between(gen, 1, 9)}.${between(gen, 0, 9)}s`,
    file,
  };
}

/** A shell command that touches files without a file tool: removes, moves, copies, in-place edits, staging, scripts, redirections. */
export function fileCommand(gen: Generator): [command: string, output: string] {
  const a = relativePath(gen);
  const b = relativePath(gen);
  return pick(gen, [
    (): [string, string] => [`rm -f ${a}`, ''],
    (): [string, string] => [`mv ${a} ${b.replace(/\.ts$/, '-old.ts')}`, ''],
    (): [string, string] => [`cp ${a} ${b}`, ''],
    (): [string, string] => [`sed -i 's/${pick(gen, IDENTIFIERS)}/${pick(gen, IDENTIFIERS)}/g' ${a}`, ''],
    (): [string, string] => [`git add ${a} ${b} && git commit -m "Fix ${pick(gen, IDENTIFIERS)} handling"`, `[main ${between(gen, 1_000_000, 9_999_999).toString(16)}] Fix handling\n 2 files changed, ${between(gen, 2, 80)} insertions(+), ${between(gen, 1, 40)} deletions(-)`],
    (): [string, string] => [`python3 scripts/migrate.py --dry-run > ${a.replace(/\.ts$/, '.log')}`, ''],
    (): [string, string] => [`cat > ${a.replace(/\.ts$/, '.json')} <<'EOF'\n{ "retries": ${between(gen, 1, 5)} }\nEOF`, ''],
  ])();
}

/** A stack trace from another runtime, as a user pastes it into the chat. */
export function pastedTrace(gen: Generator): string {
  const file = pick(gen, PYTHON_FILES);
  return pick(gen, [
    () => `Traceback (most recent call last):\n  File "/srv/app/${file}", line ${between(gen, 10, 300)}, in handle\n    return self.repo.get(order_id)\n  File "/srv/app/app/store.py", line ${between(gen, 10, 300)}, in get\n    raise KeyError(order_id)\nKeyError: 'ord_${between(gen, 1000, 9999)}'`,
    () => `java.lang.IllegalStateException: Failed to load ApplicationContext\n\tat org.springframework.test.context.cache.DefaultCacheAwareContextLoaderDelegate.loadContext(DefaultCacheAwareContextLoaderDelegate.java:${between(gen, 100, 200)})\n\tat com.example.auth.MfaServiceTest.setUp(MfaServiceTest.java:${between(gen, 20, 90)})\nCaused by: org.mockito.exceptions.misusing.UnnecessaryStubbingException: Unnecessary stubbings detected.`,
    () => `panic: runtime error: index out of range [${between(gen, 1, 9)}] with length ${between(gen, 0, 1)}\n\ngoroutine 1 [running]:\nmain.parseArgs(...)\n\t/srv/app/cmd/server/main.go:${between(gen, 10, 90)}\nexit status 2`,
  ])();
}

/** A prompt template pasted by the user: its headings and imperatives are instructions to follow, not decisions made. */
export function pastedTemplate(gen: Generator): string {
  return [
    pick(gen, ['Use this template for every task:', 'Here is the prompt I use, follow it:', 'Follow this format from now on.']),
    '',
    '<task_template>',
    '## Role',
    'You are a careful senior engineer. Approach: read before you write, and state your assumptions.',
    '## Architecture review',
    'Strategy: list the components, then for each one explain why it exists. We decided to keep answers short because long ones get skimmed.',
    '## Output',
    '- Summary: one paragraph',
    '- Decisions: bullet list, each with its reason',
    '- Next steps: numbered list',
    '</task_template>',
    '',
    `Now apply it to ${relativePath(gen)}.`,
  ].join('\n');
}
