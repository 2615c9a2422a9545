/**
 * The memory the plugin's pool really needs: a process of its own that holds
 * one session and runs the pooled extraction on it, with none of the bench's
 * inline runners, naive readings or extra sessions. Run as a child by the
 * bench (`tsx bench/pool-footprint.ts <bytes> <runs>`); prints one JSON line.
 */
import { readFileSync } from 'node:fs';
import { createWorkerPool } from '../src/main/pool/worker-pool.js';
import { createExtractionEngine } from '../src/main/compaction/extraction-engine.js';
import { generateSession } from '../src/synth/session-generator.js';

/**
 * The high-water mark of this process's own memory (Linux `VmHWM`), or `null` elsewhere. Not
 * `process.resourceUsage().maxRSS`: Linux carries that over from the parent across the exec that started
 * this process, so a child of an 800 MB bench reported 800 MB before doing anything.
 */
function ownPeakRss(): number | null {
  try {
    const found = /^VmHWM:\s+(\d+) kB/m.exec(readFileSync('/proc/self/status', 'utf8'));
    return found ? Number(found[1]) * 1024 : null;
  } catch {
    return null;
  }
}

const bytes = Number(process.argv[2] ?? 10 * 1024 ** 2);
const runs = Number(process.argv[3] ?? 5);
const session = generateSession({ seed: 7, targetBytes: bytes });
// The hook thread with its session, before any worker exists.
const baseRss = process.memoryUsage.rss();
const pool = createWorkerPool();
const ready = await pool.ready;
if (!ready.ok) throw new Error(`pool did not start: ${ready.error.message}`);
const idleRss = process.memoryUsage.rss();
let peak = idleRss;
const sampler = setInterval(() => {
  peak = Math.max(peak, process.memoryUsage.rss());
}, 5);
for (let run = 0; run < runs; run++) {
  // A fresh engine each run: no cache, the full work every time.
  const result = await createExtractionEngine(pool).extract(session);
  if (!result.ok) throw new Error(result.error.message);
}
clearInterval(sampler);
await pool.destroy();
const mb = (value: number): number => Math.round(value / 2 ** 20);
const peakRss = Math.max(peak, ownPeakRss() ?? 0);
process.stdout.write(
  `${JSON.stringify({ base_rss_mb: mb(baseRss), idle_rss_mb: mb(idleRss), peak_rss_mb: mb(peakRss), workers_peak_rss_mb: mb(peakRss - baseRss) })}\n`,
);
