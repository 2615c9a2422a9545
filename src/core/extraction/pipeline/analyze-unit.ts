/**
 * The per-message pass: everything about a message that does not depend on
 * the rest of the conversation, so it can run on any worker and be cached.
 */
import type { AnalysisUnit, AnalyzeInput, AnalyzeOutput, StageTimings, UnitAnalysis } from './analysis.js';
import type { FileTouch, TermHit } from '../working-set/touches.js';
import { timed } from './stage-timing.js';
import { sanitizeText } from '../../text/sanitize.js';
import { redactSecrets } from '../../text/secrets.js';
import { capChars } from '../../text/char-cap.js';
import { withoutModePreambles } from '../../text/mode-preambles.js';
import { scanHeadings, sectionAt, type Heading } from '../../text/sections.js';
import { extractDecisions, type Decision } from '../decisions/decisions.js';
import { EDIT_TOOL, normalizeToolPath, SHELL_TOOL, touchesFromToolCall } from '../working-set/working-set.js';
import { signalsFromPastedText, signalsFromToolCall } from '../problems/tool-signals.js';
import { describeEdit, editChanges } from '../working-set/edits.js';
import type { Observation } from '../observations.js';
import { termsOfMessage } from '../concepts/message-terms.js';
import { detectLanguage } from '../../text/language.js';
import { cuesFor, decisionCuesFor } from '../../text/cues/cues.js';
import { proseItems } from '../prose/prose-items.js';
import { DECISION_THRESHOLD, proseDecisions } from '../decisions/prose-decisions.js';
import { isReport } from '../decisions/decision-source.js';
import { seedDecisionScore, seedFamiliesWorthReading } from '../decisions/seed-decisions.js';
import { deletionDecision, hostDecision, versionControlDecision } from '../decisions/work-decisions.js';
import { commitSizeWeight } from '../decisions/commit-size.js';
import { assistantNotes, emptyReplyNote, isPastedDocument, userNotes } from '../notes/prose-notes.js';
import { todoNotes } from '../notes/todos.js';
import { todoDecisions } from '../decisions/todo-decisions.js';
import { thoughtDecisions } from '../decisions/thought-decisions.js';

/** Longest tool name kept; MCP tool names are a server's prefix and a name, well under this. */
const MAX_TOOL_NAME_CHARS = 100;

function boundaryFields(text: string, headings: readonly Heading[], maxChars: number) {
  const firstH2 = headings.findIndex((heading) => heading.depth === 2);
  let lastH2 = -1;
  for (let index = headings.length - 1; index >= 0; index--) {
    if (headings[index]?.depth === 2) {
      lastH2 = index;
      break;
    }
  }
  const lead = capChars(text.slice(0, headings[0]?.offset ?? text.length), maxChars);
  return {
    h2Count: headings.reduce((count, heading) => count + (heading.depth === 2 ? 1 : 0), 0),
    lead,
    leadIsWhole: headings.length === 0,
    firstSection: firstH2 === -1 ? '' : sectionAt(text, headings, firstH2, maxChars),
    firstSectionOpen: firstH2 !== -1 && firstH2 === headings.length - 1,
    lastSection: lastH2 === -1 ? '' : sectionAt(text, headings, lastH2, maxChars),
    lastSectionOpen: lastH2 !== -1 && lastH2 === headings.length - 1,
  };
}

/**
 * Analyzes one unit.
 *
 * @param unit - the message's joined text and its tool calls.
 * @param settings - caps and the project root.
 * @param timings - accumulates per-stage milliseconds.
 */
export function analyzeUnit(unit: AnalysisUnit, settings: AnalyzeInput['settings'], timings: StageTimings): UnitAnalysis {
  let redactions = 0;
  // What leaves this analysis and is ever shown or written — decisions and signals — loses its secrets
  // here; sections are redacted where they are read (finalize). Redacting only that keeps the cost off
  // the megabytes that are scanned and dropped.
  const redact = (raw: string): string => {
    const redacted = redactSecrets(raw);
    redactions += redacted.redactions;
    return redacted.text;
  };
  // What another plugin wrote into the user's turn is not the user's ask (mode-preambles.ts).
  const text = timed(timings, 'sanitize', () => {
    const sanitized = sanitizeText(unit.text);
    return unit.role === 'user' ? withoutModePreambles(sanitized) : sanitized;
  });
  const headings = timed(timings, 'sections', () => scanHeadings(text));
  const boundary = timed(timings, 'sections', () => boundaryFields(text, headings, settings.maxSectionChars));
  const items = timed(timings, 'prose', () => (unit.role === 'assistant' || unit.role === 'user' ? proseItems(text) : []));
  const language = timed(timings, 'language', () => detectLanguage(items.slice(0, 20).map((item) => item.text).join(' ')));
  const cues = cuesFor(language);
  const decisions = timed(timings, 'decisions', () => {
    // The seed's patterns stay one source, ranked by how much each family is worth; a pasted template is no one's decision.
    const pasted = unit.role === 'user' && isPastedDocument(text);
    const families = seedFamiliesWorthReading(unit.role, text.includes('[['), pasted);
    const seed = extractDecisions(text, { max: settings.maxDecisionsPerUnit, families })
      .map((decision) => ({ ...decision, score: seedDecisionScore(decision, unit.role, pasted) }))
      .filter((decision) => decision.score >= DECISION_THRESHOLD);
    const prose = unit.role === 'assistant'
      ? proseDecisions(items, decisionCuesFor(language, text.length), { summary: unit.summary, report: isReport(items, decisionCuesFor(language, text.length)), edits: unit.tools.some((call) => EDIT_TOOL.test(call.tool)), closing: unit.tools.length === 0 }, settings.maxDecisionsPerUnit)
      : [];
    // Lines that close a turn below a decision's marks take no room from the stated ones: they only fill (turn-reports.ts).
    const stated = [...prose.filter((decision) => !decision.closing), ...seed].slice(0, settings.maxDecisionsPerUnit);
    return [...stated, ...prose.filter((decision) => decision.closing)].map((decision) => ({ ...decision, order: unit.order }));
  });
  const files: FileTouch[] = [];
  const signals: Observation[] = [];
  const terms: TermHit[] = [];
  const todos: Observation[] = [];
  /** Completed todo items, read beside the open ones (the decisions stage ranks them after the commands). */
  const todosDone: Decision[] = [];
  timed(timings, 'tools', () => {
    for (const call of unit.tools) {
      // A tool's name is the host's or an MCP server's text: it reaches the context like any other.
      const tool = capChars(sanitizeText(call.tool), MAX_TOOL_NAME_CHARS);
      const touches = touchesFromToolCall(tool, call.input, settings.projectRoot);
      // A failed call changed nothing: the file it named was only looked at.
      for (const touch of touches) files.push({ path: touch.path, tool, order: unit.order, action: call.failed && touch.action !== 'cwd' ? 'read' : touch.action });
      if (!call.failed) {
        // Edits are facts: which file, and what in it changed. A failed edit changed nothing.
        const edited = touches.find((touch) => touch.action === 'edit')?.path ?? null;
        for (const change of editChanges(call.input, edited, (raw) => normalizeToolPath(raw, settings.projectRoot))) {
          const described = describeEdit({ ...change, before: sanitizeText(change.before), after: sanitizeText(change.after) }, tool, unit.order);
          if (!described) continue;
          signals.push(described.observation);
          terms.push(...described.terms);
        }
      }
      const output = sanitizeText(call.output);
      signals.push(...signalsFromToolCall({ tool, input: call.input, output, failed: call.failed, order: unit.order }));
      todos.push(...todoNotes({ tool, input: call.input, output, failed: call.failed }, unit.order));
      todosDone.push(...todoDecisions({ tool, input: call.input, output, failed: call.failed }, settings.maxDecisionsPerUnit));
    }
    // A stack trace or compiler output the user pasted is a problem report like a failing command's.
    if (unit.role === 'user') signals.push(...signalsFromPastedText(text, unit.order));
  });
  timed(timings, 'decisions', () => {
    // What the work records decides too: a commit's message, a stash, a change to the hosted project, the project files deleted.
    const done: Decision[] = [];
    for (const call of unit.tools) {
      const command = call.input['command'];
      if (call.failed || typeof command !== 'string' || !SHELL_TOOL.test(call.tool)) continue;
      const clean = sanitizeText(command);
      const committed = versionControlDecision(clean, unit.order);
      // A commit's size orders the session's commits: a feature above its one-line fixes (see `rankDecisions`).
      const recorded = committed?.undoesCommit ? committed : committed ? { ...committed, commitSize: commitSizeWeight(call.output) } : hostDecision(clean, unit.order);
      if (recorded && !done.some((decision) => decision.text === recorded.text)) done.push(recorded);
    }
    // What the reasoning settled right before this message's own edits, when those edits change what it names.
    if (unit.role === 'assistant' && unit.reasoning) done.push(...thoughtDecisions(unit.reasoning, { files, signals }, unit.order));
    done.push(...todosDone);
    const deleted = deletionDecision(files.filter((touch) => touch.action === 'delete').map((touch) => touch.path), unit.order);
    if (deleted) done.push(deleted);
    const room = settings.maxDecisionsPerUnit - decisions.reduce((count, decision) => count + (decision.closing ? 0 : 1), 0);
    decisions.push(...done.slice(0, Math.max(0, room)).map((decision) => ({ ...decision, order: unit.order })));
  });
  const notes: Observation[] = timed(timings, 'notes', () => {
    if (unit.role === 'user') return userNotes(text, items, cues, unit.order);
    if (unit.silent === true) return [emptyReplyNote(unit.order)];
    if (unit.role === 'assistant') return [...assistantNotes(items, cues, unit.order, unit.summary, unit.tools.length > 0), ...todos];
    return todos;
  });
  timed(timings, 'redact', () => {
    for (const decision of decisions) {
      decision.text = redact(decision.text);
      decision.context = redact(decision.context);
    }
    for (const signal of signals) signal.text = redact(signal.text);
    for (const note of notes) note.text = redact(note.text);
  });
  // Names only (normalized concepts), never sentences; an identifier that looks like a secret (a key in an edited config) never becomes a concept.
  terms.push(...timed(timings, 'terms', () => termsOfMessage({ text, role: unit.role, order: unit.order, tools: unit.tools, files, language, summary: unit.summary })));
  const safeTerms = timed(timings, 'redact', () => terms.filter((term) => redactSecrets(term.name).redactions === 0));
  return { key: unit.key, order: unit.order, chars: text.length, ...boundary, decisions, files, signals, notes, terms: safeTerms, language, redactions };
}

/**
 * Task: analyzes a batch of units.
 *
 * @param input - the units (one batch of a conversation) and the settings.
 */
export function analyzeUnits(input: AnalyzeInput): AnalyzeOutput {
  const timings: StageTimings = {};
  const analyses = input.units.map((unit) => analyzeUnit(unit, input.settings, timings));
  return { analyses, timings };
}
