import { describe, expect, it } from 'vitest';
import { createLogger, LOG_SERVICE } from '../../../src/main/shared/logger.js';
import { createFakeHost, message } from '../../support/fake-host.js';
import { startHarness } from '../../support/plugin-harness.js';

describe('createLogger', () => {
  it('should send lines under the plugin service, with the extra of the hook that logged them', async () => {
    const host = createFakeHost();
    const logger = createLogger(host.client);
    logger.info('plain');
    logger.with({ hook: 'compacting' }).warn('tagged', { attempt: 2 });
    await logger.flush();
    expect(host.logs).toEqual([
      { service: LOG_SERVICE, level: 'info', message: 'plain' },
      { service: LOG_SERVICE, level: 'warn', message: 'tagged', extra: { hook: 'compacting', attempt: 2 } },
    ]);
  });

  it('should drop a line the host fails to take, without throwing', async () => {
    const logger = createLogger({ app: { log: () => Promise.reject(new Error('down')) } });
    logger.error('lost');
    const throwing = createLogger({
      app: {
        log: () => {
          throw new Error('sync failure');
        },
      },
    });
    expect(() => throwing.info('lost too')).not.toThrow();
    await expect(logger.flush()).resolves.toBeUndefined();
  });

  it('should tag the compacting hook lines as seed 000 §8.2 shows', async () => {
    const harness = await startHarness({}, { MAENIFOLD_CLI: '' });
    try {
      harness.host.setMessages('s', [message('m', 'user', '## Plan\nWe decided to use [[Redis]] for the [[cache layer]] because every node shares it, always.')]);
      await harness.plugin.hooks['experimental.session.compacting']?.({ sessionID: 's' }, { context: [] });
      await harness.plugin.logger.flush();
      expect(harness.host.linesWith('compaction:')[0]?.extra).toEqual({ hook: 'compacting' });
    } finally {
      await harness.close();
    }
  });
});
