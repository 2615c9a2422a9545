/**
 * The server's HTTP API as the tests use it: JSON calls scoped to a project
 * folder, and the event stream with bounded waits.
 */

/** A JSON call's outcome; non-2xx answers are values, not throws. */
export interface ApiResponse<T> {
  status: number;
  body: T;
  ms: number;
}

/** Calls for one project folder. */
export interface ProjectApi {
  call<T = unknown>(method: string, path: string, body?: unknown, timeoutMs?: number): Promise<ApiResponse<T>>;
  /** Starts a session and returns its id. */
  createSession(title?: string): Promise<string>;
  /** Sends a user message; `noReply` stores it without running the model. */
  prompt(sessionID: string, text: string, options?: { noReply?: boolean; timeoutMs?: number }): Promise<ApiResponse<{ info: Record<string, unknown>; parts: { type: string; text?: string }[] }>>;
  /** `POST /session/{id}/summarize`: a manual compaction. */
  summarize(sessionID: string, timeoutMs?: number): Promise<ApiResponse<unknown>>;
  messages(sessionID: string): Promise<{ info: Record<string, unknown>; parts: Record<string, unknown>[] }[]>;
  /** Waits for an event; rejects after `timeoutMs`. */
  waitForEvent(predicate: (event: ServerEvent) => boolean, timeoutMs: number, what: string): Promise<ServerEvent>;
  close(): void;
}

/** An event from `GET /event`. */
export interface ServerEvent {
  type: string;
  properties?: Record<string, unknown>;
}

export const MODEL = { providerID: 'fake', modelID: 'm' };

/**
 * @param base - the server's URL.
 * @param directory - the project folder every call is scoped to.
 */
export async function projectApi(base: string, directory: string): Promise<ProjectApi> {
  const query = `?directory=${encodeURIComponent(directory)}`;
  const events: ServerEvent[] = [];
  const waiters: { predicate: (event: ServerEvent) => boolean; resolve: (event: ServerEvent) => void }[] = [];
  const controller = new AbortController();

  async function call<T>(method: string, path: string, body?: unknown, timeoutMs = 60_000): Promise<ApiResponse<T>> {
    const start = performance.now();
    const response = await fetch(`${base}${path}${query}`, {
      method,
      headers: { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(timeoutMs),
    });
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      // Not JSON: keep the text.
    }
    return { status: response.status, body: parsed as T, ms: performance.now() - start };
  }

  const stream = await fetch(`${base}/event${query}`, { headers: { accept: 'text/event-stream' }, signal: controller.signal });
  void (async () => {
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for await (const chunk of stream.body as unknown as AsyncIterable<Uint8Array>) {
        buffer += decoder.decode(chunk, { stream: true });
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const raw = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const data = raw
            .split('\n')
            .filter((line) => line.startsWith('data:'))
            .map((line) => line.slice(5).trim())
            .join('');
          if (!data) continue;
          let event: ServerEvent;
          try {
            event = JSON.parse(data) as ServerEvent;
          } catch {
            continue;
          }
          events.push(event);
          for (const waiter of [...waiters]) {
            if (waiter.predicate(event)) {
              waiters.splice(waiters.indexOf(waiter), 1);
              waiter.resolve(event);
            }
          }
        }
      }
    } catch {
      // Closed by close() or by the server stopping.
    }
  })();

  return {
    call,
    async createSession(title = 'e2e') {
      const created = await call<{ id: string }>('POST', '/session', { title });
      if (created.status !== 200) throw new Error(`POST /session answered ${created.status}`);
      return created.body.id;
    },
    prompt: (sessionID, text, options = {}) =>
      call('POST', `/session/${sessionID}/message`, { model: MODEL, parts: [{ type: 'text', text }], ...(options.noReply ? { noReply: true } : {}) }, options.timeoutMs),
    summarize: (sessionID, timeoutMs) => call('POST', `/session/${sessionID}/summarize`, MODEL, timeoutMs),
    async messages(sessionID) {
      const listed = await call<{ info: Record<string, unknown>; parts: Record<string, unknown>[] }[]>('GET', `/session/${sessionID}/message`);
      return Array.isArray(listed.body) ? listed.body : [];
    },
    waitForEvent(predicate, timeoutMs, what) {
      const seen = events.find(predicate);
      if (seen) return Promise.resolve(seen);
      return new Promise((resolve, reject) => {
        const waiter = { predicate, resolve: (event: ServerEvent) => (clearTimeout(timer), resolve(event)) };
        const timer = setTimeout(() => {
          waiters.splice(waiters.indexOf(waiter), 1);
          reject(new Error(`no ${what} event within ${timeoutMs} ms`));
        }, timeoutMs);
        waiters.push(waiter);
      });
    },
    close: () => controller.abort(),
  };
}
