/**
 * Technologies and components a coding session names, recognized by their
 * shape rather than by a list of products: packages in install commands and
 * import lines, the programs a shell command runs, MCP servers in tool names,
 * dotted product names (`Next.js`), inner-capital names (`WebSocket`),
 * acronyms (`JWT`), and single names in backticks.
 *
 * Every scan is one pass of anchored or bounded patterns over text the
 * caller has already capped.
 */
import { GENERIC_ACRONYMS, GENERIC_TOOL_PREFIXES } from '../../text/generic-words.js';

/** Where a name was seen: decides its kind among the concept candidates. */
export type NameShape = 'package' | 'program' | 'server' | 'product' | 'acronym' | 'backticked' | 'identifier';

/** A raw name (not yet normalized) and the shape it was recognized by. */
export interface NamedThing {
  name: string;
  shape: NameShape;
}

const INSTALL = /\b(?:npm|pnpm|yarn|bun|pip3?|uv|poetry|pipx|cargo|gem|brew|composer|apt(?:-get)?|dnf|pacman|go|dotnet)\s+(?:(?:pip\s+)?(?:install|add|i|get|require|-S)|add\s+package)\s+([^\n;&|`<>]{1,300})/g;
const JS_FROM = /(?:\bfrom|\brequire\(|\bimport\(?)\s*['"]([^'"\s]{1,100})['"]/g;
const PY_IMPORT = /^[ \t\d:|]*(?:from\s+([A-Za-z_]\w*)(?:\.\w+)*\s+import\b|import\s+([A-Za-z_]\w*)(?:\.\w+)*(?:\s+as\s+\w+)?\s*$)/gm;
const JVM_IMPORT = /^[ \t\d:|]*import\s+(?:static\s+)?([a-z]\w*)\.([a-z]\w*)\.(\w+)(?:\.[\w*]+)*;/gm;
const PACKAGE_KEYWORD = /install|import|require|-packages|node_modules| add | get | -S /;
const INSTALLED_PATH = /(?:site-packages|dist-packages|node_modules)[\\/]+(@[\w.-]{1,60}(?=[\\/])|[\w.-]{1,60})(?:[\\/]+([\w.-]{1,60}))?/g;
const GO_IMPORT = /^[ \t\d:|]*(?:import\s+)?"((?:github\.com|gitlab\.com|golang\.org)\/[\w./-]{1,120})"/gm;

/** The name of a package as installed or imported: its scope or its first segment, without versions. */
export function packageRoot(spec: string): string | null {
  let name = spec.trim().replace(/^['"]|['"]$/g, '');
  if (name.length === 0 || name.startsWith('.') || name.startsWith('/') || name.startsWith('-') || name.startsWith('~')) return null;
  if (name.startsWith('node:') || name.startsWith('bun:') || name.includes('://')) return null;
  if (name.startsWith('@')) {
    const [scope = '', sub = ''] = name.slice(1).split('/');
    // `@types/x` names `x`; other scopes name the project (`@angular/core` is Angular).
    name = scope === 'types' ? sub : scope;
  } else {
    name = name.split('/')[0] ?? '';
  }
  // Versions and extras: `next@15`, `pandas==2.1`, `uvicorn[standard]`, `foo>=1`.
  name = name.replace(/(?<=.)@.*$/, '').replace(/[[=<>!~^;].*$/, '');
  if (!/^[A-Za-z][\w.-]{0,60}$/.test(name)) return null;
  return PRODUCT_OF_PACKAGE[name] ?? name;
}

/** Packages named by an everyday English word, which no concept may be: their product's name stands for them. */
const PRODUCT_OF_PACKAGE: Readonly<Record<string, string>> = { next: 'nextjs' };

const NODE_BUILTINS = new Set(
  'assert buffer child_process cluster crypto dgram dns events fs http http2 https inspector module net os path perf_hooks process querystring readline repl stream string_decoder timers tls tty url util v8 vm worker_threads zlib'.split(' '),
);
const PYTHON_STDLIB = new Set(
  '__future__ abc argparse ast asyncio base64 bisect calendar collections concurrent contextlib copy csv ctypes dataclasses datetime decimal difflib enum errno fnmatch fractions functools gc getpass glob gzip hashlib heapq hmac html http importlib inspect io ipaddress itertools json logging math mimetypes multiprocessing operator os pathlib pickle platform pprint queue random re secrets select shlex shutil signal socket sqlite3 ssl stat statistics string struct subprocess sys tempfile textwrap threading time timeit tomllib traceback types typing unicodedata unittest urllib uuid warnings weakref xml zipfile zoneinfo'.split(' '),
);
const JVM_ROOTS = new Set(['org', 'com', 'io', 'net', 'dev', 'me', 'de', 'fr', 'nl', 'ch', 'co', 'app']);
const PLACEHOLDER_DOMAINS = new Set(['example', 'company', 'mycompany', 'my', 'demo', 'acme', 'app']);
const JVM_STANDARD = new Set(['java', 'javax', 'jakarta', 'kotlin', 'kotlinx', 'scala', 'android', 'androidx', 'sun', 'jdk']);

/**
 * Packages named by install commands and import lines of a text (prose, code or tool output).
 *
 * @param text - the text, capped by the caller.
 * @param withInstalls - whether install commands count (a tool's output quotes them in hints and warnings).
 */
export function importedPackages(text: string, withInstalls = true): string[] {
  const found: string[] = [];
  // One pass decides whether any pattern can match: most text holds none of their keywords.
  if (!PACKAGE_KEYWORD.test(text)) return found;
  const installs = withInstalls && (text.includes('install') || text.includes(' add ') || text.includes(' get ') || text.includes(' require ') || text.includes(' -S '));
  const imports = text.includes('import');
  const js = imports || text.includes('require(');
  if (installs) for (const match of text.matchAll(INSTALL)) {
    for (const word of (match[1] ?? '').split(/\s+/)) {
      if (word.startsWith('-')) continue;
      const root = packageRoot(word);
      if (root) found.push(root);
    }
  }
  if (js) for (const match of text.matchAll(JS_FROM)) {
    const root = packageRoot(match[1] ?? '');
    if (root && !NODE_BUILTINS.has(root)) found.push(root);
  }
  if (imports) for (const match of text.matchAll(PY_IMPORT)) {
    const root = match[1] ?? match[2] ?? '';
    if (root && !PYTHON_STDLIB.has(root)) found.push(root);
  }
  if (imports) for (const match of text.matchAll(JVM_IMPORT)) {
    const [first = '', second = ''] = [match[1], match[2]];
    if (JVM_STANDARD.has(first)) continue;
    // Reverse-domain packages are named by their second segment (`org.springframework`), or by the
    // third under a placeholder domain (`com.example.shop`).
    const third = /^[a-z]\w*$/.test(match[3] ?? '') ? match[3] : undefined;
    found.push(!JVM_ROOTS.has(first) ? first : PLACEHOLDER_DOMAINS.has(second) && third ? third : second);
  }
  // Tracebacks and warnings name the installed package a frame or a file belongs to.
  if (text.includes('-packages') || text.includes('node_modules')) {
    for (const match of text.matchAll(INSTALLED_PATH)) {
      const root = packageRoot(match[1] === undefined ? '' : match[2] ? `${match[1]}/${match[2]}` : match[1]);
      if (root && !root.startsWith('_') && !root.includes('.')) found.push(root);
    }
  }
  if (imports) for (const match of text.matchAll(GO_IMPORT)) {
    const segments = (match[1] ?? '').split('/');
    const name = segments[2];
    if (name) found.push(name);
  }
  return found;
}

/**
 * The MCP server of a tool, read from its name (`<server>_<tool>`); `null` for the host's own tools.
 *
 * @param tool - the tool's name.
 */
export function toolServer(tool: string): string | null {
  const match = /^([A-Za-z][A-Za-z0-9-]{1,40})_[A-Za-z]/.exec(tool);
  const server = match?.[1]?.toLowerCase();
  return server && !GENERIC_TOOL_PREFIXES.has(server) ? server : null;
}

// Capitalized runs of name characters; each is classified on its own, so no pattern backtracks across a long one.
// Letters are Unicode: `CRÍTICAS` is one word, never the acronym `CR` and a stray `TICAS`.
const TOKEN = /(?<![\p{L}\p{M}\p{N}_$.\/@-])\p{Lu}[\p{L}\p{M}\p{N}_$.\/@-]*/gu;
const MAX_TOKEN_CHARS = 40;
// `Next.js`, `Node.js`, `Socket.IO`: a capitalized word with a product suffix.
const DOTTED_PRODUCT = /^[A-Z][A-Za-z0-9]{1,20}\.(?:js|io)$/i;
// `WebSocket`, `TypeScript`, `SmartAPI`, `SessionManager`, `Gtk4`: a capital, lowercase letters, then a capital or digit.
const INNER_CAPITAL = /^[A-Z][a-z]+[A-Z0-9][A-Za-z0-9]*$/;
const LEADING_ACRONYM = /^[A-Z]{3,6}[A-Z][a-z]+[A-Za-z0-9]*$/;
const THROWABLE = /(?:Error|Exception|Warning|Failure|Fault)$/;
// `JWT`, `MFA`, `GTK4`: two to six capitals, a digit may follow.
const ACRONYM = /^[A-Z]{2,6}[0-9]?$/;
// A single name in backticks: `tmux`, `@angular/core`, `vitest`, `configuración`.
const BACKTICKED = /`([\p{L}@][\p{L}\p{M}\p{N}_@./-]{1,60})`/gu;
// An identifier in backticks: a call, a lowerCamel or snake_case name.
const IDENTIFIER = /^(?:[a-z]+[A-Z]\w*|[a-z]+_[a-z_]+)$/;
const FILE_LIKE = /\.[A-Za-z]{1,5}$|\//;

/**
 * Names of things in prose: dotted products, inner-capital names, acronyms
 * and names in backticks (file names and paths excluded: the working set
 * names those).
 *
 * @param prose - the message's text outside fenced code, capped by the caller.
 */
export function namedInProse(prose: string): NamedThing[] {
  const found: NamedThing[] = [];
  for (const match of prose.matchAll(BACKTICKED)) {
    const name = match[1] ?? '';
    if (name.startsWith('@')) {
      // `@angular/core` is a package; `@Override` an annotation.
      if (!name.includes('/')) continue;
      const root = packageRoot(name);
      if (root) found.push({ name: root, shape: 'package' });
    } else if (!FILE_LIKE.test(name) && !/^-/.test(name) && !THROWABLE.test(name) && !isRoutine(name)) {
      found.push({ name, shape: IDENTIFIER.test(name) ? 'identifier' : 'backticked' });
    }
  }
  // Backticked spans are code: the shapes below read the prose around them.
  const plain = prose.replace(/`[^`\n]*`/g, ' ');
  // A line without a lowercase letter is a heading or a rule written in capitals (`REGLAS CRÍTICAS`,
  // `FINAL NOTE`): its words are shouted, not acronyms; an acronym in running prose (`sign the JWT`)
  // sits among lowercase words. Matches come in order: each line is judged once.
  let lineEnd = -1;
  let lineShouted = false;
  const shoutedLine = (index: number): boolean => {
    if (index > lineEnd) {
      const end = plain.indexOf('\n', index);
      lineEnd = end === -1 ? plain.length : end;
      lineShouted = !LOWERCASE.test(plain.slice(plain.lastIndexOf('\n', index) + 1, lineEnd));
    }
    return lineShouted;
  };
  for (const match of plain.matchAll(TOKEN)) {
    if (match[0].length > MAX_TOKEN_CHARS + 2) continue;
    // Sentence punctuation is not part of a name.
    const token = match[0].replace(/[.-]+$/, '');
    if (token.length < 2 || token.length > MAX_TOKEN_CHARS) continue;
    if (DOTTED_PRODUCT.test(token)) found.push({ name: token, shape: 'product' });
    // `RuntimeError`, `DisabledException`: a problem's type, not a topic.
    else if (INNER_CAPITAL.test(token) && !THROWABLE.test(token) && !isRoutine(token)) found.push({ name: token, shape: 'product' });
    else if (LEADING_ACRONYM.test(token) && !THROWABLE.test(token)) {
      // `JWTService`: the acronym is the topic, the whole name its component.
      const acronym = /^[A-Z]+(?=[A-Z][a-z])/.exec(token)?.[0] ?? '';
      if (!GENERIC_ACRONYMS.has(acronym.toLowerCase())) found.push({ name: acronym, shape: 'acronym' });
      found.push({ name: token, shape: 'product' });
    }
    else if (ACRONYM.test(token) && !GENERIC_ACRONYMS.has(token.toLowerCase()) && !PLACEHOLDER.test(token) && !shoutedLine(match.index)) {
      found.push({ name: token, shape: 'acronym' });
    }
  }
  return found;
}

// A first word that makes a name a routine's (`getOptionLabel`, `ApplyScrollbarTheme`, `onHit`, `toUnity`):
// what the code does, not a subject it is about. Verbs that also name things (`build`, `load`, `save`,
// `render`) are not here: `BuildQueue` and `SaveSlots` are subjects.
const ROUTINE = /^(?:get|set|is|has|apply|create|execute|format|update|handle|calc|compute|fetch|init|ensure|resolve|spawn|toggle|validate|check|find|remove|delete|add|show|hide|parse|on|to|try|do|make)(?=[A-Z0-9_])/;

function isRoutine(name: string): boolean {
  return ROUTINE.test(name.charAt(0).toLowerCase() + name.slice(1));
}

// `XX`, `AAA`: one letter repeated is a placeholder for a value to fill in.
const PLACEHOLDER = /^([A-Z])\1+$/;
const LOWERCASE = /\p{Ll}/u;

