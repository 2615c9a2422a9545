import { describe, expect, it } from 'vitest';
import { forHook, optionSlice } from '../../../src/main/shared/handler-deps.js';
import { createLogger, LOG_SERVICE } from '../../../src/main/shared/logger.js';
import { resolvePluginOptions } from '../../../src/main/options/plugin-options.js';
import { createFakeHost } from '../../../support/fake-host.js';

describe('forHook', () => {
  it('should scope the logger to the hook and keep the other parts as given', async () => {
    const host = createFakeHost();
    const logger = createLogger(host.client);
    const rules = { load: () => Promise.resolve([]) };
    const context = { logger, rules };
    const parts = forHook(context, 'rules');
    expect(parts.rules).toBe(rules);
    expect(context.logger).toBe(logger);
    parts.logger.info('scoped');
    await logger.flush();
    expect(host.logs).toEqual([{ service: LOG_SERVICE, level: 'info', message: 'scoped', extra: { hook: 'rules' } }]);
  });
});

describe('optionSlice', () => {
  it('should hand over the options named and no others', () => {
    const { options } = resolvePluginOptions({ rulesMaxChars: 900 }, {});
    const slice = optionSlice(options, ['rules', 'rulesMaxChars']);
    expect(slice).toEqual({ rules: true, rulesMaxChars: 900 });
  });
});
