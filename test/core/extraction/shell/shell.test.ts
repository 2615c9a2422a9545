import { describe, expect, it } from 'vitest';
import { joinPath, looksLikePath, shellTouches } from '../../../../src/core/extraction/shell/shell.js';
import { commandKey } from '../../../../src/core/extraction/shell/command-key.js';

const touched = (command: string, workdir: string | null = null): string[] =>
  shellTouches(command, workdir).map((touch) => `${touch.action} ${touch.path}`);

describe('shellTouches', () => {
  it('should read what file commands did, resolved against cd', () => {
    expect(touched("cd /srv/app && sed -i 's/old/new/' src/config.ts && rm -f build.log old/cache.json")).toEqual([
      'cwd /srv/app',
      'edit /srv/app/src/config.ts',
      'delete /srv/app/build.log',
      'delete /srv/app/old/cache.json',
    ]);
    expect(touched('mv src/a.ts src/b.ts && cp templates/base.html public/index.html')).toEqual([
      'delete src/a.ts',
      'write src/b.ts',
      'read templates/base.html',
      'write public/index.html',
    ]);
    expect(touched('chmod +x bin/deploy.sh && touch CHANGELOG.md && cat README.md | head -5')).toEqual([
      'write bin/deploy.sh',
      'write CHANGELOG.md',
      'read README.md',
    ]);
  });

  it('should read git path commands and leave branch names alone', () => {
    expect(touched('git add src/app.ts docs/ && git checkout main && git checkout -- src/old.ts && git rm legacy/x.py')).toEqual([
      'write src/app.ts',
      'write docs',
      'edit src/old.ts',
      'delete legacy/x.py',
    ]);
    expect(touched('git commit -m "fix parser.ts crash" && git push origin feature/login')).toEqual([]);
  });

  it('should take redirections and tee, but not descriptors or /dev/null', () => {
    expect(touched('npm run build > logs/build.txt 2>&1 | tee -a logs/all.txt; node gen.js 2> /dev/null')).toEqual([
      'write logs/build.txt',
      'write logs/all.txt',
      'run gen.js',
    ]);
  });

  it("should read interpreters' scripts, test paths and inline code", () => {
    expect(touched('python3 -u scripts/train.py --epochs 3 data/in.csv')).toEqual(['run scripts/train.py']);
    expect(touched('npx tsx tools/seed.ts && pytest tests/test_api.py::test_login -q && go test ./internal/store/...')).toEqual([
      'run tools/seed.ts',
      'run tests/test_api.py',
      'run internal/store',
    ]);
    expect(touched('python3 -c "import ast; ast.parse(open(\'app/views.py\').read())"')).toEqual(['read app/views.py']);
    expect(touched('python -m py_compile app/models.py app/forms.py')).toEqual(['run app/models.py', 'run app/forms.py']);
  });

  it('should read Windows commands with a workdir', () => {
    const command = '$env:PYTHONPATH = "."; & ".venv\\Scripts\\python.exe" "tools\\report.py"';
    expect(touched(command, 'C:\\Users\\dev\\shop')).toEqual(['cwd C:/Users/dev/shop', 'run C:/Users/dev/shop/tools/report.py']);
  });

  it('should keep the folders of unquoted Windows paths, which a POSIX reader would join', () => {
    expect(touched('python C:\\Users\\dev\\AppData\\Local\\Temp\\opencode\\check_totals.py')).toEqual(['run C:/Users/dev/AppData/Local/Temp/opencode/check_totals.py']);
    expect(touched('cd C:\\work\\shop; Remove-Item build\\old.log; python scripts\\report.py', null)).toEqual([
      'cwd C:/work/shop',
      'delete C:/work/shop/build/old.log',
      'run C:/work/shop/scripts/report.py',
    ]);
    expect(touched('cp \\\\fileserver\\share\\seed.sql db\\seed.sql', 'C:\\work\\shop')).toContain('write C:/work/shop/db/seed.sql');
    // A POSIX escape stays an escape where no Windows path is written.
    expect(touched('rm src/old\\_cache.json')).toEqual(['delete src/old_cache.json']);
  });

  it('should ignore flags, URLs, globs, variables, comments and heredoc bodies', () => {
    expect(touched('curl -sSL https://example.com/install.sh -o "$TMP/x.sh"; ls *.ts')).toEqual([]);
    expect(touched("cat > notes/plan.md <<'EOF'\nrm -rf src/important.ts\nEOF\n# rm secret.txt\necho done")).toEqual(['write notes/plan.md']);
  });

  it('should stay bounded on hostile commands', () => {
    const huge = `rm ${Array.from({ length: 5_000 }, (_, index) => `f${index}.txt`).join(' ')}`;
    expect(shellTouches(huge).length).toBeLessThanOrEqual(48);
    expect(shellTouches('"'.repeat(100_000))).toEqual([]);
    expect(shellTouches(`echo ${'$('.repeat(50_000)}`)).toEqual([]);
  });
});

describe('looksLikePath / joinPath', () => {
  it('should tell paths from words', () => {
    expect(looksLikePath('src/a.ts')).toBe(true);
    expect(looksLikePath('main')).toBe(false);
    expect(looksLikePath('--force')).toBe(false);
    expect(looksLikePath('https://x.org/a.js')).toBe(false);
    expect(looksLikePath('KEY=value.txt')).toBe(false);
  });

  it('should resolve . and .. and unify separators', () => {
    expect(joinPath('/a/b', '../c/./d.ts')).toBe('/a/c/d.ts');
    expect(joinPath('C:\\w\\p', 'src\\x.py')).toBe('C:/w/p/src/x.py');
    expect(joinPath('/a', '/abs/f')).toBe('/abs/f');
  });
});

describe('a command line read again', () => {
  it('should give the same touches and key each time, whichever is asked first, and past the remembered commands', () => {
    const line = 'cd /srv/app && git add src/a.ts && npx vitest run 2>&1 | tail -20';
    const key = commandKey(line);
    const first = touched(line);
    // More distinct lines than are remembered, so the first one is read afresh.
    for (let index = 0; index < 300; index++) touched(`cat notes/${index}.md`);
    expect(touched(line)).toEqual(first);
    expect(commandKey(line)).toBe(key);
    expect(first).toEqual(['cwd /srv/app', 'write /srv/app/src/a.ts']);
    expect(key).toBe('npx vitest run');
  });
});
