import { describe, expect, it } from 'vitest';
import { createHostStart } from '../../../src/main/plugin/host-start.js';

/** Whether the promise settled within `ms`. */
async function settlesWithin(promise: Promise<void>, ms: number): Promise<boolean> {
  return Promise.race([promise.then(() => true), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), ms))]);
}

describe('createHostStart', () => {
  it('should count the host as started when a session goes idle, in either form the hosts send', async () => {
    const idle = createHostStart(60_000, 60_000);
    idle.event({ event: { type: 'session.updated', properties: {} } });
    idle.event({ event: { type: 'session.status', properties: { status: { type: 'busy' } } } });
    expect(await settlesWithin(idle.settled, 30)).toBe(false);
    idle.event({ event: { type: 'session.idle', properties: { sessionID: 'ses_a' } } });
    expect(await settlesWithin(idle.settled, 30)).toBe(true);

    const status = createHostStart(60_000, 60_000);
    status.event({ event: { type: 'session.status', properties: { sessionID: 'ses_a', status: { type: 'idle' } } } });
    expect(await settlesWithin(status.settled, 30)).toBe(true);
  });

  it('should count it started a while after the first work call when no idle event comes, and at the latest without any call', async () => {
    const called = createHostStart(40, 60_000);
    expect(await settlesWithin(called.settled, 80)).toBe(false);
    called.workCall();
    // Later calls do not push the time back.
    setTimeout(() => called.workCall(), 20);
    expect(await settlesWithin(called.settled, 200)).toBe(true);

    const quiet = createHostStart(60_000, 50);
    expect(await settlesWithin(quiet.settled, 300)).toBe(true);
  });
});
