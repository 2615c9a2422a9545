/**
 * The order test files start in: longest first, by the times recorded in test/timings.json
 * (`npm run test:timings` records them again). Files run a few at a time, so a long file started
 * last runs alone at the end while the other workers idle: in a fresh clone, where vitest has no
 * durations of its own yet and starts larger files first, the cross-process test (seven seconds,
 * a small file) ran alone for the last six. Files without a recorded time go first, since nothing
 * says they are short; ties keep vitest's order.
 */
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** Seconds a file took, by its path from the repository root. */
export type Timings = Readonly<Record<string, number>>;

/** The path of the recorded timings. */
export const TIMINGS_FILE = new URL('../timings.json', import.meta.url);

/** The recorded timings; none when the file is missing or unreadable, which leaves vitest's order. */
export function readTimings(): Timings {
  try {
    const parsed = JSON.parse(readFileSync(TIMINGS_FILE, 'utf8')) as unknown;
    if (typeof parsed !== 'object' || parsed === null) return {};
    return Object.fromEntries(Object.entries(parsed).filter((entry): entry is [string, number] => typeof entry[1] === 'number' && Number.isFinite(entry[1])));
  } catch {
    return {};
  }
}

/**
 * Orders `files` longest first by `timings`, unknown files first; a stable sort, so ties keep the given order.
 *
 * @param files - paths from the repository root, with whatever each stands for.
 */
export function longestFirst<T>(files: readonly { path: string; item: T }[], timings: Timings): T[] {
  const seconds = (path: string): number => timings[path] ?? Number.POSITIVE_INFINITY;
  return [...files].sort((a, b) => seconds(b.path) - seconds(a.path) || 0).map(({ item }) => item);
}

export default class TimingsSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const byVitest = await super.sort(files);
    const root = this.ctx.config.root;
    return longestFirst(
      byVitest.map((spec) => ({ path: relative(root, spec.moduleId), item: spec })),
      readTimings(),
    );
  }
}
