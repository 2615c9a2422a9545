import { describe, expect, it } from 'vitest';
import { readBrowserConsole } from '../../../../src/core/extraction/problems/browser-console.js';
import { ReadingState } from '../../../../src/core/extraction/problems/reading-state.js';

const read = (...lines: string[]): string[] => {
  const state = new ReadingState(8, true);
  for (const line of lines) readBrowserConsole(line, state);
  return state.problems.map((problem) => `${problem.type}: ${problem.text}`);
};

describe('readBrowserConsole', () => {
  it("should read a request's network error, its error status and a resource that failed to load", () => {
    expect(read('PUT http://localhost:5173/api/orders/7 net::ERR_CONNECTION_REFUSED')).toEqual(['problem: PUT localhost:5173/api/orders/7 failed: net::ERR_CONNECTION_REFUSED']);
    expect(read('GET https://shop.test/api/cart 502 (Bad Gateway)')).toEqual(['problem: GET shop.test/api/cart answered 502 (Bad Gateway)']);
    expect(read('Failed to load resource: the server responded with a status of 404 (Not Found)')).toEqual([
      'problem: failed to load resource: the server responded with a status of 404 (Not Found)',
    ]);
  });

  it('should leave successful requests and prose alone', () => {
    expect(read('GET https://shop.test/api/cart 200 (OK)', 'the cart page loads (mostly) fine')).toEqual([]);
  });
});
