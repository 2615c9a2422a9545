import { describe, expect, it } from 'vitest';
import { createWorkingSetHooks } from '../../../src/main/working-set/working-set-hooks.js';
import { createWorkingSetTracker } from '../../../src/main/working-set/working-set-tracker.js';
import { createLogger } from '../../../src/main/shared/logger.js';
import { createFakeHost } from '../../../support/fake-host.js';

describe('createWorkingSetHooks', () => {
  it('should record the paths of each tool call and forget only the session a session.deleted event names', () => {
    const workingSet = createWorkingSetTracker('/work/acme-shop');
    const hooks = createWorkingSetHooks({ workingSet, logger: createLogger(undefined) });
    hooks.toolAfter({ tool: 'edit', sessionID: 'ses_a', args: { filePath: '/work/acme-shop/src/cart.ts' } });
    hooks.toolAfter({ tool: 'read', sessionID: 'ses_b', args: { filePath: '/work/acme-shop/src/price.ts' } });
    expect(workingSet.recent('ses_a')).toEqual(['src/cart.ts']);
    hooks.event({ event: { type: 'session.idle', properties: { info: { id: 'ses_a' } } } });
    hooks.event({ event: { type: 'session.deleted', properties: { info: {} } } });
    expect(workingSet.sessions).toBe(2);
    hooks.event({ event: { type: 'session.deleted', properties: { info: { id: 'ses_a' } } } });
    expect(workingSet.recent('ses_a')).toEqual([]);
    expect(workingSet.recent('ses_b')).toEqual(['src/price.ts']);
  });

  it('should log a tool call it could not record in one line and not throw', async () => {
    const host = createFakeHost();
    const logger = createLogger(host.client);
    const hooks = createWorkingSetHooks({
      logger,
      workingSet: {
        record: () => {
          throw new Error('bad path');
        },
        forget: () => undefined,
      },
    });
    expect(() => hooks.toolAfter({ tool: 'edit', sessionID: 'ses_a', args: {} })).not.toThrow();
    await logger.flush();
    expect(host.logs.map((line) => line.message)).toEqual(['working set: could not record edit: bad path']);
  });
});
