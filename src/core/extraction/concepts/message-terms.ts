/**
 * Candidate concepts of one message: keyphrases of its English prose, the
 * technologies and components it names, and the stems of the files it
 * touched. Bounded: a message gives at most a few dozen candidates from the
 * first few kilobytes of its text, however long it is.
 */
import type { FileTouch, TermHit, ToolCallView } from '../working-set/touches.js';
import { MAX_CONCEPT_LENGTH, normalizeConcept } from './concepts.js';
import { capChars } from '../../text/char-cap.js';
import { stripFencedCode } from '../../text/fences.js';
import { sanitizeText } from '../../text/sanitize.js';
import { keyphrasesOf } from './keyphrases.js';
import { importedPackages, namedInProse, toolServer, type NameShape } from './named-technologies.js';
import { commandsRun, isOwnProgram } from './commands-run.js';
import { properNames } from './proper-names.js';
import { manifestDependencies, stackOfCommands, stackOfPath } from './stack-technologies.js';
import { LRUCache } from 'lru-cache';
import { ENGLISH_STOP_WORDS, FOREIGN_STOP_WORDS, GENERIC_ACRONYMS, GENERIC_FILE_STEMS, GENERIC_TERMS, MECHANICS_WORDS, MODEL_ID } from '../../text/generic-words.js';

/** Caps of {@link termsOfMessage}. */
export interface TermSettings {
  /** Characters of the message's text scanned for names and import lines. @default 4096 */
  maxScanChars: number;
  /** Characters of a user's prose read for keyphrases: the request names the topics. @default 1500 */
  maxProseChars: number;
  /**
   * Characters of an assistant's prose read for keyphrases. Assistants write most of a session's
   * prose and most of its noise ("let me read the file first"); the names of what they work with
   * are read all the same. A prior compaction summary is read as a user's request is. @default 0
   */
  maxAssistantProseChars: number;
  /** Characters of a shell command read. @default 2000 */
  maxCommandChars: number;
  /** Characters of a tool's output read for import lines (a file's head). @default 1000 */
  maxOutputChars: number;
  /** Candidates kept per message. @default 24 */
  maxTerms: number;
}

/** The defaults. */
export const DEFAULT_TERM_SETTINGS: Readonly<TermSettings> = Object.freeze({
  maxScanChars: 4 * 1024,
  maxProseChars: 1_500,
  maxAssistantProseChars: 0,
  maxCommandChars: 2_000,
  maxOutputChars: 1_000,
  maxTerms: 24,
});

/** What a message offers for its terms. */
export interface MessageTermSource {
  /** The sanitized text of the message. */
  text: string;
  role: string;
  order: number;
  /** Its tool calls, names sanitized. */
  tools: readonly ToolCallView[];
  /** The files its tool calls touched. */
  files: readonly FileTouch[];
  /** ISO 639-3 code, `und` when unknown. */
  language: string;
  /** Whether the message is a compaction summary the host wrote. */
  summary?: boolean;
}

// Lowercase ASCII words joined by single spaces or hyphens: already a concept once spaces become hyphens.
const PLAIN_NAME = /^[a-z0-9]+(?:[ -][a-z0-9]+)*$/;

const KIND_RANK: Record<TermHit['kind'], number> = { link: 0, technology: 1, stack: 2, keyphrase: 3, identifier: 4, file: 5, command: 6 };

/** Code in backticks is as often a field, a value or a keyword as a tool: it counts as an identifier. */
function kindOf(shape: NameShape): TermHit['kind'] {
  return shape === 'identifier' || shape === 'backticked' ? 'identifier' : 'technology';
}

/** Whether a normalized name is too generic to stand for a topic. */
export function isGenericConcept(name: string): boolean {
  if (name.length < 2 || /^[\p{N}-]+$/u.test(name)) return true;
  // The conversation's mechanics (`assistant-reply`, `todowrite`, `claude-sonnet-4`) are how it runs, not what it is about.
  if (MODEL_ID.test(name)) return true;
  if (name.includes('-')) return name.split('-').every((word) => GENERIC_TERMS.has(word) || ENGLISH_STOP_WORDS.has(word) || MECHANICS_WORDS.has(word) || /^\p{N}+$/u.test(word)) || MECHANICS_WORDS.has(name);
  return GENERIC_TERMS.has(name) || ENGLISH_STOP_WORDS.has(name) || GENERIC_ACRONYMS.has(name) || FOREIGN_STOP_WORDS.has(name) || MECHANICS_WORDS.has(name);
}

/**
 * The topic a file's name stands for: its stem (`theme-toggle` of
 * `theme-toggle.component.ts`), or its folder's name when the stem is one
 * every project has (`index.ts`, `page.tsx`).
 *
 * @param path - a working-set path.
 */
export function fileTopic(path: string): string | null {
  // A session touches the same files again and again: each path is read once.
  const known = topicCache.get(path);
  if (known !== undefined) return known === '' ? null : known;
  const topic = topicOfPath(path);
  topicCache.set(path, topic ?? '');
  return topic;
}

/** Paths whose topic is remembered ('' for none). */
const topicCache = new LRUCache<string, string>({ max: 1_024 });

function topicOfPath(path: string): string | null {
  const segments = path.split('/').filter((segment) => segment.length > 0 && segment !== '.' && segment !== '..');
  for (let index = segments.length - 1, tries = 0; index >= 0 && tries < 2; index--, tries++) {
    const segment = segments[index] ?? '';
    const stem = segment.replace(/^\.+/, '').split('.')[0] ?? '';
    // `SessionManager.ts` names the session manager: its words, hyphenated.
    const words = stem.replace(/^_+|_+$/g, '').replace(/([\p{Ll}\p{N}])(\p{Lu})/gu, '$1-$2').replace(/(\p{Lu}+)(\p{Lu}\p{Ll})/gu, '$1-$2');
    const name = normalizeConcept(words);
    if (name && !GENERIC_FILE_STEMS.has(name) && !isGenericConcept(name)) return name;
    // Only a file's folder may stand in for it; a generic folder ends the search.
    if (index < segments.length - 1) break;
  }
  return null;
}

/**
 * The candidate concepts of a message, strongest first, at most `maxTerms`.
 *
 * @param source - the message's text, tools and files.
 * @param settings - caps; see {@link DEFAULT_TERM_SETTINGS}.
 */
export function termsOfMessage(source: MessageTermSource, settings: Partial<TermSettings> = {}): TermHit[] {
  const { maxScanChars, maxProseChars, maxAssistantProseChars, maxCommandChars, maxOutputChars, maxTerms } = { ...DEFAULT_TERM_SETTINGS, ...settings };
  const hits = new Map<string, TermHit & { first: number }>();
  let seen = 0;
  const add = (raw: string, kind: TermHit['kind'], weight = 1): void => {
    // Most names are plain ASCII words: the full normalization is only for the others.
    const lower = raw.toLowerCase();
    const name = lower.length <= MAX_CONCEPT_LENGTH && PLAIN_NAME.test(lower) ? lower.replaceAll(' ', '-') : normalizeConcept(raw);
    if (!name || isGenericConcept(name)) return;
    const known = hits.get(name);
    if (!known) hits.set(name, { name, weight, kind, order: source.order, role: source.role, first: seen++ });
    else {
      known.weight += weight;
      if (KIND_RANK[kind] < KIND_RANK[known.kind]) known.kind = kind;
    }
  };
  const head = capChars(source.text, maxScanChars);
  for (const name of importedPackages(head)) add(name, 'technology');
  const prose = head.includes('```') || head.includes('~~~') ? stripFencedCode(head) : head;
  for (const named of namedInProse(prose)) add(named.name, kindOf(named.shape));
  // An assistant's prose names what it reads as often as what the work is about: its names weigh less.
  const nameKind = source.role === 'assistant' && !source.summary ? 'identifier' : 'keyphrase';
  for (const name of properNames(prose, source.language)) add(name, nameKind);
  const english = source.language === 'und' ? null : source.language === 'eng';
  // Inline code is not prose: it ends the clause it sits in.
  const proseCap = source.role === 'assistant' && !source.summary ? maxAssistantProseChars : maxProseChars;
  const phraseText = capChars(prose, proseCap).replace(/`[^`\n]*`/g, ' , ');
  for (const { phrase, count } of keyphrasesOf(phraseText, english)) add(phrase, 'keyphrase', count);
  for (const call of source.tools) {
    const server = toolServer(sanitizeText(capChars(call.tool, 100)));
    if (server) add(server, 'technology');
    const command = call.input['command'];
    if (typeof command === 'string') {
      const line = sanitizeText(capChars(command, maxCommandChars));
      const invocations = commandsRun(line);
      // A program only run (`jq`, `systemctl`) is a tool of the work, not its topic: the ranking keeps it
      // only when a message names it too. The build tools and service managers name the stack.
      for (const [program = ''] of invocations) if (isOwnProgram(program)) add(program, 'command');
      for (const stack of stackOfCommands(invocations)) add(stack, 'stack');
      for (const name of importedPackages(line)) add(name, 'technology');
    }
    // A file's head shows what it imports: the stack the session works in.
    // Only ASCII names come out of it, so it needs no sanitizing.
    let output = capChars(call.output, maxOutputChars);
    // A line cut by the cap is not read: `import com.exa` would name a package that is not there.
    if (output.length < call.output.length) output = output.slice(0, Math.max(0, output.lastIndexOf('\n')));
    for (const name of importedPackages(output, false)) add(name, 'technology');
    // A dependency an edit of the manifest sets is one the work is about; a manifest read lists them all.
    const path = call.input['filePath'] ?? call.input['file_path'] ?? call.input['path'];
    const edited = call.input['newString'] ?? call.input['new_string'] ?? call.input['new_str'];
    if (typeof path === 'string' && typeof edited === 'string') for (const name of manifestDependencies(path, edited)) add(name, 'technology');
  }
  for (const touch of source.files) {
    const topic = fileTopic(touch.path);
    if (topic) add(topic, 'file');
    // The files a message works on show the stack (`.go`, `Cargo.toml`, `.github/workflows/`): once per message.
    if (touch.action !== 'cwd' && touch.action !== 'list') for (const stack of stackOfPath(touch.path)) add(stack, 'stack');
  }
  return [...hits.values()]
    .sort((a, b) => KIND_RANK[a.kind] - KIND_RANK[b.kind] || b.weight - a.weight || a.first - b.first)
    .slice(0, maxTerms)
    .map((hit): TermHit => ({ name: hit.name, weight: hit.weight, kind: hit.kind, order: hit.order, role: hit.role }));
}
