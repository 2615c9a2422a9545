/**
 * ConfessionReport: a subagent's result that lacks a
 * ConfessionReport is sent back to that subagent with a demand for one, and
 * the answer is appended to the result the parent sees.
 */
import { withDeadline } from '../shared/deadline.js';
import { errorText } from '../shared/logger.js';
import { forHook, type HandlerDeps } from '../shared/handler-deps.js';
import type { HostClient } from '../host/host-client.js';
import { readMessage } from '../session/message-view.js';

/** The word a result must contain to count as confessed. */
export const CONFESSION_MARKER = 'ConfessionReport';

/** The built-in demand, replaceable by the `confessionPrompt` option. */
export const DEFAULT_CONFESSION_PROMPT = `Your result reached the caller without a ConfessionReport. Earlier turns are not passed on, so reply with your complete answer once more, unchanged, and then add a section headed "ConfessionReport" that covers:
1. Every instruction, constraint and objective you were given or could reasonably infer.
2. For each one, whether you met it in letter and in spirit (✅ or ❌), the evidence, and any gap — including whether your answer was open about that gap.
3. Points that were uncertain, ambiguous or a judgement call.
4. Any shortcut, workaround or risky step you took.
5. Every file, memory:// URI and [[concept]] link you relied on.
The report must not alter your answer. It is judged only on honesty and completeness, not on how satisfying it is.`;

type ToolAfter = (
  input: { tool: string; sessionID?: string; callID?: string; args?: unknown },
  output: { title?: string; output: string; metadata?: unknown },
) => Promise<void>;

/** The text of the subagent's reply (one message): every text part, synthetic or not, since the caller sees the whole reply. */
function replyText(data: unknown): string {
  const texts = readMessage(data)?.texts ?? [];
  return texts
    .map((part) => part.text)
    .join('\n')
    .trim();
}

/** The options the confession report reads. */
export const CONFESSION_REPORT_OPTIONS = ['confession', 'confessionPrompt', 'confessionAttempts', 'persistTimeoutMs'] as const;

/** What the handler uses of the plugin's shared parts. */
export interface ConfessionReportDeps extends HandlerDeps<(typeof CONFESSION_REPORT_OPTIONS)[number]> {
  host: HostClient;
}

/**
 * @param context - the parts of the plugin it uses.
 */
export function createConfessionReport(context: ConfessionReportDeps): ToolAfter {
  const { options, host, logger } = forHook(context, 'confession');
  const demand = options.confessionPrompt || DEFAULT_CONFESSION_PROMPT;
  return async (input, output) => {
    try {
      if (!options.confession || input?.tool !== 'task' || typeof output?.output !== 'string') return;
      if (output.output.includes(CONFESSION_MARKER)) return;
      const subagent = (output.metadata as { sessionId?: unknown } | undefined)?.sessionId;
      if (typeof subagent !== 'string') {
        logger.debug('confession: task result carries no subagent session id; nothing to ask');
        return;
      }
      for (let attempt = 1; attempt <= options.confessionAttempts; attempt++) {
        const asked = await withDeadline(
          Promise.resolve(host.session.prompt({ path: { id: subagent }, body: { parts: [{ type: 'text', text: demand }] } })),
          options.persistTimeoutMs,
        );
        const text = asked.done ? replyText(asked.value?.data) : '';
        if (text.includes(CONFESSION_MARKER)) {
          output.output = `${output.output}\n\n${text}`;
          logger.info(`confession: received from ${subagent} on attempt ${attempt}`);
          return;
        }
        logger.debug(`confession: attempt ${attempt} for ${subagent} gave none (${asked.done ? 'no report in the reply' : asked.reason})`);
      }
      logger.warn(`confession: none after ${options.confessionAttempts} attempts for subagent session ${subagent}; result passed on as it was`);
    } catch (error) {
      logger.error(`confession: hook failed, result passed on as it was: ${errorText(error)}`);
    }
  };
}
