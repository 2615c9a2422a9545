import { describe, expect, it } from 'vitest';
import { conceptName, describeEdit, editChanges } from '../../../../src/core/extraction/working-set/edits.js';

describe('editChanges', () => {
  it('should take the old and new text of an edit and of each multi-edit', () => {
    const input = { oldString: 'const limit = 10;', newString: 'const pageLimit = 25;', edits: [{ oldString: 'fetchAll()', newString: 'fetchPage(pageLimit)' }] };
    expect(editChanges(input, 'src/list.ts', () => null)).toEqual([
      { path: 'src/list.ts', before: 'const limit = 10;\nfetchAll()\n', after: 'const pageLimit = 25;\nfetchPage(pageLimit)\n' },
    ]);
  });

  it("should split a patch into each file's removed and added lines", () => {
    const patchText = ['*** Begin Patch', '*** Update File: /w/app/models.py', '@@', '-    return load(path)', '+    return Model.load(path)', '*** Add File: /w/app/util.py', '+def clamp(x):', '*** End Patch'].join('\n');
    const changes = editChanges({ patchText }, null, (raw) => raw.replace('/w/', ''));
    expect(changes).toEqual([
      { path: 'app/models.py', before: '    return load(path)\n', after: '    return Model.load(path)\n' },
      { path: 'app/util.py', before: '', after: 'def clamp(x):\n' },
    ]);
  });
});

const describe_ = (...args: Parameters<typeof describeEdit>) => {
  const described = describeEdit(...args);
  if (!described) throw new Error('expected an edit description');
  return described;
};

describe('describeEdit', () => {
  it('should say which identifiers and values the edit replaced', () => {
    const { observation, terms } = describe_({ path: 'src/list.ts', before: 'const limit = 10;\nfetchAll()', after: 'const pageLimit = 25;\nfetchPage(pageLimit)' }, 'edit', 3);
    expect(observation).toMatchObject({ id: 'edit:src/list.ts', type: 'note', text: 'src/list.ts: limit, fetchAll → pageLimit, fetchPage', order: 3 });
    expect(terms.map((term) => [term.name, term.kind])).toEqual([
      ['page-limit', 'identifier'],
      ['fetch-page', 'identifier'],
      ['fetch-all', 'identifier'],
    ]);
  });

  it('should describe version bumps and additions without code words', () => {
    expect(describe_({ path: 'package.json', before: '"next": "16.2.4"', after: '"next": "15.2.4"' }, 'edit', 1).observation.text).toBe('package.json: 16.2.4 → 15.2.4');
    expect(describe_({ path: 'a.py', before: '', after: 'def retry_budget():\n    return None' }, 'patch', 1).observation.text).toBe('a.py: added retry_budget');
    expect(describe_({ path: 'nav.html', before: '<button class="menu-btn">', after: '<button class="theme-toggle-btn">' }, 'edit', 1).observation.text).toBe('nav.html: menu-btn → theme-toggle-btn');
  });

  it('should keep words with accented letters whole', () => {
    const { observation, terms } = describe_({ path: 'menu.tsx', before: 'const título = "Información";', after: 'const subtítuloMenú = "Información";' }, 'edit', 2);
    expect(observation.text).toBe('menu.tsx: título → subtítuloMenú');
    expect(terms.map((term) => term.name)).toEqual(['subtítulo-menú']);
  });

  it('should say nothing about an edit that changed no token', () => {
    expect(describeEdit({ path: 'a.ts', before: 'f(a,b)', after: 'f(a, b)' }, 'edit', 1)).toBeNull();
  });

  it('should stay bounded on huge edits', () => {
    const before = Array.from({ length: 100_000 }, (_, index) => `oldName${index}`).join(' ');
    const { observation, terms } = describe_({ path: 'x.ts', before, after: before.replaceAll('old', 'new') }, 'edit', 0);
    expect(observation.text.length).toBeLessThanOrEqual(180);
    expect(terms.length).toBeLessThanOrEqual(8);
  });
});

describe('conceptName', () => {
  it('should write identifiers as maenifold concepts', () => {
    expect(conceptName('attendanceDurationMax')).toBe('attendance-duration-max');
    expect(conceptName('HTTPServerConfig')).toBe('http-server-config');
    expect(conceptName('supports_vrr')).toBe('supports-vrr');
  });
});
