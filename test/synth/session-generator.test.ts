import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { DEFAULT_PROJECT_ROOT, generateSession, growSession, parseSize } from '../../src/synth/session-generator.js';
import type { SessionExport, SessionPart, ToolPart } from '../../src/workers/session-types.js';

const KB = 1024;
const MB = 1024 ** 2;

function bytesOf(session: SessionExport): number {
  return Buffer.byteLength(JSON.stringify(session), 'utf8');
}

function partsOf(session: SessionExport): SessionPart[] {
  return session.messages.flatMap((message) => message.parts);
}

function textOf(session: SessionExport): string {
  return partsOf(session)
    .map((part) => (part.type === 'text' && typeof part['text'] === 'string' ? part['text'] : ''))
    .join('\n');
}

function toolParts(session: SessionExport): ToolPart[] {
  return partsOf(session).filter((part): part is ToolPart => part.type === 'tool');
}

describe('generateSession', () => {
  it('should give the same session for the same seed and another for another seed', () => {
    const first = generateSession({ seed: 42, targetBytes: 100 * KB });
    expect(generateSession({ seed: 42, targetBytes: 100 * KB })).toEqual(first);
    expect(generateSession({ seed: 43, targetBytes: 100 * KB })).not.toEqual(first);
  });

  it.each([50 * KB, 300 * KB, 2 * MB])('should serialise to within 5 %% of %i bytes', (targetBytes) => {
    const bytes = bytesOf(generateSession({ seed: 7, targetBytes }));
    expect(Math.abs(bytes - targetBytes) / targetBytes).toBeLessThanOrEqual(0.05);
  });

  it('should still give a small, valid session for tiny targets', () => {
    for (const targetBytes of [0, 100]) {
      const session = generateSession({ seed: 1, targetBytes });
      expect(session.messages.length).toBeGreaterThan(0);
      expect(bytesOf(session)).toBeLessThan(4 * KB);
    }
  });

  it('should give every message an id, a role, a session id and parts, with unique increasing ids and times', () => {
    const session = generateSession({ seed: 5, targetBytes: 300 * KB });
    const ids = session.messages.map((message) => message.info.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(ids);
    for (const message of session.messages) {
      expect(message.info.id).toMatch(/^msg_\d{12}[0-9A-Za-z]+$/);
      expect(['user', 'assistant']).toContain(message.info.role);
      expect(message.info.sessionID).toBe(session.info.id);
      expect(message.parts.length).toBeGreaterThan(0);
    }
    const times = session.messages.map((message) => message.info.time.created);
    expect(times.every((time, index) => index === 0 || time > (times[index - 1] ?? 0))).toBe(true);
    const partIds = partsOf(session).map((part) => part['id']);
    expect(partIds.every((id) => typeof id === 'string' && id.startsWith('prt_'))).toBe(true);
    expect(new Set(partIds).size).toBe(partIds.length);
    expect(session.messages[0]?.info.role).toBe('user');
  });

  it('should contain headings, links, fenced code, non-ASCII links and decision sentences', () => {
    const text = textOf(generateSession({ seed: 9, targetBytes: 300 * KB }));
    expect(text).toMatch(/^## \S/m);
    expect(text).toMatch(/\[\[[^\]]+ [^\]]+\]\]/);
    expect(text).toMatch(/\[\[[^\]\x00-\x7f]+\]\]/);
    expect(text).toMatch(/^```/m);
    expect(text).toMatch(/^~~~/m);
    expect(text).toMatch(/We decided to use .+ because .+\./);
    expect(text).toMatch(/We will not use .+ since .+\./);
    expect(text).toMatch(/Approach: /);
  });

  it('should contain tool calls under the project root, failed calls and test output', () => {
    const projectRoot = '/srv/app';
    const tools = toolParts(generateSession({ seed: 9, targetBytes: 300 * KB, projectRoot }));
    const fileTools = tools.filter((part) => ['read', 'edit', 'write'].includes(part.tool));
    expect(fileTools.length).toBeGreaterThan(0);
    for (const part of fileTools) expect(String(part.state.input['filePath'])).toMatch(/^\/srv\/app\//);
    expect(tools.some((part) => part.tool === 'bash' && typeof part.state.input['command'] === 'string')).toBe(true);
    expect(tools.some((part) => part.tool === 'grep' && part.state.input['pattern'] && part.state.input['path'])).toBe(true);
    const failed = tools.filter((part) => part.state.status === 'error');
    expect(failed.length).toBeGreaterThan(0);
    expect(failed.every((part) => typeof part.state.error === 'string' && part.state.error.length > 0)).toBe(true);
    const outputs = tools.map((part) => part.state.output ?? '').join('\n');
    expect(outputs).toMatch(/^TypeError: .+\n {4}at /m);
    expect(outputs).toMatch(/^ (?:FAIL|PASS) {2}/m);
  });

  it('should default the project root', () => {
    const session = generateSession({ seed: 2, targetBytes: 20 * KB });
    expect(session.info['directory']).toBe(DEFAULT_PROJECT_ROOT);
  });

  it('should reject a target that is not a number of bytes', () => {
    expect(() => generateSession({ seed: 1, targetBytes: Number.NaN })).toThrow(/options\.targetBytes/);
    expect(() => generateSession({ seed: 1, targetBytes: -1 })).toThrow(/options\.targetBytes/);
  });
});

describe('growSession', () => {
  const session = generateSession({ seed: 5, targetBytes: 200 * KB });

  it('should keep the old messages in order and add new ones of about the requested size', () => {
    const before = structuredClone(session);
    const grown = growSession(session, 50 * KB, 9);
    expect(session).toEqual(before);
    expect(grown.info.id).toBe(session.info.id);
    expect(grown.messages.slice(0, session.messages.length)).toEqual(session.messages);
    expect(grown.messages.length).toBeGreaterThan(session.messages.length);
    const added = bytesOf(grown) - bytesOf(session);
    expect(Math.abs(added - 50 * KB)).toBeLessThanOrEqual(Math.max(2 * KB, 0.05 * 50 * KB));
  });

  it('should give the new messages ids after every old one, also when grown twice', () => {
    const twice = growSession(growSession(session, 30 * KB, 1), 30 * KB, 1);
    const ids = twice.messages.map((message) => message.info.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(ids);
    const partIds = partsOf(twice).map((part) => part['id']);
    expect(new Set(partIds).size).toBe(partIds.length);
    const lastOld = session.messages.at(-1)?.info.time.created ?? 0;
    expect(twice.messages[session.messages.length]?.info.time.created).toBeGreaterThan(lastOld);
  });

  it('should be deterministic for a seed', () => {
    expect(growSession(session, 20 * KB, 4)).toEqual(growSession(session, 20 * KB, 4));
  });
});

describe('parseSize', () => {
  it.each([
    ['512', 512],
    ['2kb', 2 * KB],
    ['100KB', 100 * KB],
    ['1MB', MB],
    ['10mb', 10 * MB],
    ['1.5MB', 1.5 * MB],
    ['64 KB', 64 * KB],
    ['3B', 3],
    ['1GB', 1024 ** 3],
  ])('should read %s as %i bytes', (text, bytes) => {
    expect(parseSize(text)).toBe(bytes);
  });

  it.each(['abc', '', 'MB', '10 TB', '1e3', '0', '0KB', '-5MB', '2GB', '1.1GB'])('should reject %j with a one-line message', (text) => {
    expect(() => parseSize(text)).toThrow(/^invalid size "/);
    try {
      parseSize(text);
    } catch (error) {
      expect((error as Error).message).not.toContain('\n');
    }
  });
});

describe('synth CLI', () => {
  const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
  const run = (...args: string[]) =>
    spawnSync(process.execPath, ['--import', 'tsx', 'src/cli/synth.ts', ...args], { encoding: 'utf8', cwd: repoRoot });

  it('should write a session export as JSON to stdout', () => {
    const result = run('--size', '20KB', '--seed', '3');
    expect(result.status).toBe(0);
    const parsed = JSON.parse(result.stdout) as SessionExport;
    expect(parsed.messages.length).toBeGreaterThan(0);
    expect(parsed).toEqual(generateSession({ seed: 3, targetBytes: 20 * KB }));
  });

  it('should exit 2 with a one-line message for a bad size', () => {
    const result = run('--size', 'nope');
    expect(result.status).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^synth: invalid size "nope".*\n$/);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
  });
});
