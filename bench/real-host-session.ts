/**
 * A synthetic session the real OpenCode server will import: the generator's
 * export with the fields `opencode import` (1.18.33) requires and the
 * generator leaves out of its compaction turns and session header, filled
 * with neutral values. The content — text, tool calls, outputs — is the
 * generator's, so the server stores and compacts the same session the other
 * benchmarks extract from.
 */
import { generateSession } from '../src/synth/session-generator.js';

const NO_TOKENS = { input: 0, output: 0, reasoning: 0, cache: { read: 0, write: 0 } };

type Loose = Record<string, unknown>;

/**
 * A session export of about `bytes` that `opencode import` accepts.
 *
 * @param bytes - the size of the generator's export.
 * @param seed - the generator's seed; each seed gives other ids, so several can be imported side by side.
 * @param directory - the project the session belongs to (its tool calls work there).
 * @returns the export and its message count.
 */
export function importableSession(bytes: number, seed: number, directory: string): { json: string; id: string; messages: number } {
  const session = generateSession({ seed, targetBytes: bytes, projectRoot: directory });
  const info = session.info as Loose;
  Object.assign(info, {
    path: '',
    agent: 'build',
    model: { id: 'm', providerID: 'fake', variant: 'default' },
    summary: { additions: 0, deletions: 0, files: 0 },
    cost: 0,
    tokens: NO_TOKENS,
    ...info,
  });
  for (const message of session.messages) {
    const header = message.info as Loose;
    header['agent'] ??= 'build';
    if (header['role'] === 'user') header['model'] ??= { providerID: 'fake', modelID: 'm' };
    if (header['role'] === 'assistant') {
      header['path'] ??= { cwd: directory, root: directory };
      header['cost'] ??= 0;
      header['tokens'] ??= NO_TOKENS;
    }
    for (const part of message.parts as Loose[]) {
      if (part['type'] !== 'step-finish') continue;
      part['tokens'] ??= NO_TOKENS;
      part['cost'] ??= 0;
    }
  }
  return { json: JSON.stringify(session), id: String(info['id']), messages: session.messages.length };
}
