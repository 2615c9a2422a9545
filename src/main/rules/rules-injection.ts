/**
 * Rules that survive compaction: the applicable rules are appended
 * to the system text of every model call. The system prompt is rebuilt for
 * each call, so the first turn after a compaction has them too, nothing piles
 * up in the history, and no silent message can start an extra model turn.
 */
import { withDeadline } from '../shared/deadline.js';
import { renderRules } from './rules.js';
import { appendToSystem } from '../shared/system-text.js';
import { errorText } from '../shared/logger.js';
import { forHook, type HandlerDeps } from '../shared/handler-deps.js';
import type { WorkingSetTracker } from '../working-set/working-set-tracker.js';
import type { RuleSet } from './rules.js';

/** How long one call may wait for the rule folders. */
export const RULES_DEADLINE_MS = 2_000;

type SystemTransform = (input: { sessionID?: string }, output: { system: string[] }) => Promise<void>;

/** The options rules injection reads. */
export const RULES_INJECTION_OPTIONS = ['rules', 'rulesMaxChars'] as const;

/** What the handler uses of the plugin's shared parts. */
export interface RulesInjectionDeps extends HandlerDeps<(typeof RULES_INJECTION_OPTIONS)[number]> {
  /** The paths each session's tools touched. */
  workingSet: Pick<WorkingSetTracker, 'recent'>;
  rules: RuleSet;
}

/**
 * @param context - the parts of the plugin it uses.
 */
export function createRulesInjection(context: RulesInjectionDeps): SystemTransform {
  const { options, rules, workingSet, logger } = forHook(context, 'rules');
  const announced = new Map<string, number>();
  return async (input, output) => {
    try {
      if (!options.rules || !Array.isArray(output?.system)) return;
      const loaded = await withDeadline(rules.load(), RULES_DEADLINE_MS);
      if (!loaded.done) {
        logger.warn(`rules: folders not read within ${RULES_DEADLINE_MS} ms; this call goes without them`);
        return;
      }
      const sessionID = typeof input?.sessionID === 'string' ? input.sessionID : '';
      const applicable = rules.applicable(loaded.value, sessionID ? workingSet.recent(sessionID) : []);
      const { text, included } = renderRules(applicable, options.rulesMaxChars);
      if (!text) return;
      appendToSystem(output.system, text);
      if (sessionID && announced.get(sessionID) !== included) {
        // One line when what a session gets changes, not one per model call.
        if (announced.size > 1_000) announced.clear();
        announced.set(sessionID, included);
        logger.info(`rules: ${included} of ${loaded.value.length} apply to session ${sessionID}${included < applicable.length ? ` (${applicable.length - included} over rulesMaxChars)` : ''}`);
      }
    } catch (error) {
      logger.error(`rules: hook failed, system prompt left as it was: ${errorText(error)}`);
    }
  };
}
