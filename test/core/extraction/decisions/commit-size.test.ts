import { describe, expect, it } from 'vitest';
import { COMMIT_SIZE_WEIGHT, commitSizeWeight } from '../../../../src/core/extraction/decisions/commit-size.js';

describe('commitSizeWeight', () => {
  it('should raise a commit that introduces work: many files, many lines or a new file', () => {
    expect(commitSizeWeight('[main 1a2b3c4] feat: add export\n 7 files changed, 120 insertions(+), 9 deletions(-)')).toBe(COMMIT_SIZE_WEIGHT);
    expect(commitSizeWeight('[main 1a2b3c4] feat: importer\n 2 files changed, 340 insertions(+)')).toBe(COMMIT_SIZE_WEIGHT);
    expect(commitSizeWeight('[main 1a2b3c4] feat: csv\n 1 file changed, 40 insertions(+)\n create mode 100644 src/csv/reader.ts')).toBe(COMMIT_SIZE_WEIGHT);
  });

  it('should lower a one-file change of a few lines, and leave the rest or an output without a summary alone', () => {
    expect(commitSizeWeight('[main 1a2b3c4] fix: guard null user\n 1 file changed, 2 insertions(+), 1 deletion(-)')).toBe(-COMMIT_SIZE_WEIGHT);
    expect(commitSizeWeight('[main 1a2b3c4] fix: retry\n 2 files changed, 30 insertions(+), 4 deletions(-)')).toBe(0);
    expect(commitSizeWeight('nothing to commit, working tree clean')).toBe(0);
  });
});
