import { describe, expect, it } from 'vitest';
import type { Decision } from '../../../../src/core/extraction/decisions/decisions.js';
import { identifiersOf, supersededStatements } from '../../../../src/core/extraction/decisions/decision-restatements.js';

const change = (text: string, order: number, extra: Partial<Decision> = {}): Decision => ({ family: 'change', category: 'implementation', text, context: text, order, score: 4.5, ...extra });

describe('identifiersOf', () => {
  it('should keep the names of code and drop plain words', () => {
    expect([...identifiersOf('Make the "Sign up" button text-sm px-2 in loginForm (src/auth/LoginForm.tsx)')].sort()).toEqual(
      ['loginform', 'px-2', 'src/auth/loginform.tsx', 'text-sm'].sort(),
    );
  });
});

describe('supersededStatements', () => {
  it('should supersede a plan step that a later report names with the same identifiers', () => {
    const plan = change('Sign-up button: use text-sm and gap-1.5 on mobile', 10);
    const report = change('Mobile header compacted: text-sm, gap-1.5 and whitespace-nowrap on the sign-up button', 14);
    expect([...supersededStatements([plan, report])]).toEqual([0]);
  });

  it('should keep statements that share fewer identifiers, and never a commit', () => {
    const first = change('Moved parseDate into dateUtils', 3);
    const other = change('parseDate now accepts ISO week dates', 9);
    const commit = change('committed: feat(ui): text-sm and gap-1.5 on the header', 5, { commitSize: 1 });
    const later = change('Header buttons use text-sm and gap-1.5', 8);
    expect(supersededStatements([first, other, commit, later]).size).toBe(0);
  });

  it('should not let a summary item or a todo item supersede what the session said', () => {
    const report = change('Renamed fetchUser to loadUser in userStore', 4);
    const carried: Decision = { ...change('Renamed fetchUser to loadUser in userStore', 20), family: 'carried' };
    expect(supersededStatements([report, carried]).size).toBe(0);
  });
});
