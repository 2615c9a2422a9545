/**
 * Secret redaction: API keys, tokens, private keys and secret-named settings
 * are replaced by `[REDACTED:<kind>]` before anything reaches a compaction
 * prompt or the knowledge graph. Tool output is where they show up: a
 * printed `.env`, a curl with an Authorization header, a stack trace with a
 * connection string.
 *
 * Every pattern has bounded quantifiers and a literal or word-boundary
 * anchor, so the pass is linear; text without any trigger is returned as is.
 */
import { oneLine } from './sanitize.js';
import { capChars } from './char-cap.js';
import { LINE_BREAK_CHARACTERS } from './line-breaks.js';

/** The result of {@link redactSecrets}. */
export interface Redaction {
  text: string;
  redactions: number;
  kinds: string[];
}

interface TokenPattern {
  kind: string;
  /** A literal every match contains: the pattern only runs over text that has it. */
  gate: string;
  pattern: RegExp;
}

// Provider formats, most specific first (sk-ant- before sk-).
const TOKENS: readonly TokenPattern[] = [
  { kind: 'anthropic-key', gate: 'sk-ant-', pattern: /\bsk-ant-[A-Za-z0-9_-]{20,300}/g },
  { kind: 'openai-key', gate: 'sk-', pattern: /\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,300}/g },
  { kind: 'stripe-key', gate: 'k_', pattern: /\b[rs]k_(?:live|test)_[A-Za-z0-9]{16,300}/g },
  { kind: 'google-api-key', gate: 'AIza', pattern: /\bAIza[0-9A-Za-z_-]{35}(?![0-9A-Za-z_-])/g },
  { kind: 'aws-access-key', gate: 'A', pattern: /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g },
  { kind: 'github-token', gate: 'gh', pattern: /\bgh[pousr]_[A-Za-z0-9]{36,255}\b/g },
  { kind: 'github-token', gate: 'github_pat_', pattern: /\bgithub_pat_[A-Za-z0-9_]{22,255}\b/g },
  { kind: 'npm-token', gate: 'npm_', pattern: /\bnpm_[A-Za-z0-9]{36}\b/g },
  { kind: 'slack-token', gate: 'xox', pattern: /\bxox[baprs]-[A-Za-z0-9-]{10,300}/g },
  { kind: 'jwt', gate: 'eyJ', pattern: /\beyJ[A-Za-z0-9_-]{8,4096}\.eyJ[A-Za-z0-9_-]{8,4096}\.[A-Za-z0-9_-]{8,4096}/g },
];

const BEARER = /\b(Bearer|Token)([ \t]+)([A-Za-z0-9._~+/=-]{16,4096})/g;
const URL_PASSWORD = /\b([a-z][a-z0-9+.-]{1,20}:\/\/[^\s:@/]{1,256}:)([^\s@/]{1,256})@/gi;
// NAME = value, NAME: value, "NAME": "value", export NAME="value"; the value may sit alone on the next line
// (`API_KEY=` and a line break, as a CLI prints a setting it refuses), the operator then ending with that break.
// The lookbehind starts a name only where a word starts, so a long identifier is not rescanned from each of its letters.
// A value followed by an operator is the next setting's name (`credentials: aws_secret = …`): the match moves on to it.
const ASSIGNMENT = new RegExp(
  `(?<![A-Za-z0-9_.$-])(["']?)([A-Za-z_][A-Za-z0-9_.-]{0,80})\\1([ \\t]*[:=][ \\t]*(?:(?:\\r\\n|[${LINE_BREAK_CHARACTERS}])[ \\t]*)?)(["']?)([^\\s\u0085"'\`,;(){}[\\]<>]{8,512})\\4(?=$|[\\s\u0085"'\`,;)}\\]])(?![ \\t]*[:=])`,
  'gm',
);
/** Whether an assignment's operator ends with a line break: its value must then be alone on its line. */
const ENDS_WITH_BREAK = new RegExp('[' + LINE_BREAK_CHARACTERS + '][ \\t]*$');
const REST_OF_LINE_EMPTY = new RegExp(`^[ \\t]*(?:$|[${LINE_BREAK_CHARACTERS}])`);

// Words that may name a secret setting: only the lines holding one are read for assignments.
const SECRET_WORD = /secret|token|passw|pwd|api[_-]?key|private[_-]?key|access[_-]?key|credential|auth/gi;

const TRIGGER = /sk-|[rs]k_(?:live|test)|AIza|AKIA|ASIA|gh[pousr]_|github_pat_|npm_|xox[baprs]-|eyJ|Bearer|Token|PRIVATE KEY|:\/\/[^\s:@/]{1,256}:|secret|token|passw|pwd|api[_-]?key|private[_-]?key|access[_-]?key|credential|auth/i;

const SECRET_NAME_PARTS = new Set(['secret', 'secrets', 'token', 'password', 'passwd', 'pwd', 'pass', 'credential', 'credentials', 'auth', 'apikey', 'privatekey', 'accesskey', 'secretkey', 'clientsecret']);
const PLACEHOLDER = /^(?:\$\{?[A-Za-z_][A-Za-z0-9_]*\}?|x{3,}|\*{3,}|\.{3,}|changeme|change_me|placeholder|redacted|example[\w-]*|your[\w-]*|null|undefined|none|true|false|\d+|\[REDACTED:[a-z-]+\])$/i;
const PROPERTY_PATH = /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+$/;

/** Whether a setting's name says it holds a secret (`API_KEY`, `dbPassword`, `auth-token`). */
export function isSecretName(name: string): boolean {
  const parts = name
    .replace(/^export\s+/, '')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[\s_.-]+/)
    .filter(Boolean);
  for (let index = 0; index < parts.length; index++) {
    const part = parts[index] as string;
    if (SECRET_NAME_PARTS.has(part)) return true;
    const pair = part + (parts[index + 1] ?? '');
    if (pair === 'apikey' || pair === 'privatekey' || pair === 'accesskey' || pair === 'secretkey') return true;
  }
  return false;
}

function redactPrivateKeys(text: string, count: (kind: string) => void): string {
  if (!text.includes('PRIVATE KEY-----')) return text;
  let out = '';
  let from = 0;
  for (;;) {
    const begin = text.indexOf('-----BEGIN ', from);
    if (begin === -1) break;
    const headerEnd = text.indexOf('-----', begin + 11);
    if (headerEnd === -1 || headerEnd - begin > 60 || !text.slice(begin, headerEnd).endsWith('PRIVATE KEY')) {
      out += text.slice(from, begin + 11);
      from = begin + 11;
      continue;
    }
    const end = text.indexOf('-----END ', headerEnd + 5);
    let stop: number;
    if (end !== -1 && end - headerEnd <= 20_000) {
      const close = text.indexOf('-----', end + 9);
      stop = close === -1 ? Math.min(text.length, end + 70) : close + 5;
    } else {
      // Unterminated: everything up to the next blank line, at most 10 KB.
      const blank = text.indexOf('\n\n', headerEnd);
      stop = Math.min(blank === -1 ? text.length : blank, headerEnd + 10_000);
    }
    out += `${text.slice(from, begin)}[REDACTED:private-key]`;
    count('private-key');
    from = stop;
  }
  return out + text.slice(from);
}

function redactAssignmentsInLine(line: string, count: (kind: string) => void): string {
  let out = '';
  let done = 0;
  ASSIGNMENT.lastIndex = 0;
  for (let match = ASSIGNMENT.exec(line); match !== null; match = ASSIGNMENT.exec(line)) {
    const [whole, quote = '', name = '', operator = '', valueQuote = '', value = ''] = match;
    // A value on the line after its name is taken only when it is all of that line: `token:` then prose is a label.
    const nextLine = ENDS_WITH_BREAK.test(operator) && !REST_OF_LINE_EMPTY.test(line.slice(match.index + whole.length));
    // The cheap tests first: a run of settings each on its line (`A=`, `B=`, …) offers every name a value.
    const secret = !nextLine && !/[:=]$/.test(value) && !value.startsWith('[REDACTED') && isSecretName(name) && !PLACEHOLDER.test(value) && !PROPERTY_PATH.test(value);
    if (!secret) {
      // Not a secret setting, but its value may hold one (`url: https://…?api_key=…`, `values: PASSWORD=…`): look inside it.
      ASSIGNMENT.lastIndex = match.index + quote.length + name.length + 1;
      continue;
    }
    count('secret-setting');
    out += `${line.slice(done, match.index)}${quote}${name}${quote}${operator}${valueQuote}[REDACTED:secret-setting]${valueQuote}`;
    done = match.index + whole.length;
  }
  return out + line.slice(done);
}

const BREAK = new RegExp(`[${LINE_BREAK_CHARACTERS}]`, 'g');
const OTHER_BREAK = new RegExp(`[${LINE_BREAK_CHARACTERS.replace('\n', '')}]`);

/** Where lines of a text start and end. Most text breaks lines with LF alone: it gets the native searches. */
interface LineBounds {
  /** The index of the break ending the line that holds `at`, or the text's length. */
  end(at: number): number;
  /** Where the line holding `at` starts, looking back no further than `floor`. */
  start(at: number, floor: number): number;
}

function lineBounds(text: string): LineBounds {
  if (!OTHER_BREAK.test(text)) {
    return {
      end: (at) => {
        const newline = text.indexOf('\n', at);
        return newline === -1 ? text.length : newline;
      },
      start: (at, floor) => Math.max(floor, text.lastIndexOf('\n', at - 1) + 1),
    };
  }
  return {
    end: (at) => {
      BREAK.lastIndex = at;
      return BREAK.exec(text)?.index ?? text.length;
    },
    start: (at, floor) => {
      for (let index = at - 1; index >= floor; index--) if (LINE_BREAK_CHARACTERS.includes(text[index] as string)) return index + 1;
      return floor;
    },
  };
}

/** Whether the line `text[from, to)` ends with an operator (spaces and tabs after it allowed): its setting's value may be on the next line. */
function endsWithOperator(text: string, from: number, to: number): boolean {
  let index = to - 1;
  while (index >= from && (text[index] === ' ' || text[index] === '\t')) index--;
  return index >= from && (text[index] === ':' || text[index] === '=');
}

/**
 * Settings are read a line at a time, only the lines holding a secret word; a line that ends with
 * its operator is read with the next one, so a value on the line after its name (`API_KEY=` and a
 * line break) is redacted in text kept with its lines as in a log line joined into one.
 */
function redactAssignments(text: string, count: (kind: string) => void): string {
  const lines = lineBounds(text);
  let out = '';
  let done = 0;
  for (const hit of text.matchAll(SECRET_WORD)) {
    if (hit.index < done) continue;
    const start = lines.start(hit.index, done);
    let end = lines.end(hit.index);
    // Each line that ends with an operator takes the next one along (`API_KEY=`, `TOKEN=`, then a value): every line is read once.
    for (let last = start; end < text.length && endsWithOperator(text, last, end); ) {
      last = text[end] === '\r' && text[end + 1] === '\n' ? end + 2 : end + 1;
      end = lines.end(last);
    }
    out += text.slice(done, start) + redactAssignmentsInLine(text.slice(start, end), count);
    done = end;
  }
  return out + text.slice(done);
}

/**
 * @param text - sanitized text.
 */
export function redactSecrets(text: string): Redaction {
  if (!TRIGGER.test(text)) return { text, redactions: 0, kinds: [] };
  let redactions = 0;
  const kinds = new Set<string>();
  const count = (kind: string): void => {
    redactions++;
    kinds.add(kind);
  };
  let out = redactPrivateKeys(text, count);
  for (const { kind, gate, pattern } of TOKENS) {
    if (!out.includes(gate)) continue;
    out = out.replace(pattern, () => {
      count(kind);
      return `[REDACTED:${kind}]`;
    });
  }
  if (/Bearer|Token/.test(out)) out = out.replace(BEARER, (match, scheme: string, gap: string, token: string) => {
    if (/^\[REDACTED/.test(token) || /^[a-z]+$/.test(token)) return match;
    count('bearer-token');
    return `${scheme}${gap}[REDACTED:bearer-token]`;
  });
  if (out.includes('://')) out = out.replace(URL_PASSWORD, (match, prefix: string, password: string) => {
    if (PLACEHOLDER.test(password)) return match;
    count('url-password');
    return `${prefix}[REDACTED:url-password]@`;
  });
  out = redactAssignments(out, count);
  return { text: out, redactions, kinds: [...kinds] };
}

/** Longest partial word dropped where a text was cut: past it, a token is kept (a secret is shorter). */
const MAX_CUT_WORD_CHARS = 512;

/**
 * A field as it may go into one line of a log line or a prompt: on one line
 * ({@link oneLine}), without secrets, at most `maxChars` characters. The text
 * is first cut to twice `maxChars`, and the word that cut split is dropped: a
 * secret cut short might no longer look like one. Line breaks are removed
 * before redaction, so a setting whose value sat on the next line
 * (`API_KEY=` and a line feed) is redacted too.
 *
 * @param text - a goal, an option's value, an error message, a whole log line.
 * @param maxChars - the longest result, in UTF-16 units.
 */
export function redactedLine(text: string, maxChars: number): string {
  const room = 2 * maxChars;
  let line = oneLine(text, room + 1);
  if (line.length > room) {
    // Cut: the last word may be the head of a secret.
    const lastSpace = line.lastIndexOf(' ', room);
    line = lastSpace > 0 && lastSpace >= room - MAX_CUT_WORD_CHARS ? `${line.slice(0, lastSpace)} ...` : capChars(line, room);
  }
  return oneLine(redactSecrets(line).text, maxChars);
}
