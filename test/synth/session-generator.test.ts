import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { DEFAULT_PROJECT_ROOT, generateSession, growSession, sessionStyle } from '../../src/synth/session-generator.js';
import { readMessage } from '../../src/main/session/message-view.js';
import type { SessionExport, SessionPart, ToolPart } from '../../src/core/session-types.js';

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

describe('generateSession: what real sessions have', () => {
  const session = generateSession({ seed: 7, targetBytes: 1 * MB });
  const textsBy = (role: 'user' | 'assistant'): string =>
    session.messages
      .filter((message) => message.info.role === role)
      .flatMap((message) => message.parts)
      .map((part) => (part.type === 'text' && typeof part['text'] === 'string' ? part['text'] : ''))
      .join('\n');

  it('should leave summaries of earlier compactions: a compaction part answered by a summary message', () => {
    const starts = session.messages.flatMap((message, index) => (message.parts.some((part) => part.type === 'compaction') ? [index] : []));
    expect(starts.length).toBeGreaterThan(0);
    for (const index of starts) {
      const start = session.messages[index];
      const summary = session.messages[index + 1];
      expect(start?.info.role).toBe('user');
      expect(summary?.info).toMatchObject({ role: 'assistant', summary: true, mode: 'compaction', parentID: start?.info.id });
      const text = summary?.parts.map((part) => (part.type === 'text' && typeof part['text'] === 'string' ? part['text'] : '')).join('');
      expect(text).toMatch(/^## \S/);
      expect(text).toMatch(/^1\. \S/m);
      // The engine sees it as a prior summary.
      expect(readMessage(summary)?.summary).toBe(true);
    }
  });

  it('should fail a build or test run, fix the file it names, and pass the same command again', () => {
    const runs = session.messages.filter((message) => {
      const tools = toolParts({ info: session.info, messages: [message] });
      const failed = tools.findIndex((part) => part.tool === 'bash' && part.state.metadata?.['exit'] === 1);
      if (failed === -1) return false;
      const command = tools[failed]?.state.input['command'];
      const fixed = tools.slice(failed + 1).findIndex((part) => part.tool === 'edit');
      const passed = tools.slice(failed + 1).find((part) => part.tool === 'bash' && part.state.input['command'] === command);
      const file = String(tools[failed + 1 + fixed]?.state.input['filePath'] ?? '').slice(DEFAULT_PROJECT_ROOT.length + 1);
      return fixed !== -1 && passed?.state.metadata?.['exit'] === 0 && file.length > 0 && (tools[failed]?.state.output ?? '').includes(file.split('/').pop() ?? '\0');
    });
    expect(runs.length).toBeGreaterThan(2);
    const failures = toolParts(session).filter((part) => part.state.metadata?.['exit'] === 1).map((part) => part.state.output ?? '').join('\n');
    expect(failures).toMatch(/error TS\d+|FAIL|FAILED|error\[E\d+\]|--- FAIL/);
  });

  it('should touch files through the shell: removals, moves, copies, in-place edits, staging and redirections', () => {
    const commands = toolParts(session).filter((part) => part.tool === 'bash').map((part) => String(part.state.input['command']));
    expect(commands.filter((command) => /^(?:rm|mv|cp|sed -i|git add|python3 .+ > |cat > )/.test(command)).length).toBeGreaterThan(3);
  });

  it('should have the user paste stack traces of other runtimes and prompt templates', () => {
    const user = textsBy('user');
    expect(user).toMatch(/Traceback \(most recent call last\)|Caused by: |goroutine \d+ \[running\]/);
    expect(user).toContain('<task_template>');
  });

  it('should answer with summaries of changes: facts, a root cause and next steps', () => {
    const assistant = textsBy('assistant');
    expect(assistant).toMatch(/^- (?:Changed `\w+` to `\w+`|Renamed `\w+` to `\w+`|Switched .+ to .+|Replaced .+ instead of)/m);
    expect(assistant).toContain('### Root cause');
  });

  it.each([
    ['es', /Decidí|Cambié|Vamos a usar/, /Próximos pasos|Queda pendiente|persiste|congela/],
    ['de', /ersetzt|verwenden jetzt|festgelegt/, /Nächste Schritte|Als Nächstes|weiterhin|stürzt/],
    ['zh', /换成了|决定使用|固定为/, /下一步|接下来|仍然存在|崩溃/],
  ] as const)('should hold the turns of a %s session in that language, with its decision and next-step cues', (language, decision, other) => {
    const held = generateSession({ seed: 31, targetBytes: 300 * KB, language });
    const text = textOf(held);
    expect(text).toMatch(decision);
    expect(text).toMatch(other);
  });

  it('should write no link at all in a session without links', () => {
    const plain = generateSession({ seed: 9, targetBytes: 300 * KB, links: false });
    const text = textOf(plain);
    expect(text).not.toContain('[[');
    expect(text).not.toContain(']]');
    expect(text).toMatch(/We decided to use .+ because .+\./);
  });

  it('should draw each session\'s style from its seed: some without links, some in other languages', () => {
    const styles = Array.from({ length: 40 }, (_, index) => sessionStyle(100 + index));
    expect(styles.filter((style) => !style.links).length).toBeGreaterThan(3);
    expect(new Set(styles.map((style) => style.language)).size).toBeGreaterThanOrEqual(4);
    expect(styles.filter((style) => style.language === 'en').length).toBeGreaterThan(15);
    expect(sessionStyle(12)).toEqual(sessionStyle(12));
    expect(sessionStyle(12, { links: false, language: 'de' })).toEqual({ links: false, language: 'de' });
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
