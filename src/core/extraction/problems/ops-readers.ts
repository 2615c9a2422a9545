/**
 * What operating a service prints when it goes wrong, read like a compiler's
 * errors (see line-readers.ts): structured log lines at an error level
 * (JSON, as Go's slog, zap, pino or bunyan write them, and logfmt), systemd's
 * report of a unit whose main process failed (in its journal and in `systemctl status`), a CI run listed as failed
 * (`gh run list`, `gh run view`), and a server error in the response
 * headers curl prints, and the error body a JSON API answers with. Deployment sessions show their failures only there.
 * Each expression is anchored or bounded; a line is read through a capped prefix.
 */
import type { ReadingState } from './reading-state.js';

/** A structured log line's level field at an error or warning level, in any case; JSON or logfmt. */
const JSON_LEVEL = /"(?:level|severity|lvl|log\.level)"\s?:\s?"(error|err|fatal|critical|crit|panic|emerg|alert|warn|warning)"/i;
const LOGFMT_LEVEL = /(?:^|\s)(?:level|lvl|severity)=(error|err|fatal|critical|panic|warn|warning)(?:\s|$)/i;
/** pino and bunyan write the level as a number: 50 error, 60 fatal. */
const NUMERIC_LEVEL = /"level"\s?:\s?(50|60)[,}]/;
const JSON_FIELD = (names: string): RegExp => new RegExp(`"(?:${names})"\\s?:\\s?"((?:[^"\\\\]|\\\\.){1,300})"`);
const JSON_MESSAGE = JSON_FIELD('msg|message');
const JSON_ERROR = JSON_FIELD('error|err|exception');
const LOGFMT_FIELD = (names: string): RegExp => new RegExp(`(?:^|\\s)(?:${names})=(?:"((?:[^"\\\\]|\\\\.){1,300})"|(\\S{1,300}))`);
const LOGFMT_MESSAGE = LOGFMT_FIELD('msg|message');
const LOGFMT_ERROR = LOGFMT_FIELD('error|err');
/** systemd: `app.service: Main process exited, code=exited, status=226/NAMESPACE`. */
const SYSTEMD_STATUS = /([\w@.:-]{1,120}\.(?:service|socket|mount|timer)): (?:Main|Control) process exited, code=(\w+), status=(\d+)\/([A-Z_]+)/;
/** `systemctl status`: `Main PID: 812 (code=exited, status=226/NAMESPACE)`, `Process: 812 ExecStart=/usr/bin/app (code=…)`. */
const SYSTEMCTL_STATUS = /^(?:Main PID|Process): \d+ (?:\S.{0,200}? )?\(code=(\w+), status=(\d+)\/([A-Z_]+)\)$/;
const SYSTEMD_FAILED_START = /systemd\[\d+\]: (Failed to start .{1,200})$/;
/** `gh run list` when piped (tab-separated) and on a terminal (`X` marks a failed run). */
const GH_RUN_TSV = /^completed\t(failure|startup_failure|timed_out)\t([^\t]{1,200})\t([^\t]{1,120})\t([^\t]{1,120})\t/;
const GH_RUN_TTY = /^X\s{2,}(\S.{0,200}?)\s{2,}(\S.{0,120}?)\s{2,}(\S+)\s{2,}\S+\s{2,}\d{6,}\s/;
const GH_RUN_VIEW = /^X (\S{1,120}) (\S.{0,120}?) · \d{6,}$/;
/** A status line of an HTTP response, as `curl -i`, `-I` or `-v` print it: a server error. */
const HTTP_SERVER_ERROR = /^(?:< )?HTTP\/[\d.]{1,3} (5\d\d)(?: (.{1,60}))?$/;

/**
 * The error body of a JSON API, opening its object: `{"error":{"code":"forbidden","message":"…"}}` (REST APIs,
 * Google's with a `status`), `{"error":"…"}`, `{"errors":[{"message":"…"}]}` (GraphQL, GitHub). A script that
 * calls an API with curl or fetch prints it as the whole answer, with no status line and no error level.
 */
const API_ERROR = /\{\s?"(errors?)"\s?:\s?(\{|\[\s?\{|"((?:[^"\\]|\\.){1,300})")/;
const API_CODE = /"(?:code|status|type)"\s?:\s?(?:"([\w.-]{1,40})"|(\d{3}))/;

const unescape = (text: string): string => text.replace(/\\(["\\/])/g, '$1').replace(/\\n/g, ' ');

/** A structured log line's message and error, when its level is an error or a warning. */
function structuredLog(line: string): { type: 'problem' | 'warning'; text: string } | null {
  const json = line.includes('{') && (line.includes('"level"') || line.includes('"severity"') || line.includes('"lvl"') || line.includes('"log.level"'));
  const logfmt = !json && (line.includes('level=') || line.includes('lvl=') || line.includes('severity='));
  if (!json && !logfmt) return null;
  const level = json ? JSON_LEVEL.exec(line)?.[1] ?? (NUMERIC_LEVEL.test(line) ? 'error' : undefined) : LOGFMT_LEVEL.exec(line)?.[1];
  if (level === undefined) return null;
  const message = json ? JSON_MESSAGE.exec(line)?.[1] : (([, quoted, bare]) => quoted ?? bare)(LOGFMT_MESSAGE.exec(line) ?? []);
  const error = json ? JSON_ERROR.exec(line)?.[1] : (([, quoted, bare]) => quoted ?? bare)(LOGFMT_ERROR.exec(line) ?? []);
  const text = [message, error].filter((part): part is string => typeof part === 'string' && part.length > 0).map(unescape).join(': ');
  if (text.length === 0) return null;
  return { type: /^warn/i.test(level) ? 'warning' : 'problem', text };
}

/** The error a JSON API answered with: its code and message, or `null` when the line holds none. */
function apiError(line: string): string | null {
  const found = API_ERROR.exec(line);
  if (!found) return null;
  if (found[3] !== undefined) return `API error: ${unescape(found[3])}`;
  // The fields of the error object itself, read through a bounded window after its opening.
  const body = line.slice((found.index ?? 0) + found[0].length - 1, (found.index ?? 0) + found[0].length + 400);
  const message = JSON_MESSAGE.exec(body)?.[1];
  if (message === undefined) return null;
  const code = API_CODE.exec(body);
  const label = code ? code[1] ?? code[2] : undefined;
  return `API error${label ? ` ${label}` : ''}: ${unescape(message)}`;
}

/**
 * Reads one line of a service's or a CI's output.
 *
 * @param line - the line, trimmed and without leading marks.
 * @param state - the reading.
 * @returns whether the line was taken.
 */
export function readOpsLine(line: string, state: ReadingState): boolean {
  // Cheap gates first: most lines have no field, and must cost a substring search, not a scan per shape.
  const fields = line.includes('=') || line.includes('{');
  const logged = fields ? structuredLog(line) : null;
  if (logged) {
    state.push(logged.type, logged.text);
    if (logged.type === 'problem') state.failed = true;
    return true;
  }
  const api = fields && line.includes('"error') ? apiError(line) : null;
  if (api) {
    state.push('problem', api);
    state.failed = true;
    return true;
  }
  const exited = fields && line.includes('status=') ? SYSTEMD_STATUS.exec(line) ?? SYSTEMCTL_STATUS.exec(line) : null;
  if (exited) {
    const [unit, code, status, name] = exited.length === 5 ? exited.slice(1) : ['', ...exited.slice(1)];
    if (status === '0') return false;
    // Keyed by unit and status name: a crash loop prints the same line on every restart.
    state.push('problem', `${unit ? `${unit}: ` : ''}main process exited, code=${code}, status=${status}/${name}`, `systemd:${unit}:${name}`);
    state.failed = true;
    return true;
  }
  const failedStart = line.includes('systemd[') ? SYSTEMD_FAILED_START.exec(line) : null;
  if (failedStart) {
    state.push('problem', failedStart[1] ?? '');
    state.failed = true;
    return true;
  }
  const run = line.startsWith('completed\t') ? GH_RUN_TSV.exec(line) : null;
  const marked = line.startsWith('X ');
  const tty = marked ? GH_RUN_TTY.exec(line) : null;
  const view = marked && !tty ? GH_RUN_VIEW.exec(line) : null;
  if (run || tty || view) {
    const [workflow, title, branch] = run ? [run[3], run[2], run[4]] : tty ? [tty[2], tty[1], tty[3]] : [view?.[2], '', view?.[1]];
    // One line per workflow and branch: a listing repeats the same failure for every push.
    state.push('problem', `CI workflow ${workflow} failed on ${branch}${title ? ` (${title})` : ''}`, `ci:${workflow}:${branch}`);
    state.failed = true;
    return true;
  }
  const http = line.startsWith('HTTP/') || line.startsWith('< HTTP/') ? HTTP_SERVER_ERROR.exec(line) : null;
  if (http) {
    state.push('problem', `HTTP ${http[1]}${http[2] ? ` ${http[2].trim()}` : ''} from the server`);
    state.failed = true;
    return true;
  }
  return false;
}
