import { describe, expect, it } from 'vitest';
import { readOpsLine } from '../../../../src/core/extraction/problems/ops-readers.js';
import { ReadingState } from '../../../../src/core/extraction/problems/reading-state.js';

const read = (...lines: string[]): string[] => {
  const state = new ReadingState(8, false);
  for (const line of lines) readOpsLine(line, state);
  return state.problems.map((problem) => `${problem.type}: ${problem.text}`);
};

describe('readOpsLine', () => {
  it('should read structured log lines at an error level, in any case, JSON or logfmt', () => {
    expect(read('{"time":"2026-03-01T09:00:00Z","level":"ERROR","msg":"cannot open queue","error":"open /var/lib/q/db: permission denied"}')).toEqual([
      'problem: cannot open queue: open /var/lib/q/db: permission denied',
    ]);
    expect(read('Mar 01 09:00:00 box api[88]: {"level":"warn","msg":"slow query","ms":1200}')).toEqual(['warning: slow query']);
    expect(read('{"level":50,"time":1,"msg":"payment webhook rejected"}')).toEqual(['problem: payment webhook rejected']);
    expect(read('time=2026-03-01T09:00:00Z level=error msg="smtp dial failed" err="dial tcp 10.0.0.5:25: i/o timeout"')).toEqual([
      'problem: smtp dial failed: dial tcp 10.0.0.5:25: i/o timeout',
    ]);
    expect(read('{"level":"info","msg":"listening on :8080"}')).toEqual([]);
  });

  it("should read a unit's failed main process once however often it restarts", () => {
    const line = 'Mar 01 09:00:01 box systemd[1]: queue.service: Main process exited, code=exited, status=217/USER';
    expect(read(line, line.replace('09:00:01', '09:00:06'))).toEqual(['problem: queue.service: main process exited, code=exited, status=217/USER']);
    expect(read('Mar 01 09:00:01 box systemd[1]: queue.service: Main process exited, code=exited, status=0/SUCCESS')).toEqual([]);
    expect(read('Mar 01 09:00:01 box systemd[1]: Failed to start Queue worker.')).toEqual(['problem: Failed to start Queue worker.']);
    expect(read('Process: 812 ExecStart=/usr/local/bin/queue (code=exited, status=203/EXEC)', 'Main PID: 812 (code=exited, status=203/EXEC)')).toEqual([
      'problem: main process exited, code=exited, status=203/EXEC',
    ]);
  });

  it('should read failed CI runs, piped or on a terminal, once per workflow and branch', () => {
    expect(read(
      'completed\tfailure\tbump node\tRelease\tmain\tpush\t7712340011\t12s\t2026-03-01T09:00:00Z',
      'completed\tfailure\tfix tag\tRelease\tmain\tpush\t7712340012\t9s\t2026-03-01T09:10:00Z',
      'completed\tsuccess\tdocs\tLint\tmain\tpush\t7712340013\t30s\t2026-03-01T09:20:00Z',
    )).toEqual(['problem: CI workflow Release failed on main (bump node)']);
    expect(read('X  bump node  Release  main  push  7712340011  12s  3m')).toEqual(['problem: CI workflow Release failed on main (bump node)']);
  });

  it('should read a server error in the response headers', () => {
    expect(read('HTTP/1.1 503 Service Unavailable', 'HTTP/2 200', '< HTTP/1.1 404 Not Found')).toEqual(['problem: HTTP 503 Service Unavailable from the server']);
  });

  it('should read the error body a JSON API answers with, and merge its repeats', () => {
    const denied = 'PUT quota: {"error":{"code":"unauthorized","message":"Bad credentials","expired":true}}';
    expect(read(denied, denied.replace('quota', 'limits'))).toEqual(['problem: API error unauthorized: Bad credentials']);
    expect(read('{"error":{"code":400,"message":"Field \\"name\\" is read-only","status":"INVALID_ARGUMENT"}}')).toEqual([
      'problem: API error 400: Field "name" is read-only',
    ]);
    expect(read('{"error":"missing signature header"}')).toEqual(['problem: API error: missing signature header']);
    expect(read('{"errors":[{"message":"Resource not accessible by integration","type":"FORBIDDEN"}]}')).toEqual([
      'problem: API error FORBIDDEN: Resource not accessible by integration',
    ]);
  });

  it('should not take an answer whose error field is empty for an error', () => {
    expect(read('[{"state":"DONE","error":null}]', '{"ok":true,"errors":[]}', '{"id":4,"error_text":null}')).toEqual([]);
  });
});
