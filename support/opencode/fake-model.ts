/**
 * A fake OpenAI-compatible model on 127.0.0.1 for the real OpenCode server:
 * it records every request (so tests read exactly what the model was sent)
 * and answers through a script each test sets.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One chat message as OpenCode sends it. */
export interface ChatMessage {
  role: string;
  content?: unknown;
  tool_calls?: { id: string; function: { name: string; arguments: string } }[];
  tool_call_id?: string;
}

/** A request as recorded. */
export interface ModelRequest {
  n: number;
  messages: ChatMessage[];
  tools: string[];
  /** JSON schema of each offered tool's parameters, by name. */
  toolSchemas: Record<string, unknown>;
  system: string;
  /** Text of the last user message. */
  lastUser: string;
  /** Whether this is OpenCode asking for a compaction summary. */
  isCompaction: boolean;
  /** Whether this is OpenCode asking for a session's title (its title agent's prompt opens the system text). */
  isTitle: boolean;
  /** Whether a tool result is the last message. */
  afterTool: boolean;
}

/** What the model answers. */
export type ModelReply =
  | { text: string; promptTokens?: number }
  | { toolCall: { name: string; args: Record<string, unknown> }; promptTokens?: number };

/** Picks the reply to a request. */
export type ModelScript = (request: ModelRequest) => ModelReply;

/** The running fake. */
export interface FakeModel {
  url: string;
  requests: ModelRequest[];
  setScript(script: ModelScript): void;
  close(): Promise<void>;
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((part) => (typeof part?.text === 'string' ? part.text : '')).join('\n');
  return '';
}

/** The default script: summaries for compactions, a short reply otherwise. */
export const defaultScript: ModelScript = (request) =>
  request.isCompaction
    ? { text: `## Objective\n- Keep the [[cache-layer]] fast with [[redis]].\n\n## Next Move\n1. Summary number ${request.n}.` }
    : { text: `Reply ${request.n}.` };

function toRequest(n: number, body: { messages?: ChatMessage[]; tools?: { function?: { name?: string; parameters?: unknown } }[] }): ModelRequest {
  const messages = body.messages ?? [];
  const system = messages.filter((message) => message.role === 'system').map((message) => textOf(message.content)).join('\n');
  const lastUserMessage = [...messages].reverse().find((message) => message.role === 'user');
  const lastUser = textOf(lastUserMessage?.content);
  return {
    n,
    messages,
    tools: (body.tools ?? []).map((tool) => tool.function?.name ?? ''),
    toolSchemas: Object.fromEntries((body.tools ?? []).map((tool) => [tool.function?.name ?? '', tool.function?.parameters])),
    system,
    lastUser,
    // OpenCode's compaction request ends with its summary template.
    isCompaction: /<conversation>/.test(lastUser) && /summary/i.test(lastUser),
    isTitle: system.startsWith('You are a title generator.'),
    afterTool: messages.at(-1)?.role === 'tool',
  };
}

function send(response: ServerResponse, n: number, model: string, reply: ModelReply): void {
  const usage = { prompt_tokens: reply.promptTokens ?? 100, completion_tokens: 20, total_tokens: (reply.promptTokens ?? 100) + 20 };
  const base = { id: `chatcmpl-${n}`, object: 'chat.completion.chunk', created: 0, model };
  response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const chunk = (payload: Record<string, unknown>): void => void response.write(`data: ${JSON.stringify({ ...base, ...payload })}\n\n`);
  if ('toolCall' in reply) {
    const call = { index: 0, id: `call_${n}`, type: 'function', function: { name: reply.toolCall.name, arguments: JSON.stringify(reply.toolCall.args) } };
    chunk({ choices: [{ index: 0, delta: { role: 'assistant', tool_calls: [call] }, finish_reason: null }] });
    chunk({ choices: [{ index: 0, delta: {}, finish_reason: 'tool_calls' }] });
  } else {
    chunk({ choices: [{ index: 0, delta: { role: 'assistant', content: reply.text }, finish_reason: null }] });
    chunk({ choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] });
  }
  chunk({ choices: [], usage });
  response.end('data: [DONE]\n\n');
}

/** Starts the fake on a free loopback port. */
export async function startFakeModel(): Promise<FakeModel> {
  const requests: ModelRequest[] = [];
  let script: ModelScript = defaultScript;
  const handle = (request: IncomingMessage, response: ServerResponse): void => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      if (request.method === 'GET' && request.url?.startsWith('/v1/models')) {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ object: 'list', data: [{ id: 'm', object: 'model' }] }));
        return;
      }
      if (request.method !== 'POST' || !request.url?.startsWith('/v1/chat/completions')) {
        response.writeHead(404).end();
        return;
      }
      let body: { model?: string; messages?: ChatMessage[]; tools?: { function?: { name?: string; parameters?: unknown } }[] } = {};
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        response.writeHead(400).end();
        return;
      }
      const recorded = toRequest(requests.length + 1, body);
      requests.push(recorded);
      let reply: ModelReply;
      try {
        reply = script(recorded);
      } catch (error) {
        reply = { text: `script failed: ${(error as Error).message}` };
      }
      send(response, recorded.n, body.model ?? 'm', reply);
    });
  };
  const server: Server = createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    setScript(next) {
      script = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
