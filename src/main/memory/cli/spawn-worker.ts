/**
 * The spawn thread's side (see spawn-thread.ts): each run it is handed goes
 * through `node:child_process` here, with its deadline, output cap and group
 * kill, and its outcome goes back; an abort from the caller stops the run.
 */
import { parentPort } from 'node:worker_threads';
import { runWithNode } from './node-spawn.js';
import type { SpawnReply, SpawnRequest } from './spawn-thread.js';

const port = parentPort;
if (port) {
  const aborts = new Map<number, AbortController>();
  port.on('message', (request: SpawnRequest) => {
    if (request.type === 'abort') {
      aborts.get(request.id)?.abort();
      return;
    }
    const controller = new AbortController();
    aborts.set(request.id, controller);
    void runWithNode(request.file, request.args, { ...request.limits, signal: controller.signal }).then((outcome) => {
      aborts.delete(request.id);
      port.postMessage({ type: 'outcome', id: request.id, outcome } satisfies SpawnReply);
    });
  });
  port.postMessage({ type: 'ready' } satisfies SpawnReply);
}
