import { describe, expect, it } from 'vitest';
import { commandsRun, isOwnProgram, withoutHeredocBodies } from '../../../../src/core/extraction/concepts/commands-run.js';

describe('withoutHeredocBodies', () => {
  it('should drop the body and the closing word of each here-document', () => {
    const command = "cat > app.env <<'CONF'\nPORT=8080\nmigrate now\nCONF\nsudo systemctl restart app";
    expect(withoutHeredocBodies(command)).toBe("cat > app.env <<'CONF'\nsudo systemctl restart app");
  });

  it('should close a here-document whose closing word ends a quoted remote command', () => {
    const command = 'ssh host "tee /etc/app.conf <<EOF\nkey=value\nEOF"\nkubectl get pods';
    expect(withoutHeredocBodies(command)).toBe('ssh host "tee /etc/app.conf <<EOF\nkubectl get pods');
  });

  it('should leave a here-string and a command without here-documents alone', () => {
    expect(withoutHeredocBodies('grep x <<< "$value"\nls')).toBe('grep x <<< "$value"\nls');
    expect(withoutHeredocBodies('make build')).toBe('make build');
  });
});

describe('commandsRun', () => {
  it('should give each program with the two words after it, past runners and assignments', () => {
    expect(commandsRun('CGO_ENABLED=1 go build -o bin/app ./cmd && sudo systemctl restart app')).toEqual([
      ['go', 'build', '-o'],
      ['systemctl', 'restart', 'app'],
    ]);
  });

  it("should name a program run by its path, the Windows way too, without a launcher's extension", () => {
    expect(commandsRun('.\\gradlew.bat test 2>&1 | Select-String FAIL')).toEqual([['gradlew', 'test', '2>&1'], ['Select-String', 'FAIL']]);
    expect(commandsRun('./mvnw -q verify; C:\\tools\\cmake.exe --build out')).toEqual([['mvnw', '-q', 'verify'], ['cmake', '--build', 'out']]);
  });

  it('should read the command ssh runs on a host', () => {
    expect(commandsRun("ssh -i key.pem admin@10.0.0.5 'journalctl -u app --no-pager'")).toEqual([['journalctl', '-u', 'app']]);
  });
});

describe('isOwnProgram', () => {
  it("should leave out the shell's everyday commands, scripts and here-document lines", () => {
    const programs = commandsRun("python3 - <<'PY'\nimport zipfile\nprint(1)\nPY\nterraform plan && ./deploy.sh && grep -n x f").map(([program = '']) => program);
    expect(programs.filter(isOwnProgram)).toEqual(['terraform']);
  });
});
