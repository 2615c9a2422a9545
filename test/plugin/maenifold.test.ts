import { describe, expect, it } from 'vitest';
import * as entry from '../../plugin/maenifold.js';
import { createFakeHost } from '../../support/fake-host.js';

describe('plugin entry', () => {
  it('should export only default, with an id and a server function', () => {
    expect(Object.keys(entry)).toEqual(['default']);
    expect(entry.default.id).toBe('opencode-maenifold');
    expect(typeof entry.default.server).toBe('function');
  });

  it('should return no hooks when disabled', async () => {
    const host = createFakeHost();
    expect(await entry.default.server({ client: host.client }, { enabled: false })).toEqual({});
  });
});
