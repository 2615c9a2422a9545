import { describe, expect, it } from 'vitest';
import type { Decision } from '../../../../src/core/extraction/decisions/decisions.js';
import { COMMIT_SCORE, deletionDecision, hostDecision, HOST_SCORE, versionControlDecision } from '../../../../src/core/extraction/decisions/work-decisions.js';

describe('versionControlDecision', () => {
  it('should mark a command that undoes the latest commit, worth nothing itself', () => {
    for (const command of ['git revert --no-edit HEAD', 'git reset --hard HEAD~1', 'cd app && git reset HEAD^']) {
      expect(versionControlDecision(command, 7)).toMatchObject({ undoesCommit: true, score: 0, order: 7 });
    }
  });

  it('should not mark a reset that unstages a file or a revert of an older commit', () => {
    expect(versionControlDecision('git reset HEAD src/app.ts', 7)).toBeNull();
    expect(versionControlDecision('git revert 3f2a9c1', 7)).toBeNull();
  });

  it("should take a commit's subject line, after cd and git add", () => {
    const command = 'cd /srv/app && git add src/billing/invoice.ts && git commit -m "billing(fix): round invoice totals per line, not per invoice\n\nKeeps the PDF and the ledger in step."';
    const decision = versionControlDecision(command, 7);
    expect(decision).toMatchObject({ family: 'change', text: 'committed: billing(fix): round invoice totals per line, not per invoice', score: COMMIT_SCORE, order: 7 });
    expect(decision?.context).toContain('Keeps the PDF and the ledger in step.');
  });

  it('should name the line of work: a conventional scope, else the files staged with it', () => {
    const scoped = versionControlDecision('git add ci/release.yml && git commit -m "fix(release): quote the tag in the upload step"', 2);
    expect(scoped).toMatchObject({ line: 'scope:fix(release)' });
    expect(scoped?.context).toContain('(files: ci/release.yml)');
    expect(versionControlDecision('git add src/b.ts src/a.ts && git commit -m "round totals per line"', 2)?.line).toBe('files:src/a.ts src/b.ts');
    expect(versionControlDecision('git add -A && git commit -m "round totals per line"', 2)?.line).toBeUndefined();
  });

  it('should read -am, --message= and a commit run with -C', () => {
    expect(versionControlDecision("git commit -am 'switch the cache to LRU eviction'", 1)?.text).toBe('committed: switch the cache to LRU eviction');
    expect(versionControlDecision('git -C packages/api commit --message="drop the legacy v1 routes"', 1)?.text).toBe('committed: drop the legacy v1 routes');
  });

  it('should say what a stash set aside', () => {
    const decision = versionControlDecision('git stash push -m "WIP-parser-rewrite" src/parser/lexer.ts && git status --short', 3);
    expect(decision?.text).toBe('stashed src/parser/lexer.ts (WIP-parser-rewrite)');
  });

  it('should ignore other git commands, messages built by substitution and other programs', () => {
    expect(versionControlDecision('git status --short && git log --oneline -5', 1)).toBeNull();
    expect(versionControlDecision('git commit -m "$(cat <<\'EOF\'\nmsg\nEOF\n)"', 1)).toBeNull();
    expect(versionControlDecision('echo "git commit -m \'not really a commit\'"', 1)).toBeNull();
    expect(versionControlDecision('git stash', 1)).toBeNull();
    expect(versionControlDecision('npm test', 1)).toBeNull();
  });

  it('should stay bounded on a huge command', () => {
    const command = `git commit -m "${'x'.repeat(2_000_000)}"`;
    const decision = versionControlDecision(command, 1);
    expect(decision === null || decision.text.length <= 120).toBe(true);
    expect(versionControlDecision('git add a.ts && '.repeat(200_000), 1)).toBeNull();
  });
});

describe('deletionDecision', () => {
  it('should name the project files a message deleted, and leave scratch files out', () => {
    const decision = deletionDecision(['src/admin/_form-shared.scss', '/tmp/check.py', 'build/run.log', 'src/admin/_form-shared.scss'], 4);
    expect(decision).toMatchObject({ family: 'deleted', text: 'deleted src/admin/_form-shared.scss', order: 4 });
    expect(deletionDecision(['/tmp/x.txt', 'out/debug.log'], 4)).toBeNull();
    expect(deletionDecision([], 4)).toBeNull();
  });

  it('should show an absolute path by its last folders, and cap how many it names', () => {
    expect(deletionDecision(['/home/dev/shop/src/cart/CartLegacy.java'], 1)?.text).toBe('deleted src/cart/CartLegacy.java');
    const many = Array.from({ length: 9 }, (_, index) => `src/old/part${index}.ts`);
    expect(deletionDecision(many, 1)?.text).toMatch(/^deleted src\/old\/part0\.ts, .* and 5 more$/);
  });
});

describe('hostDecision', () => {
  it('should record a change to the hosted project with the settings it gave', () => {
    const command = 'gh repo edit acme/ledger \\\n  --description "Double-entry ledger service" \\\n  --homepage "https://ledger.example.org" \\\n  --add-topic go --add-topic accounting 2>&1';
    const decision = hostDecision(command, 5);
    expect(decision).toMatchObject({ family: 'change', score: HOST_SCORE, order: 5, line: 'gh repo edit' });
    expect(decision?.context).toBe('gh repo edit acme/ledger: description Double-entry ledger service; homepage https://ledger.example.org; topic go, accounting');
    expect(decision?.text.length).toBeLessThanOrEqual(120);
    expect(hostDecision('gh secret set DEPLOY_KEY < key.pem', 1)?.text).toBe('gh secret set DEPLOY_KEY');
  });

  it('should ignore commands that only read the host', () => {
    expect(hostDecision('gh run list --workflow=deploy.yml --limit=1', 1)).toBeNull();
    expect(hostDecision('gh repo view acme/ledger --json description', 1)).toBeNull();
    expect(hostDecision('npm test', 1)).toBeNull();
  });
});
