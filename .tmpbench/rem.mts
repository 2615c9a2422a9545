import { performance } from 'node:perf_hooks';
import { generateSession } from '../src/synth/session-generator.ts';
import { createWindowMemory } from '../src/main/compaction/window-memory.ts';
import { windowStart } from '../src/main/compaction/conversation-window.ts';
const s = generateSession({ seed: 7, targetBytes: 10 * 1024 ** 2 });
const msgs = JSON.parse(JSON.stringify(s.messages));
const start = windowStart(msgs);
const win = msgs.slice(start);
console.log('window', win.length);
for (let i = 0; i < 5; i++) { const m = createWindowMemory(); const t = performance.now(); m.remember('s', win, false); const a = performance.now() - t; const t2 = performance.now(); m.remember('s', win, false); console.log(a.toFixed(2), (performance.now() - t2).toFixed(2)); }
