import { describe, expect, it } from 'vitest';
import { commandKey } from '../../../../src/core/extraction/shell/command-key.js';

describe('commandKey', () => {
  it("should key a loop or a conditional by the command inside, never by the shell's own words", () => {
    expect(commandKey('for f in a.json b.json; do\n  jq . "$f"\ndone')).toBe('jq . $f');
    expect(commandKey('for s in api web; do systemctl restart "$s"; done')).toBe('systemctl restart $s');
    expect(commandKey('if ! git diff --quiet; then\n  git stash\nfi')).toBe('git stash');
    expect(commandKey('while read -r id; do gh run view "$id"; done < ids.txt')).toBe('gh run view $id');
  });

  it('should identify a run whatever its cd, pipes and redirections', () => {
    expect(commandKey('cd /srv/app && npx vitest run 2>&1 | tail -30')).toBe('npx vitest run');
    expect(commandKey('npx vitest run > /tmp/out.txt; cat /tmp/out.txt')).toBe('cat /tmp/out.txt');
    expect(commandKey('CI=1 npm test')).toBe('npm test');
    expect(commandKey('$env:PYTHONPATH = "."; & ".venv\\Scripts\\python.exe" "tools\\report.py"')).toBe('python tools\\report.py');
  });

  it('should keep wrappers, which can be what failed', () => {
    expect(commandKey('timeout 60 npm test')).toBe('timeout 60 npm test');
  });
});
