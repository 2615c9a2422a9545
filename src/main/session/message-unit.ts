/**
 * A message as it crosses to a worker for analysis: its unit. The hook thread
 * builds it from a view, bounding text and tool output; every parse, scan and
 * token count happens in the task.
 */
import type { AnalysisUnit, ToolCallView } from '../../workers/protocol.js';
import { pathArguments } from '../../core/extraction/working-set/working-set.js';
import { boundOutput, boundText, TOOL_CALLS_PER_MESSAGE } from './message-bounds.js';
import type { MessageView, ToolCallRead } from './message-view.js';

function toolView(call: ToolCallRead): ToolCallView {
  const failed = call.status === 'error';
  const raw = failed ? call.error : call.output;
  // Only the arguments that name files cross to a worker: a 20 MB `content` or a
  // 100,000-deep structure would make the copy itself fail or dominate the task.
  return { tool: call.tool, input: pathArguments(call.input), output: raw === undefined ? '' : boundOutput(raw), failed };
}

/**
 * The unit of one message.
 *
 * @param view - the message, read (see `readMessage`).
 * @param order - its position in the list.
 * @param known - told the unit's key before its text is built; when it answers
 *   `true` (the analysis is cached), text and tools are left empty, so a cached
 *   message costs no copying.
 */
export function toUnit(view: MessageView, order: number, known?: (key: string) => boolean): AnalysisUnit {
  const { key, role, summary } = view;
  const silent = view.silent ? { silent: true } : {};
  if (key !== null && known?.(key)) return { key, order, role, text: '', tools: [], summary, ...silent };
  const tools = view.tools.slice(-TOOL_CALLS_PER_MESSAGE).map(toolView);
  const reasoning = view.reasoning ? { reasoning: view.reasoning } : {};
  return { key, order, role, text: boundText(view.text), tools, summary, ...silent, ...reasoning };
}

/** Characters of a unit as it crosses to a worker: its text, its reasoning and its tool output. */
export function unitChars(unit: AnalysisUnit): number {
  let chars = unit.text.length + (unit.reasoning?.length ?? 0);
  for (const tool of unit.tools) chars += tool.output.length;
  return chars;
}
