/**
 * One host message (`{ info, parts }`, as `client.session.messages` or an
 * export lists it), read once into an immutable view: what every reader of a
 * message asks of it — id, role, summary flag, key, weight, size, its text and
 * tool calls, the model it names — comes from here, so the answers agree.
 *
 * Only cheap work happens here: reading fields and counting lengths; the key's
 * hash runs once, when first asked for. Anything malformed is skipped, never
 * thrown on: the list comes from the host and from tools we do not control.
 */
import { EDIT_TOOL, pathArguments } from '../../core/extraction/working-set/working-set.js';
import { boundedLength, boundOutput, boundReasoning } from './message-bounds.js';
import { digest, feed, feedBounded, startHash } from './content-key.js';

/**
 * Characters a message counts for besides its parts: ids, times, tokens and the model, as the host sends
 * them. One figure for a host's message and a kept copy alike: a kept copy holds less metadata, and a
 * memory bound that errs keeps less, never more.
 */
export const MESSAGE_METADATA_CHARS = 500;

/** A model as the SDK names it. */
export interface ModelRef {
  providerID: string;
  modelID: string;
}

/** A text part. */
export interface TextRead {
  readonly text: string;
  /**
   * Whether it is the conversation's: not a synthetic or ignored part. Those are the host's or a plugin's
   * own words (an injected file, a "continue"), so extraction does not read them, nor weigh them.
   */
  readonly conversation: boolean;
}

/** A tool call (a `tool` part with a name and a state). */
export interface ToolCallRead {
  readonly tool: string;
  /** `completed`, `error`, `running`, `pending`; empty when the host sent none. */
  readonly status: string;
  /** Its arguments as the host sent them (a kept copy: only those extraction reads). */
  readonly input: unknown;
  readonly output: string | undefined;
  readonly error: string | undefined;
}

interface ViewFields {
  id: string | null;
  role: string;
  summary: boolean;
  texts: readonly TextRead[];
  reasoned: boolean;
  reasoning: string;
  tools: readonly ToolCallRead[];
  model: ModelRef | null;
  size: number;
}

/** Whether a value is a plain object (not null, not an array): the only shape a host entry is read from. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const stringOf = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/** Characters of the strings a tool call's input carries (its top-level values only). */
function inputChars(input: unknown): number {
  if (typeof input !== 'object' || input === null) return 0;
  let chars = 0;
  for (const value of Object.values(input)) chars += typeof value === 'string' ? value.length : 0;
  return chars;
}

/** Characters of a tool call's strings: its input's, its output and its error. */
function stateChars(input: unknown, output: unknown, error: unknown): number {
  return inputChars(input) + (stringOf(output)?.length ?? 0) + (stringOf(error)?.length ?? 0);
}

/** A message read once; see the module's comment. Built by {@link readMessage}. */
export class MessageView {
  /** The host's message id; `null` when it has none (such a message is never taken for another). */
  readonly id: string | null;
  /** `user`, `assistant`, …; `unknown` when the host sent none. */
  readonly role: string;
  /**
   * Whether it is a compaction's summary. Only an assistant message is one: the host marks the summary it
   * stores with `summary: true`, and a user message's `summary` is another thing (an object of diffs).
   */
  readonly summary: boolean;
  /** Its text parts, in order. */
  readonly texts: readonly TextRead[];
  /** Whether it holds reasoning with some text. */
  readonly reasoned: boolean;
  /**
   * The end of its reasoning, bounded (see `boundReasoning`), when it edits or writes files: what the model
   * settled right before those edits. Empty otherwise: reasoning that changes nothing is not read.
   */
  readonly reasoning: string;
  /** Its tool calls, in order. */
  readonly tools: readonly ToolCallRead[];
  /** The model it names: an assistant's `providerID`/`modelID`, or a user message's `model`. */
  readonly model: ModelRef | null;
  /**
   * Characters of what extraction reads of it: the conversation's text, the reasoning it crosses with, and
   * each tool call's output (its error when it failed) as it crosses to a worker. The window, the compacting hook's threshold and the
   * batches weigh a message by it; synthetic and ignored text weighs nothing, since no worker reads it.
   */
  readonly weight: number;
  /**
   * Characters of the strings it holds, whether read or not — every part's text, tool input, output and
   * error — and {@link MESSAGE_METADATA_CHARS}: what the host serialises for it, and what it costs kept.
   */
  readonly size: number;
  #key: string | null | undefined;
  readonly #kept: boolean;

  /** @internal Use {@link readMessage}. */
  constructor(fields: ViewFields, kept?: { key: string | null }) {
    this.id = fields.id;
    this.role = fields.role;
    this.summary = fields.summary;
    this.texts = Object.freeze(fields.texts);
    this.reasoned = fields.reasoned;
    this.reasoning = fields.reasoning;
    this.tools = Object.freeze(fields.tools);
    this.model = fields.model;
    this.size = fields.size;
    let weight = 0;
    for (const { text, conversation } of fields.texts) if (conversation) weight += text.length;
    for (const tool of fields.tools) weight += boundedLength(tool.status === 'error' ? tool.error : tool.output);
    weight += fields.reasoning.length;
    this.weight = weight;
    this.#kept = kept !== undefined;
    this.#key = kept?.key;
    Object.freeze(this);
  }

  /**
   * Its id and a hash of what its unit is made of — role, summary flag, the conversation's text, whether it
   * reasoned and the reasoning it crosses with, each tool call's name, status and output as it crosses — so a message edited under the same
   * id, to any length, has a new key, and its cached analysis is not used; `null` without an id. Not its
   * tools' input: a call's input is set before it runs, and its status and output carry every later change.
   * Hashed once, when first asked for. Its kept copy ({@link readable}) has the same key.
   */
  get key(): string | null {
    if (this.#key === undefined) this.#key = contentKey(this);
    return this.#key;
  }

  /** An assistant message with nothing at all in it — no text, no reasoning, no tool call — answered nothing. */
  get silent(): boolean {
    return this.role === 'assistant' && !this.texts.some((part) => part.conversation) && this.tools.length === 0 && !this.reasoned;
  }

  /** The conversation's text parts, joined with a blank line as a worker reads them. */
  get text(): string {
    return this.texts.filter((part) => part.conversation).map((part) => part.text).join('\n\n');
  }

  /**
   * The view reduced to what extraction reads of it — the same key, weight, unit and summary flag —
   * without its tools' input bodies, the middles of their output, or text extraction skips, and sharing
   * no string with the host's message. A session's window is kept in this form between compactions
   * (window-memory.ts). A kept copy is its own kept copy. {@link keptCopies} makes many at once.
   */
  readable(): MessageView {
    return MessageView.keptCopies([this])[0] as MessageView;
  }

  /** @internal Use {@link keptCopies}. */
  static keptCopies(views: readonly MessageView[]): MessageView[] {
    const fresh = views.filter((view) => !view.#kept);
    // Copied: a cut of a longer string (the head of a 5 MB output) shares the whole string's characters in
    // both V8 and JavaScriptCore, so a kept cut would keep it alive. One clone for them all: a clone's
    // fixed cost, paid per message, was most of the copy of a window of short messages.
    const copies = fresh.length === 0 ? [] : structuredClone(fresh.map((view) => view.#extractedParts()));
    let next = 0;
    return views.map((view) => (view.#kept ? view : view.#keptView(copies[next++] as ExtractedParts)));
  }

  /** What extraction reads of its parts, not yet copied. */
  #extractedParts(): ExtractedParts {
    const bounded = (value: string | undefined): string | undefined => (value === undefined ? undefined : boundOutput(value));
    return {
      texts: this.texts.filter((part) => part.conversation).map((part) => part.text),
      reasoning: this.reasoning,
      tools: this.tools.map((tool) => ({ ...tool, input: pathArguments(tool.input), output: bounded(tool.output), error: bounded(tool.error) })),
    };
  }

  /** The kept copy made of `copy`, this view's extracted parts as copied. */
  #keptView(copy: ExtractedParts): MessageView {
    const key = this.key;
    let size = MESSAGE_METADATA_CHARS + copy.reasoning.length;
    for (const text of copy.texts) size += text.length;
    for (const tool of copy.tools) size += stateChars(tool.input, tool.output, tool.error);
    const texts = copy.texts.map((text) => ({ text, conversation: true }));
    return new MessageView({ id: this.id, role: this.role, summary: this.summary, texts, reasoned: this.reasoned, reasoning: copy.reasoning, tools: copy.tools, model: this.model, size }, { key });
  }
}

/** The parts of a message extraction reads, as a kept copy holds them. */
interface ExtractedParts {
  texts: string[];
  reasoning: string;
  tools: ToolCallRead[];
}

/**
 * The kept copy of each of `views` (see {@link MessageView.readable}), in order: each the same as its own
 * `readable()`, a kept copy itself, the others copied in one go.
 *
 * @param views - messages as read; a bounded slice of a window (a slice of the host's thread copies them).
 */
export function keptCopies(views: readonly MessageView[]): MessageView[] {
  return MessageView.keptCopies(views);
}

function contentKey(view: MessageView): string | null {
  if (view.id === null) return null;
  const hash = startHash();
  feed(hash, `${view.role}${view.summary ? ':summary' : ''}`);
  for (const { text, conversation } of view.texts) if (conversation) feed(hash, text);
  if (view.reasoned) feed(hash, ':reasoned');
  if (view.reasoning) feed(hash, view.reasoning);
  for (const tool of view.tools) {
    feed(hash, tool.tool);
    feed(hash, tool.status);
    feedBounded(hash, tool.status === 'error' ? tool.error : tool.output);
  }
  return `${view.id}:${digest(hash)}${view.silent ? ':silent' : ''}`;
}

function modelOf(info: Record<string, unknown>): ModelRef | null {
  const source = typeof info['providerID'] === 'string' ? info : info['model'];
  if (!isRecord(source)) return null;
  const { providerID, modelID } = source;
  return typeof providerID === 'string' && typeof modelID === 'string' && providerID && modelID ? { providerID, modelID } : null;
}

/**
 * The view of one message, or `null` when the entry is not a message. A view is its own view.
 *
 * @param message - one `{ info, parts }` entry as the host returns it.
 */
export function readMessage(message: unknown): MessageView | null {
  if (message instanceof MessageView) return message;
  if (!isRecord(message)) return null;
  const info = isRecord(message['info']) ? message['info'] : {};
  const role = typeof info['role'] === 'string' ? info['role'] : 'unknown';
  const texts: TextRead[] = [];
  const tools: ToolCallRead[] = [];
  let reasoned = false;
  const thoughts: string[] = [];
  let size = MESSAGE_METADATA_CHARS;
  const parts = message['parts'];
  for (const part of Array.isArray(parts) ? parts : []) {
    if (!isRecord(part)) continue;
    const { type, text, state } = part;
    if (typeof text === 'string') size += text.length;
    if (isRecord(state)) size += stateChars(state['input'], state['output'], state['error']);
    if (type === 'text' && typeof text === 'string') texts.push({ text, conversation: !part['synthetic'] && !part['ignored'] });
    else if (type === 'reasoning' && typeof text === 'string' && text.trim() !== '') {
      reasoned = true;
      if (role === 'assistant') thoughts.push(text);
    }
    else if (type === 'tool' && typeof part['tool'] === 'string' && isRecord(state)) {
      tools.push({ tool: part['tool'], status: stringOf(state['status']) ?? '', input: state['input'], output: stringOf(state['output']), error: stringOf(state['error']) });
    }
  }
  return new MessageView({
    id: stringOf(info['id']) ?? null,
    role,
    summary: role === 'assistant' && info['summary'] === true,
    texts,
    reasoned,
    reasoning: thoughts.length > 0 && tools.some((call) => EDIT_TOOL.test(call.tool)) ? boundReasoning(thoughts) : '',
    tools,
    model: modelOf(info),
    size,
  });
}
