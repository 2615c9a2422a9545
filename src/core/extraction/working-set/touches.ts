/**
 * What extraction reads of a tool call and what it finds per message: the
 * shapes the stages produce and both threads pass around.
 */
import type { FileAction } from '../shell/shell.js';

/** A tool call reduced to what extraction reads: its name, input and a bounded view of its output. */
export interface ToolCallView {
  tool: string;
  input: Record<string, unknown>;
  /** Head and tail of the output, bounded on the hook thread before transfer. */
  output: string;
  failed: boolean;
}

/** A file path a tool touched, relative to the project root when it lies under it. */
export interface FileTouch {
  path: string;
  tool: string;
  order: number;
  /** How the call touched it (edit, write, delete, run, read, list), or `cwd` for a folder a command ran in; absent reads as `read`. */
  action?: FileAction;
}

/** A candidate concept seen in one message, before the conversation-wide ranking. */
export interface TermHit {
  /** Normalized as a maenifold concept (lowercase, hyphens). */
  name: string;
  /** How strongly this message supports it (occurrences, or a keyphrase score). */
  weight: number;
  /**
   * Where it was found: a link, a keyphrase, a named technology, the stack a file or a build tool
   * shows, an identifier, a file's stem, or a program a command only runs.
   */
  kind: 'link' | 'keyphrase' | 'technology' | 'stack' | 'identifier' | 'file' | 'command';
  order: number;
  /** Who named it (`user`, `assistant`); a topic both name is a lasting one. */
  role?: string;
}
