/**
 * How `bench:host` measures a stall: `GET /path` requested one at a time
 * while a compaction runs (and for a tail after it), and the figures of one
 * such round — the worst answer, percentiles, the slowest few and the time
 * spent in slow answers. The server, the variants and the report are in
 * real-host.ts.
 */
import { MODEL } from '../support/opencode/api.js';

/** Bounds of one measured compaction: probes, and how long it may take. */
const MAX_PROBES = 200_000;
const COMPACTION_TIMEOUT_MS = 300_000;
/** A probe that takes this long is recorded as this long and the loop goes on. */
const PROBE_TIMEOUT_MS = 30_000;
/** An answer slower than this counts toward `slow_total_ms`. */
const SLOW_MS = 50;

/** What one measured compaction gave. */
export interface RoundFigures {
  compaction_ms: number;
  status: number;
  probes: number;
  worst_ms: number;
  p99_ms: number;
  p50_ms: number;
  /** The five slowest answers. */
  slowest_ms: number[];
  /** Time spent in answers slower than {@link SLOW_MS}: how long the host was stalled in all. */
  slow_total_ms: number;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
/** A figure to one decimal. */
export const round1 = (value: number): number => Math.round(value * 10) / 10;

function percentile(sorted: readonly number[], share: number): number {
  return sorted.length === 0 ? Number.NaN : (sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))] as number);
}

/** The median of some figures (the mean of the two middle ones for an even count). */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] as number) : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

/** Latencies of `GET /path`, one request at a time, until `stop()` answers true or a bound is reached. */
export async function probe(url: string, intervalMs: number, stop: () => boolean, maxMs: number): Promise<number[]> {
  const latencies: number[] = [];
  const end = performance.now() + maxMs;
  while (!stop() && latencies.length < MAX_PROBES && performance.now() < end) {
    const start = performance.now();
    try {
      const answer = await fetch(url, { signal: AbortSignal.timeout(PROBE_TIMEOUT_MS) });
      await answer.arrayBuffer();
    } catch {
      // A probe that timed out or failed counts with the time it took.
    }
    latencies.push(performance.now() - start);
    await sleep(intervalMs);
  }
  return latencies;
}

/** One compaction of `sessionID`, probed while it runs and for `tailMs` after. */
export async function measureCompaction(base: string, query: string, sessionID: string, intervalMs: number, tailMs: number): Promise<RoundFigures> {
  let finishedAt = Number.POSITIVE_INFINITY;
  const start = performance.now();
  const summarized = fetch(`${base}/session/${sessionID}/summarize${query}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(MODEL),
    signal: AbortSignal.timeout(COMPACTION_TIMEOUT_MS),
  })
    .then(async (answer) => (await answer.text(), answer.status))
    .catch(() => 0)
    .finally(() => (finishedAt = performance.now()));
  const latencies = await probe(`${base}/path${query}`, intervalMs, () => performance.now() > finishedAt + tailMs, COMPACTION_TIMEOUT_MS + tailMs);
  const status = await summarized;
  const sorted = latencies.sort((a, b) => a - b);
  return {
    compaction_ms: round1(finishedAt - start),
    status,
    probes: sorted.length,
    worst_ms: round1(sorted.at(-1) ?? Number.NaN),
    p99_ms: round1(percentile(sorted, 0.99)),
    p50_ms: round1(percentile(sorted, 0.5)),
    slowest_ms: sorted.slice(-5).reverse().map(round1),
    slow_total_ms: round1(sorted.filter((ms) => ms > SLOW_MS).reduce((sum, ms) => sum + ms, 0)),
  };
}
