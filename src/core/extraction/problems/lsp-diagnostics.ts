/**
 * Compiler errors a file tool's output carries: after an edit or a write,
 * OpenCode asks its language servers about the file and appends what they
 * report, one block per file —
 *
 * ```
 * LSP errors detected in this file, please fix:
 * <diagnostics file="/abs/path/src/a.ts">
 * ERROR [12:5] Cannot find name 'foo'.
 * </diagnostics>
 * ```
 *
 * — "in this file" (or "in src/a.ts", for a multi-file edit) for the files the
 * call changed, "in other files" for the rest of the project (versions of 2025
 * printed `<file_diagnostics>` and `<project_diagnostics>` blocks instead). A session whose
 * build is never run in a shell shows its compiler errors only here, so they
 * are problems like a compiler's, tied to their file and settled when a later
 * edit of that file comes back without a block for it.
 *
 * One pass over the lines of the (already bounded) output.
 */
import { keyOf } from './output-lines.js';

/** One error a language server reported. */
export interface Diagnostic {
  /** The file, as the block names it (slashes normalized). */
  file: string;
  line: number;
  message: string;
  /** Whether the call changed this file (`this file`), rather than reporting on the rest of the project. */
  current: boolean;
}

/** Cheap gate: the tag every block opens with. */
export const DIAGNOSTICS_TAG = '<diagnostics file="';

const HEADER = /^LSP errors detected in (other files)?/;
const OPEN = /^<diagnostics file="([^"]{1,1000})">$/;
/** Earlier OpenCode (2025): `This file has errors, please fix` over `<file_diagnostics>`, and `<project_diagnostics>` with the file on its first line. */
const EARLIER_HEADER = 'This file has errors, please fix';
const EARLIER_CLOSE = /^<\/(?:file|project)_diagnostics>$/;
// OpenCode keeps only severity 1 and prints it as ERROR; earlier versions and forks print WARN and INFO lines too, left out.
const ERROR_LINE = /^ERROR \[(\d+):\d+\] (\S.*)$/;
/** Errors read from one output at most (OpenCode prints 20 per file, 5 other files). */
const MAX_DIAGNOSTICS = 40;

const normalize = (file: string): string => file.replaceAll('\\', '/');

/**
 * The errors in a file tool's output.
 *
 * @param output - the tool's output, bounded.
 * @param edited - the file the call changed, as its input names it: earlier blocks about it do not repeat its name.
 * @returns the errors in the order printed, at most {@link MAX_DIAGNOSTICS}; an output without a block gives none.
 */
export function readDiagnostics(output: string, edited = ''): Diagnostic[] {
  if (!output.includes(DIAGNOSTICS_TAG) && !output.includes('_diagnostics>')) return [];
  const found: Diagnostic[] = [];
  let other = false;
  let afterHeader = false;
  let projectBlock = false;
  let file: string | null = null;
  for (const raw of output.split('\n')) {
    const line = raw.replace(/\r$/, '');
    const header = HEADER.exec(line);
    if (header || line === EARLIER_HEADER) {
      other = header?.[1] !== undefined;
      afterHeader = true;
      continue;
    }
    if (projectBlock) {
      // The line after `<project_diagnostics>` names the file.
      file = normalize(line.trim());
      projectBlock = false;
      continue;
    }
    // Only a block right under its header: a file's content that quotes the tag is not a report.
    const open = afterHeader ? OPEN.exec(line) : null;
    const earlierOwn = afterHeader && line === '<file_diagnostics>';
    afterHeader = false;
    if (open || earlierOwn) {
      file = open ? normalize(open[1] ?? '') : edited ? normalize(edited) : null;
      continue;
    }
    if (line === '<project_diagnostics>') {
      [projectBlock, other] = [true, true];
      continue;
    }
    if (line === '</diagnostics>' || EARLIER_CLOSE.test(line)) {
      file = null;
      continue;
    }
    const error = file === null ? null : ERROR_LINE.exec(line);
    if (!error || file === null) continue;
    found.push({ file, line: Number(error[1]), message: (error[2] ?? '').trim(), current: !other });
    if (found.length >= MAX_DIAGNOSTICS) break;
  }
  return found;
}

/**
 * The key a file's diagnostics are settled by: a later edit of the same file that comes back clean
 * leaves a clean-run marker with this key. Whitespace is folded because `resolveByLaterRuns` reads a
 * key's words as a command's.
 *
 * @param file - the file, as a tool's input or a block names it.
 */
export function diagnosticsSource(file: string): string {
  return `lsp:${normalize(file).replace(/\s+/g, '_')}`;
}

/**
 * The errors worth reporting: every distinct error in the files the call changed, and of each other
 * file only its first one. Other files' blocks come back unchanged after every write (a header the
 * machine lacks, then every name it would have declared); the first error is their cause, and the
 * rest would crowd out the errors the call itself made.
 *
 * @param diagnostics - what {@link readDiagnostics} found in one output.
 * @returns the errors kept, each with an identity that merges repeats (line numbers folded).
 */
export function reportedDiagnostics(diagnostics: readonly Diagnostic[]): Array<Diagnostic & { key: string }> {
  const kept: Array<Diagnostic & { key: string }> = [];
  const seen = new Set<string>();
  const otherFiles = new Set<string>();
  for (const diagnostic of diagnostics) {
    if (!diagnostic.current) {
      if (otherFiles.has(diagnostic.file)) continue;
      otherFiles.add(diagnostic.file);
    }
    const key = `${diagnostic.current ? 'lsp' : 'lsp-other'}:${keyOf(`${diagnostic.file.split('/').pop() ?? ''}: ${diagnostic.message}`)}`;
    if (seen.has(key)) continue;
    seen.add(key);
    kept.push({ ...diagnostic, key });
  }
  return kept;
}
