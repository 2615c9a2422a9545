/**
 * The first prompt of a fresh real OpenCode server, for `bench:host`: a new
 * `opencode serve` whose project already has memory (a compaction note of
 * the project and a few notes of its own that link its concepts), asked at
 * once for its configuration (which loads the project, and with it the
 * plugin), a session and a prompt, as `opencode run "…"` does. The time is
 * taken from that first request to the prompt's answer; the variants run in
 * alternation, each round on a new server, so the machine's load falls on
 * both alike.
 */
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { formatFrontmatter, memoryFilePath, noteLocation } from '../src/core/memory/memory-format.js';
import type { ItemKind, ItemSource, MemoryItem } from '../src/core/memory/item-kinds.js';
import { buildSessionNote } from '../src/main/compaction/compaction-note.js';
import { resolveProject } from '../src/main/shared/project.js';
import { projectApi } from '../support/opencode/api.js';
import { startOpenCode } from '../support/opencode/opencode-server.js';
import { round1 } from './real-host-probe.js';

/** One fresh server's first prompt. */
export interface FirstPromptFigures {
  /** From the first request to the server until the first prompt's answer. */
  total_ms: number;
  /** The prompt's own request: the model call, the system transform and whatever the plugin makes it wait for. */
  prompt_ms: number;
  status: number;
  /**
   * CPU time the server's threads had used by then (Linux, from `/proc`; `null` elsewhere): all of them,
   * and the worker threads alone (Bun names them `Worker`; the host starts none of its own for a prompt).
   * Unlike the wall-clock figures, this hardly moves with the machine's load.
   */
  cpu_ms: { total: number; workers: number } | null;
  /** The plugin's session-start line, when it logged one. */
  plugin_log: string | null;
}

/** How long the first prompt may take before the round counts as failed. */
const PROMPT_TIMEOUT_MS = 120_000;

/**
 * Writes what a project that compacted once before holds: its compaction note and a few notes of the
 * person's own that link its concepts, so session start has a project memory and graph context to build.
 *
 * @param memoryDir - `$MAENIFOLD_ROOT/memory`.
 * @param projectDir - the project's folder (its key is a hash of its real path).
 */
export async function seedProjectMemory(memoryDir: string, projectDir: string): Promise<void> {
  const project = resolveProject('', projectDir);
  const stamp = '2026-11-30T10:00:00.000Z';
  const meta = { type: 'memory', status: 'saved', created: stamp, modified: stamp };
  const write = async (folder: string, title: string, tags: readonly string[], content: string): Promise<void> => {
    const { slug, uri } = noteLocation(folder, title);
    const body = content.trimStart().startsWith('# ') ? content : `# ${title}\n\n${content}`;
    const path = memoryFilePath(memoryDir, uri);
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, formatFrontmatter({ title, permalink: slug, ...meta, tags: [...tags] }) + body);
  };
  const item = (kind: ItemKind, text: string, source: ItemSource = 'heuristic'): MemoryItem => ({ kind, text, source });
  const note = buildSessionNote(project, 'ses_seed', [
    item('decision', 'keep the cache layer in front of redis, since every read went to the database', 'model'),
    item('decision', 'page the session reads at 64 KB'),
    item('problem', 'the cache test fails when redis is down'),
    item('next', 'add a metric for cache hits', 'model'),
    item('concept', 'cache-layer'),
    item('concept', 'redis'),
  ], new Date(stamp));
  await write(note.folder, note.title, note.tags, note.content);
  for (let index = 0; index < 6; index++) {
    await write(`projects/${project.name}`, `${project.name} notes ${index}`, [], `How [[${project.name}]] uses the [[cache-layer]] with [[redis]], and why the [[worker-pool]] reads sessions in pages.\n`);
  }
}

/** CPU time of a process's threads, all and workers, from `/proc/<pid>/task/<tid>/stat` (clock ticks of 10 ms). */
async function threadCpu(pid: number): Promise<FirstPromptFigures['cpu_ms']> {
  try {
    let total = 0;
    let workers = 0;
    for (const tid of await readdir(`/proc/${pid}/task`)) {
      const stat = await readFile(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      // Fields after the name: state is the first, utime the 12th and stime the 13th.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const ms = (Number(fields[11]) + Number(fields[12])) * 10;
      total += ms;
      if (name === 'Worker') workers += ms;
    }
    return { total, workers };
  } catch {
    return null;
  }
}

/**
 * Starts a new server for `dir`, asks for its configuration, a session and one prompt at once, and stops it.
 *
 * @param binary - the OpenCode binary.
 * @param dir - the project.
 * @param env - the server's isolated environment.
 */
export async function measureFirstPrompt(binary: string, dir: string, env: NodeJS.ProcessEnv): Promise<FirstPromptFigures> {
  const server = await startOpenCode(binary, dir, env);
  try {
    const start = performance.now();
    const api = await projectApi(server.url, dir);
    try {
      const config = await api.call('GET', '/config', undefined, PROMPT_TIMEOUT_MS);
      if (config.status !== 200) throw new Error(`GET /config answered ${config.status}`);
      const session = await api.createSession('first prompt');
      const answer = await api.prompt(session, 'What did we decide about the cache?', { timeoutMs: PROMPT_TIMEOUT_MS });
      const total = performance.now() - start;
      const cpu = await threadCpu(server.pid);
      const line = server.output().split('\n').find((text) => /message="?session context: /.test(text)) ?? null;
      return { total_ms: round1(total), prompt_ms: round1(answer.ms), status: answer.status, cpu_ms: cpu, plugin_log: line ? (/message="((?:[^"\\]|\\.)*)"/.exec(line)?.[1] ?? line) : null };
    } finally {
      api.close();
    }
  } finally {
    await server.stop(5_000);
  }
}
