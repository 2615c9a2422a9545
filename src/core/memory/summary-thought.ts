/**
 * The response of a summary thought: a linked header line first (so a link
 * exists outside any code the summary may open), then the summary, sanitized,
 * redacted and capped so the whole payload fits one argument of the CLI.
 */
import { sanitizeText } from '../text/sanitize.js';
import { redactSecrets } from '../text/secrets.js';
import { capChars } from '../text/char-cap.js';
import { projectConcept } from './memory-format.js';

/** Linux caps one argv element at 128 KiB including its terminating NUL, counted in bytes. */
export const MAX_ARGUMENT_BYTES = 128 * 1024 - 1;

/** Cap on the whole payload in characters; the summary inside it is capped lower (`summaryMaxChars`, at most 32,000). */
export const MAX_SUMMARY_PAYLOAD_CHARS = 50_000;

/**
 * A compaction summary as another session or the graph may see it: sanitized,
 * its secrets redacted (the model may have copied one from the conversation
 * into its summary), and capped.
 *
 * @param summary - the summary as the host stored it.
 * @param maxChars - cap on the result's characters.
 */
export function cleanSummaryText(summary: string, maxChars: number): string {
  return capChars(redactSecrets(sanitizeText(summary)).text, maxChars);
}

/**
 * The thought's response: a linked header line first (so a link exists outside
 * any code the summary may open), then the summary as it is.
 */
export function buildSummaryThought(project: string, sessionID: string, summary: string, maxChars: number): string {
  const concept = projectConcept(project);
  // OpenCode ids share their first characters (a time prefix): only the whole id tells sessions apart.
  const session = sessionID.replace(/[^A-Za-z0-9_-]/g, '').slice(0, 100) || 'unknown';
  const header = `Compaction summary of session ${session} in [[${concept}]] ([[compaction]]).`;
  let body = cleanSummaryText(summary, maxChars);
  let response = `${header}\n\n${body}`;
  // Under both the character cap and the argv byte limit, with room for the rest of the payload.
  const room = Math.min(MAX_SUMMARY_PAYLOAD_CHARS, MAX_ARGUMENT_BYTES) - 2_000;
  while (response.length > room || Buffer.byteLength(response, 'utf8') > room) {
    body = capChars(body, Math.floor(body.length * 0.9));
    response = `${header}\n\n${body}`;
  }
  return response;
}
