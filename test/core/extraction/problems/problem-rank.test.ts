import { describe, expect, it } from 'vitest';
import { MAX_OPEN_PROBLEMS, SAID_PREFIX, problemValue, rankProblems } from '../../../../src/core/extraction/problems/problem-rank.js';
import type { Observation } from '../../../../src/core/extraction/observations.js';

const obs = (id: string, type: Observation['type'], text: string, order: number): Observation => ({ id, type, text, order, frequency: 1 });

describe('problemValue', () => {
  it("should value the answer an inline script choked on above the script's own exception", () => {
    const answer = problemValue(obs('problem:api', 'problem', 'API error unauthorized: Bad credentials', 8), 10);
    const script = problemValue(obs('problem:keyerror', 'problem', "KeyError: 'id' (<string>:1)", 9), 10);
    const project = problemValue(obs('problem:keyerror2', 'problem', "KeyError: 'id' (orders.py:41)", 9), 10);
    expect(answer).toBeGreaterThan(script);
    expect(project).toBeGreaterThan(script);
  });

  it('should value a stated diagnosis over a tool failure, and a failed look-up of a missing path lowest', () => {
    const diagnosis = problemValue(obs(`${SAID_PREFIX}cause:x`, 'problem', 'Root cause: the cache key ignores the locale', 10), 10);
    const refused = problemValue(obs('problem:edit', 'problem', 'edit failed: The user has specified a rule which prevents you from using this tool', 10), 10);
    const lookup = problemValue(obs('problem:read', 'problem', 'read failed: File not found: src/styles.css', 10), 10);
    expect(diagnosis).toBeGreaterThan(refused);
    expect(refused).toBeGreaterThan(lookup);
  });

  it('should value a warning from the project above an installed library warning about itself', () => {
    const [own, library] = ['pywarning:DeprecationWarning:jobs.py:4', 'pywarning:lib:FutureWarning:base.py:90'].map((key) =>
      problemValue(obs(`warning:${key}`, 'warning', 'Warning: the default will change in the next release (x.py:1)', 5), 5));
    expect(own).toBeGreaterThan(library ?? 0);
  });
});

describe('problemValue (other files)', () => {
  it("should value another file's compiler error lowest, however often it recurs", () => {
    const other = { ...obs('warning:lsp-other:sum.c: ledger.h file not found', 'warning', "'ledger.h' file not found (native/sum.c:1)", 5), frequency: 12 };
    const own = obs('warning:pywarning:DeprecationWarning:jobs.py:4', 'warning', 'DeprecationWarning: utcnow is deprecated (jobs.py:4)', 5);
    expect(problemValue(other, 5)).toBeLessThan(problemValue(own, 5));
    expect(problemValue(other, 5)).toBe(problemValue({ ...other, frequency: 1 }, 5));
  });
});

describe('rankProblems', () => {
  it('should merge near repeats into the better one and keep other observations as they are', () => {
    const input = [
      obs('file:a', 'file', 'src/a.ts', 1),
      obs('problem:tool', 'problem', "ModuleNotFoundError: No module named 'xgboost' (app/model.py:12)", 2),
      obs(`${SAID_PREFIX}cause:k`, 'problem', "The model cannot load: no module named 'xgboost' in the venv (app/model.py)", 3),
    ];
    const ranked = rankProblems(input, 3);
    expect(ranked.map((observation) => observation.id)).toEqual(['file:a', `${SAID_PREFIX}cause:k`]);
    expect(ranked[1]?.frequency).toBe(2);
  });

  it('should keep errors of one compiler template apart when they name other identifiers, and merge module paths that fail alike', () => {
    const members = [
      obs('problem:a', 'problem', "CS0117: 'RowProps' does not contain a definition for 'Header' (Api/Table.cs:12)", 1),
      obs('problem:b', 'problem', "CS0117: 'RunProps' does not contain a definition for 'Bold' (Api/Table.cs:40)", 2),
    ];
    expect(rankProblems(members, 2)).toHaveLength(2);
    const modules = [
      obs('problem:c', 'problem', "Module not found: Can't resolve '@/lib/api' (./app/login/page.js)", 1),
      obs('problem:d', 'problem', "Module not found: Can't resolve '@/hooks/useSocket' (./app/orders/page.js)", 2),
    ];
    expect(rankProblems(modules, 2)).toHaveLength(1);
  });

  it('should keep at most the cap of open problems, the most valuable first, in their order', () => {
    const missing = ['docs/intro.md', 'src/legacy/io.ts', 'lib/compat.js', 'tests/old_spec.rb', 'config/dev.yaml', 'tools/gen.py'];
    const lookups = missing.map((path, index) => obs(`problem:read${index}`, 'problem', `read failed: File not found: ${path}`, 20 + index));
    const statements = [
      'the sidebar overflows its card on narrow screens',
      'login redirects twice after token refresh',
      'export writes CSV headers in the wrong order',
      'search ignores accented letters entirely',
      'uploads above 10 MB time out silently',
      'dark mode leaves tooltips unreadable',
      'pagination skips the last page of results',
      'the retry loop never backs off between attempts',
      'webhooks arrive twice when the queue restarts',
    ];
    const stated = statements.map((text, index) => obs(`${SAID_PREFIX}heading:${index}`, 'problem', `issues: ${text}`, index));
    const ranked = rankProblems([...stated, ...lookups], 30);
    expect(ranked).toHaveLength(MAX_OPEN_PROBLEMS);
    // The failed look-ups are one repeated problem, and the least valuable: none survives nine stated ones.
    expect(ranked.every((observation) => observation.id.startsWith(SAID_PREFIX))).toBe(true);
    expect(ranked.map((observation) => observation.order)).toEqual([...ranked.map((observation) => observation.order)].sort((a, b) => a - b));
    expect(rankProblems(lookups, 30)).toEqual([{ ...lookups[5], frequency: 6 }]);
  });
});

describe('rankProblems (editor diagnostics)', () => {
  const lsp = (id: string, type: Observation['type'], text: string, order: number, file: string): Observation => ({ ...obs(id, type, text, order), source: `lsp:${file}` });

  it("should tell one file's burst of editor errors as one problem, leaving room for the session's own", () => {
    const burst = [
      lsp('problem:lsp:a', 'problem', "Cannot find name 'loadTags'. (site/build.ts:210)", 4, 'site/build.ts'),
      lsp('problem:lsp:b', 'problem', "Property 'tags' does not exist on type 'Page'. (site/build.ts:233)", 4, 'site/build.ts'),
      lsp('problem:lsp:c', 'problem', "Cannot find name 'splitBlocks'. Did you mean 'splitBlock'? (site/build.ts:251)", 4, 'site/build.ts'),
      lsp('problem:lsp:d', 'problem', "Argument of type 'string | undefined' is not assignable to parameter of type 'string'. (site/build.ts:300)", 4, 'site/build.ts'),
    ];
    const said = obs(`${SAID_PREFIX}cause:x`, 'problem', 'Root cause: the posts folder check used a file handle on a directory, so the list was empty', 2);
    const ranked = rankProblems([...burst, said], 5);
    const problems = ranked.filter((observation) => observation.type === 'problem');
    expect(problems).toHaveLength(2);
    expect(problems.some((observation) => observation.id === said.id)).toBe(true);
    expect(problems.find((observation) => observation.id !== said.id)?.text).toMatch(/\(and 3 more LSP errors in this file\)$/);
  });

  it('should keep the diagnostics of different files, and settled ones apart from open ones', () => {
    const ranked = rankProblems(
      [
        lsp('problem:lsp:a', 'problem', "No overload for method 'CreateSlider' takes 2 arguments (Ui/Painter.cs:63)", 3, 'Ui/Painter.cs'),
        lsp('problem:lsp:b', 'problem', "The name 'ThemeStories' does not exist in the current context (Ui/Stories.cs:41)", 3, 'Ui/Stories.cs'),
        lsp('resolved:problem:lsp:c', 'warning', "resolved: No overload for method 'CreateToggle' takes 2 arguments (Ui/Painter.cs:67)", 2, 'Ui/Painter.cs'),
        lsp('resolved:problem:lsp:d', 'warning', "resolved: No overload for method 'CreateDropdown' takes 2 arguments (Ui/Painter.cs:79)", 2, 'Ui/Painter.cs'),
      ],
      3,
    );
    expect(ranked.filter((observation) => observation.type === 'problem')).toHaveLength(2);
    const met = ranked.filter((observation) => observation.type === 'warning');
    expect(met).toHaveLength(1);
    expect(met[0]?.text).toMatch(/\(and 1 more LSP error in this file\)$/);
  });
});

describe('rankProblems (compatibility notices)', () => {
  it("should leave a library's deprecations, future-release and version notices out of the problems met, but not a security notice or the project's own deprecation", () => {
    const ranked = rankProblems(
      [
        obs('warning:pywarning:lib:FutureWarning:amp.py:12', 'warning', "FutureWarning: amp.Scaler(args...) is deprecated. Please use amp.Scaler('cuda', args...) instead. (amp.py:12)", 1),
        obs('warning:own', 'warning', 'warning: loadConfig is deprecated, use readSettings instead (src/app/config.ts:40)', 1),
        obs('warning:future', 'warning', 'The bundler will no longer work with plugin hooks in future releases of the runtime', 2),
        obs('warning:version', 'warning', 'InconsistentVersionWarning: Trying to load encoder OneHotEncoder from version 1.4.0 when using version 1.5.2 (base.py:380)', 3),
        obs('warning:notice:jvm', 'warning', 'A terminal agent was attached at run time (agent-2.1.jar)', 3),
        obs('warning:cve', 'warning', 'deprecated left-pad@1.1.0: This version has a security vulnerability, upgrade to 1.3.0', 4),
        obs('warning:real', 'warning', 'resolved: the upload of report.xml timed out twice before it went through', 5),
      ],
      5,
    );
    expect(ranked.map((observation) => observation.id)).toEqual(['warning:own', 'warning:cve', 'warning:real']);
  });
});
