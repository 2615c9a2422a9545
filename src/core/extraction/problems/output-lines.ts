/**
 * The shapes of the lines that compilers, type-checkers, linters, test
 * runners, build tools, package managers and interpreters print, as the
 * line readers of `readOutput` (line-readers.ts, problems.ts) read them.
 * Every expression is anchored or bounded, so each line costs time linear in
 * its (capped) length.
 */

// Report noise: checkmark lines, line-ending warnings, progress bars, hints, stack frames, maven chatter.
export const NOISE = new RegExp(
  [
    '^[✓✔√✗✕]', '^(?:warning: )?(?:in the working copy of .*, )?(?:LF|CRLF) will be replaced', '[█▓▒░■□]{3,}', '^\\d{1,3}%\\s*[|[]',
    '^Please remove unnecessary stubbings', '^More info:', '^For more information', '^See https?://', '^\\.\\.\\. \\d+ more',
    '^\\[ERROR\\] (?:Failures|Errors|Tests run|-> \\[Help|To see the full|Re-run Maven|For more information|\\s*$)',
    '^\\[ERROR\\]\\s*$', '^npm (?:ERR!|error) (?:code|errno|syscall|path|A complete log|signal|command|Lifecycle|$)',
    'must read (?:the )?file .*before', 'has been modified since (?:it was )?last read', 'Could not find oldString',
  ].join('|'),
  'i',
);

export const PY_TRACEBACK = /^Traceback \(most recent call last\):/;
export const PY_FRAME = /^\s*File "([^"]+)", line (\d+)/;
export const EXCEPTION = /^(?:Uncaught |Caused by: |Exception in thread "[^"]*" )?((?:[a-z_][\w]*\.)*[A-Z_a-z]\w*(?:Error|Exception|Failure|Exit|Interrupt|Fault))(?::\s*(.*))?$/;
export const JS_FRAME = /^\s+at (?:.*? \()?((?:file:\/\/)?(?:\/|[A-Za-z]:[\\/]|\.{1,2}\/|[\w@-]+\/)[^():]+):(\d+)(?::\d+)?\)?$/;
export const JAVA_FRAME = /^\s+at [\w$.<>]+\(([\w$]+\.(?:java|kt|scala|groovy)):(\d+)\)$/;
export const SUREFIRE_TEST = /^\[ERROR\]\s+([\w.$]+)\s+(?:--|»)?\s*Time elapsed.*<<<\s*(?:FAILURE|ERROR)!/;
export const SUREFIRE_SUMMARY = /^\[ERROR\]\s{2,}([\w.$]+?)(?::\d+)?\s+(?:»\s*)?(\S.*)$/;
export const MAVEN_LOCATED = /^\[(ERROR|WARNING)\]\s+(\S+\.\w+):\[(\d+),\d+\]\s+(.+)$/;
export const MAVEN_LINE = /^\[ERROR\]\s+(.+)$/;
export const TEST_FAIL = /^(?:FAIL|×)\s+(\S+\.(?:test|spec)\.\w+|\S+\.\w+)\s+(?:>\s+(.+?))?(?:\s+\[.*\])?$/;
export const PYTEST_FAILED = /^(FAILED|ERROR)\s+(\S+?\.py(?:::\S+)?)(?:\s+-\s+(.+))?$/;
export const PYTEST_HEADER = /^_{3,}\s+(\S.*?)\s+_{3,}$/;
export const PYTEST_E = /^E\s{2,}(\S.*)$/;
export const GO_FAIL = /^--- FAIL: (\S+)/;
export const GO_MESSAGE = /^\s+(\S+_test\.go:\d+): (.+)$/;
export const TAP_NOT_OK = /^not ok \d+ (.+)$/;
export const TSC = /^(\S+?\.[cm]?[jt]sx?)(?:\((\d+),\d+\)|:(\d+):\d+)\s*[:-]\s*(error|warning) (TS\d+): (.+)$/;
/**
 * MSBuild's canonical line (C#, F#, VB, NuGet, MSBuild itself): `file(12,5): error CS0234: message [project]`,
 * or `project : error NU1101: message` without a place. The keyword is the UI language's (`Fehler`,
 * `erreur`, `エラー`), so any word before the code is read.
 */
export const MSBUILD = /^(\S.{0,299}?)(?:\((\d+),\d+(?:,\d+,\d+)?\))?\s?:\s+(\p{L}{2,16}) ([A-Z]{1,6}\d{2,6})\s?:\s*(.+?)(?:\s+\[[^\]]{1,300}\])?$/u;
/** What every MSBuild line has: an error code before a colon. */
export const MSBUILD_CODE = / [A-Z]{1,6}\d{2,6} ?:/;
/** MSBuild's keyword for a warning, in the UI languages it ships in. */
export const MSBUILD_WARNING = /^(?:warn|avert|advert|avis|aviso|varov|uyar|ostrzeż|предупр|警告|경고)/i;
/** A failing test in `dotnet test`'s console logger: `Failed Ns.Class.Method [12 ms]` (the word localized). */
export const DOTNET_TEST_FAIL = /^(\p{L}{2,16}) ([\w`$.<>+-]{3,200}(?:\([^)]{0,200}\))?) \[(?:< ?)?\d[\d.,]* ?(?:ms|s|m|min|sec)\]$/u;
/** The words `dotnet test` marks a failing test with, by UI language. */
export const DOTNET_FAILED_WORD = /^(?:Failed|Fehler|Fehlgeschlagen|Échec|Échoué|Error|Errore|Falhou|Falló|Non riuscito|Nezdařilo|Başarısız|Niepowodzenie|失敗|失败|실패)$/i;
/** Its header before the message: `Error Message:`, `Fehlermeldung:`, `Message d'erreur :`. */
export const DOTNET_MESSAGE_HEADER = /^(?:Error Message|Fehlermeldung|Message d'erreur|Mensaje de error|Mensagem de erro|Messaggio di errore|Chybová zpráva|エラー メッセージ|错误消息)\s?:$/i;
/** `dotnet test`'s summary: `Failed!  - Failed: 3, Passed: 78, …`, `Bestanden!   : Fehler: 0, erfolgreich: 81, …`; the first count is the failures. */
export const DOTNET_TEST_SUMMARY = /^\p{L}{2,16}!\s+[-:]\s+\p{L}{2,16}\s?:\s+(\d+), /u;
/**
 * A failing test's header whose message follows on the next lines, beyond the runners read on their own:
 * Rust's panic (`thread 'tests::adds' panicked at src/lib.rs:10:9:`, the message next), Gradle's
 * `AppTest > adds() FAILED` (the exception next) and Jest's `● suite › test`. `next`: the following line is
 * the message whatever it says.
 */
export const TEST_HEADERS: ReadonlyArray<{ shape: RegExp; next: boolean; gate: (line: string) => boolean }> = [
  { shape: /^thread '([^']{1,200})' panicked at (\S{1,300}?:\d+):\d+:$/, next: true, gate: (line) => line.startsWith("thread '") },
  { shape: /^([A-Za-z_$][\w.$]{0,200} > .{1,200}?) FAILED$/, next: true, gate: (line) => line.endsWith(' FAILED') },
  { shape: /^● (.{1,200}? › .{1,200})$/, next: false, gate: (line) => line.startsWith('● ') },
  // xUnit's `Ns.Class.Method [FAIL]` (alone or under `[xUnit.net 00:00:01]`), PHPUnit's `1) Ns\\Class::method`, webpack's `ERROR in ./file 12:5`.
  { shape: /^(?:\[xUnit\.net [\d:.]{1,20}\]\s+)?([\w`$.<>+-]{3,200}(?:\([^)]{0,200}\))?) \[FAIL\]$/, next: true, gate: (line) => line.endsWith('[FAIL]') },
  { shape: /^\d{1,4}\) ([\w\\]{1,200}::\w{1,200})$/, next: true, gate: (line) => line.includes(')') && line.includes('::') },
  { shape: /^ERROR in (\S{1,300}?(?: \d+:\d+(?:-\d+)?)?)$/, next: true, gate: (line) => line.startsWith('ERROR in ') },
];
/** RSpec's summary of a failed example: `rspec ./spec/cart_spec.rb:12 # Cart sums the total`. */
export const RSPEC_FAILED = /^rspec (\S{1,300}:\d+) # (.{1,300})$/;
/**
 * Lines that carry message and place, read by named groups (`file`, `line`, `level`, `code`, `message`):
 * pyright's `file:12:5 - error: …`, ruff's and flake8's `file:12:5: F401 …`, PHP's `PHP Fatal error:  … in
 * file.php:12`, Node's process warnings `(node:123) UnhandledPromiseRejectionWarning: …`,
 * kubectl's `Error from server`. Each has a cheap gate: most lines are not these tools', and must cost a
 * substring search, not a scan.
 */
export const LOCATED_LINES: ReadonlyArray<{ shape: RegExp; gate: (line: string) => boolean }> = [
  { shape: /^(?<file>\S{1,300}?\.\w{1,6}):(?<line>\d+):\d+ - (?<level>error|warning): (?<message>.+)$/, gate: (line) => line.startsWith(' - ', line.indexOf(' ')) },
  { shape: /^(?<file>\S{1,300}?\.\w{1,6}):(?<line>\d+):\d+: (?<code>[A-Z]{1,4}\d{1,5}) (?:\[\*\] )?(?<message>.+)$/, gate: (line) => /\.\w{1,6}:\d+:\d+:$/.test(line.slice(0, Math.max(0, line.indexOf(' ')))) },
  {
    shape: /^(?:PHP )?(?<level>Fatal error|Parse error|Warning): {1,2}(?<message>.{1,300}?) in (?<file>\S{1,300}?\.php)(?::| on line )(?<line>\d+)$/,
    gate: (line) => line.includes('.php'),
  },
  { shape: /^\(node:\d+\) (?<code>\w{1,60}Warning): (?<message>.+)$/, gate: (line) => line.startsWith('(node:') },
  { shape: /^Error from server(?: \((?<code>\w{1,60})\))?: (?<message>.+)$/, gate: (line) => line.startsWith('Error from server') },
];
/** Rust's earlier panic, message and place on one line. */
export const RUST_PANIC = /^thread '([^']{1,200})' panicked at '(.{1,300})', (\S{1,300}?:\d+):\d+$/;
/** A linker's unresolved symbol: `main.c:(.text+0x1a): undefined reference to 'compute'`. */
export const LINKER = /^(\S{1,300}?)(?::\([^)]{1,80}\))?: ((?:undefined reference to|multiple definition of) .{1,200})$/;
/** Kotlin's compiler under Gradle: `e: file:///app/Main.kt:3:5 Unresolved reference: foo`. */
export const KOTLIN = /^([ew]): (?:file:\/\/)?(\S{1,300}?\.kts?):(\d+):\d+ (.+)$/;
export const COMPILER = /^(\S+?\.\w{1,6}):(\d+)(?::\d+)?:\s*(?:fatal )?(error|warning)(?:\[[\w-]+\])?:\s*(.+)$/;
/** A Python warning as `warnings` prints it: `path/file.py:12: UserWarning: message`. */
export const PY_WARNING = /^(\S+?\.py):(\d+): ([A-Z]\w*Warning): (.+)$/;
/** Key prefix of a Python warning; `lib:` follows it when an installed library warns about itself. */
export const PY_WARNING_KEY = 'pywarning:';
export const LIBRARY_PATH = /site-packages|dist-packages|[\\/]lib[\\/]python/;
export const GO_COMPILE = /^(\S+?\.go):(\d+):\d+: (.+)$/;
export const RUST_OR_GENERIC = /^(error|warning)(\[E\d+\])?: (.+)$/;
export const ARROW_LOCATION = /^\s*(?:-->|[╭┌,]─*\[)\s*([^\]\s]+?:\d+(?::\d+)?)\]?\s*$/;
export const BARE_LOCATION = /^\s{2,}(\S+?\.\w{1,6}:\d+:\d+):?\s*$/;
export const ESLINT_FILE = /^(?:\/|[A-Za-z]:[\\/]|\.{0,2}\/?[\w@.-]+[\\/])\S*\.\w{1,6}$/;
export const ESLINT_ROW = /^\s+(\d+):\d+\s+(error|warning)\s+(.+?)(?:\s{2,}([\w@/-]+))?$/;
export const MARKED = /^(?:x|✘|×)\s+(?:\[ERROR\]\s+)?([A-Z'"].+)$/;
export const MODULE_NOT_FOUND = /^(?:Module not found|Type error|Syntax error|SyntaxError|Error): (.+)$/i;
export const NPM_ERROR = /^npm (?:ERR!|error) (.+)$/;
export const NPM_SECURITY = /^npm warn deprecated (.+(?:vulnerab|security).+)$/i;
export const AUDIT = /^(?:found )?\d+ (?:critical|high)(?: severity)? vulnerabilit/i;
/**
 * A shell that cannot run what it was given: a program it does not find (PowerShell 5 says "the name",
 * PowerShell 7 "a name"), a script its execution policy blocks, a path it cannot reach.
 */
export const SHELL = /command not found|: not found$|No such file or directory|Permission denied|Operation not permitted|cannot access '|is not recognized as (?:an internal|the name|a name)|cannot be loaded because running scripts is disabled|^[\w.+-]{1,40} not found(?: (?:on|in) (?:the )?PATH)?$|^[\w.+-]{1,40}:? (?:is )?not (?:installed|available)\b/i;
export const HOST_TIMEOUT = /terminated (?:the )?command after exceeding timeout (\d+)\s*ms|Command timed out after/i;
export const LOG_LEVEL = /^(?:\d{4}-\d\d-\d\d[ T][\d:,.]+\s*(?:-\s*)?)?(?:[\w.]+\s+-\s+)?(ERROR|CRITICAL|FATAL|WARNING|WARN)\s*[:-]\s*(?:[\w.]+:)?\s*(.*)$/;
export const CURL = /^curl: \(\d+\) .+/;
export const GENERIC = /^(?:error|fatal|panic|FATAL|ERROR|FAILED)(?:\[\w+\])?:\s*(.+)$/;
/** A message that is only a logger's or a module's name (`ERROR:yfinance:`) says nothing. */
export const NAME_ONLY = /^[\w.-]+:?$/;
/** Status marks scripts print before a line (❌, ⚠️, 🔴), and the frame Terraform draws around its errors: read the line without them. */
export const LEADING_MARKS = /^[\p{Extended_Pictographic}\uFE0F\u200D\s│╷╵]+/u;
export const FAILED_SUMMARY = /BUILD FAILURE|Build failed|Build FAILED|Failed to compile|failed to compile|Test Files\s+\d+ failed|Tests?:?\s+\d+ failed|\b\d+ failed\b|FAILED \(|exit(?:ed with)? code [1-9]|ELIFECYCLE|Command failed/;
export const SUCCESS = /BUILD SUCCESS|Compiled successfully|✓ Compiled|Build succeeded|Tests?:?\s+\d+ passed|\b\d+ passed\b|All \d* ?tests? passed|^ok\s+\S+|^PASS\b|Successfully (?:installed|built|compiled)|\bno (?:errors|issues|problems) found|\b0 errors?\b|syntax OK|: OK$|^OK\b/;

/** A key that merges repeats: lowercase, numbers and quotes folded, whitespace collapsed. */
export function keyOf(text: string): string {
  return text.toLowerCase().replace(/0x[0-9a-f]+/g, '#').replace(/\d+/g, '#').replace(/["'`]/g, '').replace(/\s+/g, ' ').trim().slice(0, 160);
}

export const baseName = (path: string): string => path.replaceAll('\\', '/').replace(/^file:\/\//, '');

/**
 * A compiler's message without what repeats in every message of its kind: the hint in parentheses it
 * ends with (`(are you missing an assembly reference?)`) and the parameter lists of the signatures it
 * quotes. A line has room for about 200 characters, and a localized message spends half of them there.
 *
 * @param message - one message, bounded.
 */
export function compactMessage(message: string): string {
  return message
    .replace(/\s*\((?:[^()"'`\s]+\s+){2,}[^()"'`]{0,200}\)\.?$/, '')
    .replace(/\(([^()"'`]{30,300})\)/g, '(…)')
    .trim();
}
