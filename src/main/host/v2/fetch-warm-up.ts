/**
 * The first `fetch` of a Node process loads and compiles its HTTP stack
 * (undici, about 20 ms on a 2-core machine), on the thread that calls it: in
 * a 2.x compaction, that is the first page of the session, on the host's
 * thread while the hook runs. A fetch of a `data:` URL goes through the same
 * stack without asking anyone, so running one while the plugin loads moves
 * that cost out of the first hook that reads the service. Bun's fetch is
 * built in, and the warm-up there costs next to nothing.
 */

/**
 * Runs one `fetch` of a `data:` URL on the next turn of the event loop, its answer read and dropped.
 * Never rejects: a fetch that fails here leaves the first real read to pay, as before.
 *
 * @param fetcher - the fetch the client reads the service with.
 * @returns settles once the warm-up ran, or failed.
 */
export function warmFetch(fetcher: typeof fetch): Promise<void> {
  return new Promise<void>((resolve) => {
    // Not within the caller's turn: the plugin's own setup goes on first.
    setImmediate(() => {
      Promise.resolve()
        .then(() => fetcher('data:text/plain,'))
        .then((response) => response.arrayBuffer())
        .then(
          () => resolve(),
          () => resolve(),
        );
    });
  });
}
