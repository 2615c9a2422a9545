import { describe, expect, it } from 'vitest';
import { cuesFor } from '../../../../src/core/text/cues/cues.js';
import { proseItems } from '../../../../src/core/extraction/prose/prose-items.js';
import { isProblemLeadIn, reportedProblems, statedProblems } from '../../../../src/core/extraction/problems/prose-problems.js';

const stated = (text: string, language = 'eng') => statedProblems(proseItems(text), cuesFor(language));
const reported = (text: string, language = 'eng') => reportedProblems(proseItems(text), cuesFor(language));

describe('statedProblems', () => {
  it('should read problem headings in Russian and Polish, and leave a heading of what was fixed', () => {
    const russian = ['### Проблемы', '', '1. **Дубликат не приводит к ошибке**: сервис возвращает строку вместо исключения.'].join('\n');
    expect(stated(russian, 'rus').map((problem) => problem.text)).toEqual(['проблемы: Дубликат не приводит к ошибке: сервис возвращает строку вместо исключения.']);
    const fixed = ['Naprawiono wszystkie problemy w skrypcie startowym:', '', '- Przeniesiono flagę --restart przed nazwę obrazu'].join('\n');
    expect(stated(fixed, 'pol')).toEqual([]);
    const found = ['Problemy z instalacją:', '', '- Port 6334 jest zajęty przez nginx, więc kontener qdrant nie startuje'].join('\n');
    expect(stated(found, 'pol').map((problem) => problem.text)).toEqual(['problemy z instalacją: Port 6334 jest zajęty przez nginx, więc kontener qdrant nie startuje']);
  });

  it('should carry what a sentence ending with a colon announces, past the code it shows', () => {
    const text = [
      '## Will the deploy script run on the new image?',
      '',
      '**Mostly, with one catch:**',
      '',
      'The script should run as is, but there is a problem in the cache step:',
      '',
      '```sh',
      'apk add --no-cache redis6',
      '```',
      '',
      'Alpine 3.20 ships the package as "redis" only, so the step fails.',
    ].join('\n');
    const [problem] = stated(text);
    expect(problem?.text).toContain('problem in the cache step: Alpine 3.20 ships the package as "redis" only');
  });

  it('should take one problem per numbered cause under a root-causes heading, with the cause as its label', () => {
    const text = [
      'I went through the stylesheet and the service.',
      '',
      '## Root causes of the regression',
      '',
      '### 1. Cards look washed out in dark mode',
      '`--surface` is `#2a2a2a` in both themes. The cards inherit it.',
      '',
      '### 2. The save button is disabled forever',
      '`isDirty()` compares the form to itself, so it never changes.',
      '',
      '## Plan',
      '- Give `--surface` a dark value',
    ].join('\n');
    const problems = stated(text);
    expect(problems.map((problem) => problem.origin)).toEqual(['heading', 'heading']);
    expect(problems[0]?.text).toContain('washed out in dark mode: --surface is #2a2a2a');
    expect(problems[1]?.text).toContain('isDirty() compares the form to itself');
  });

  it('should read a current problem under a plan, but not the reasons a fix works', () => {
    const text = [
      '## Plan: keep the search box on every page',
      '### Current problem',
      'The search box lives inside the header, and the header is hidden on the onboarding pages.',
      '### Why this solves the problem',
      '| Option | Effect |',
      '|---|---|',
      '| floating box | visible everywhere |',
    ].join('\n');
    const problems = stated(text);
    expect(problems).toHaveLength(1);
    expect(problems[0]?.text).toContain('header is hidden on the onboarding pages');
  });

  it('should take an admitted mistake with what it was about, and a blocker', () => {
    const problems = stated([
      'Good catch — I was wrong there: I assumed the worker would run on Deno, so I wrote the schema with Deno-only imports.',
      '',
      "Since this workspace is read-only for me right now, I can't save the plan file yet.",
    ].join('\n'));
    expect(problems.map((problem) => problem.origin)).toEqual(['cause', 'cause']);
    expect(problems[0]?.text).toContain('Deno-only imports');
    expect(problems[1]?.text).toContain('read-only');
  });

  it('should join a short sentence naming the exception to the sentence it leans on', () => {
    const problems = stated('Veo que el backend de Wayland no define `set_scale`. Por eso la clase base lanza NotImplementedError. Lo agrego ahora:', 'spa');
    expect(problems).toHaveLength(1);
    expect(problems[0]?.text).toBe('Veo que el backend de Wayland no define set_scale. Por eso la clase base lanza NotImplementedError.');
  });

  it('should read failures among the findings of a compaction summary', () => {
    const text = ['## Discoveries', '- The importer returns 3 columns while both callers unpack 2 (the main bug).', '- The parser is fast enough for 1 GB files.'].join('\n');
    expect(stated(text).map((problem) => problem.text)).toEqual(['The importer returns 3 columns while both callers unpack 2 (the main bug).']);
  });

  it('should read the parts a progress table puts at nothing done as one gap', () => {
    const table = ['| Part | Plan | State | Done |', '|---|---|---|---|', '| Export | CSV and XLSX | finished | 100% |', '| Search | full-text index | not started | 0% |', '| Sync | offline queue | missing | 0 % |', '| Audit log | per-user trail | partly | 40% |'].join('\n');
    expect(stated(table)).toEqual([{ origin: 'heading', text: 'not started (0%): Search; Sync', index: 1 }]);
  });

  it('should not take a success report or a handled exception for a problem', () => {
    expect(stated('Build succeeds with zero errors. Here is what changed:\n\n- Added a handler for `TimeoutException` in the poller.')).toEqual([]);
  });
});

describe('isProblemLeadIn', () => {
  it('should find the problem named at the start of a sentence, in English and Spanish', () => {
    expect(isProblemLeadIn('The root cause is a stale lock file in the cache folder.', cuesFor('eng'))).toBe(true);
    expect(isProblemLeadIn('El problema está en la versión del paquete.', cuesFor('spa'))).toBe(true);
    expect(isProblemLeadIn('I fixed the issue in the parser and reran the tests.', cuesFor('eng'))).toBe(false);
  });
});

describe('reportedProblems', () => {
  it('should read what the code should do or used to do as a problem the user reports', () => {
    const problems = reported('the invoice should not be emailed before the payment clears. also it used to show the tax line, now it is gone');
    expect(problems.map((problem) => problem.origin)).toEqual(['expect']);
    expect(reported('the export crashes on empty rows')[0]?.origin).toBe('user');
    expect(reported('add a dark mode toggle to the header')).toEqual([]);
  });

  it("should keep one message's report as one problem, its sentences in order", () => {
    const problems = reported('The sidebar is broken on phones. It used to collapse, now it covers the page. Please fix it and redeploy.');
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({ origin: 'user', text: 'The sidebar is broken on phones. It used to collapse, now it covers the page.' });
  });
});

describe('statedProblems (asides)', () => {
  it('should not take a problem the message names only to set it aside', () => {
    expect(stated('It is not the main issue, but Image::pixel still shows up in the profile.')).toEqual([]);
    expect(stated('Potential issue: the retry loop re-reads the token each time, but that is fine for a CLI.')).toEqual([]);
    const solved = ['Keeping one file per page:', '', '- this avoids the splitting problem entirely because each page is already one topic'].join('\n');
    expect(stated(solved)).toEqual([]);
    expect(stated('No es el problema principal, pero el índice de la tabla tarda en cargar.', 'spa')).toEqual([]);
    // One set aside to state another is still a problem.
    const [problem] = stated('The cache is not the problem; the root cause is that the key ignores the locale, so every request misses.');
    expect(problem?.text).toContain('the key ignores the locale');
  });
});
