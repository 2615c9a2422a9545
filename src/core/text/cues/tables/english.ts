/**
 * English cue words, which apply in every session whatever its language:
 * code sessions mix languages, and tool names, headings and identifiers stay
 * English. One file a language, so that a language is added or tuned in one
 * place; the kinds are in `cue-kinds.ts`.
 */
import { cueTable, type CueTable } from '../cue-kinds.js';

/** English cues, by kind. */
export const ENGLISH: CueTable = cueTable({
  goalHeading: ['objective', 'objectives', 'goal', 'goals', 'task', 'the task', 'primary request', 'user request', 'request', 'background', 'requirements', 'instructions'],
  purpose: [
    'so that', 'so it', 'so the', 'so we', 'so they', 'so one', 'so no', 'in order to', 'to avoid', 'to prevent', 'to keep',
    'to ensure', 'to make sure', 'to stop', 'to allow', 'to support', 'because', 'since', 'which means', 'otherwise',
    'so nothing', 'not to',
  ],
  instruction: {
    change: ['replace', 'pin', 'downgrade', 'rewrite', 'enforce'],
    weakChange: ['add', 'remove', 'delete', 'fix', 'use', 'create', 'update', 'wrap', 'split', 'install', 'clean', 'reinstall'],
    only: [
      'move', 'change', 'switch', 'rename', 'extract', 'make', 'implement', 'introduce', 'keep', 'set', 'convert',
      'refactor', 'inline', 'merge', 'upgrade', 'handle', 'drop', 'connect', 'wire', 'ensure', 'unify', 'migrate',
      'consider', 'document', 'expose', 'mark', 'rework', 'decide',
    ],
  },
  change: [
    'changed', 'change from', 'switched', 'switch to', 'replaced', 'replaces', 'moved', 'move the', 'renamed',
    'migrated', 'downgraded', 'upgraded', 'pinned', 'converted', 'rewrote', 'rewritten', 'refactored', 'extracted',
    'inlined', 'inline the', 'wrapped', 'wraps', 'now uses', 'now calls', 'now reads', 'now publishes', 'now returns',
    'now raises', 'now goes through', 'instead of', 'rather than', 'in favor of', 'in favour of', 'decided',
    'went with', 'go with', 'opted', 'chose', 'settled on', 'enforced', 'enforces', '→',
  ],
  weakChange: [
    'added', 'adds', 'removed', 'removes', 'deleted', 'created', 'introduced', 'fixed', 'implemented', 'updated',
    'made', 'kept', 'merged', 'installed', 'retrained', 'stashed', 'wired', 'connected', 'hardened', 'guarded',
    'redirects', 'resolved', 'reworked', 'relaxed', 'restricted', 'committed', 'consolidated', 'delegates', 'persists', 'uses', 'set to',
    'defaults to', 'stores', 'loads', 'builds', 'checks', 'publishes', 'reloads', 'activates', 'no longer',
  ],
  summaryHeading: [
    'summary', 'changes', 'change', 'what changed', 'what was changed', 'what i did', 'what i changed', 'fixes applied',
    'fix applied', 'fixes', 'the fix', 'fix', 'solution', 'resolution', 'done', 'completed', 'accomplished',
    'implemented', 'implementation', 'result', 'results', 'files modified', 'modified', 'key changes', 'proposed fix',
    'plan', 'work state', 'all set', 'updated',
  ],
  decisionHeading: [
    'key decisions', 'decisions', 'decision', 'design decisions', 'agreed', 'decided', 'approach', 'better approach',
    'strategy', 'chosen',
  ],
  problemHeading: [
    'root cause', 'root causes', 'cause', 'causes', 'issue', 'issues', 'issues found', 'problem', 'problems', 'bug', 'bugs', 'what went wrong',
    'diagnosis', 'pending issues', 'known issues', 'blocked', 'blockers', 'errors', 'failures',
  ],
  nextHeading: [
    'next steps', 'next step', 'next move', 'up next', "what's next", 'remaining', 'remaining work', 'todo', 'to do', 'to-do', 'pending',
    'open questions', 'follow-up', 'follow-ups', 'current work', 'in progress', 'active', "what's left", 'left to do',
    'still unresolved', 'still open', 'recommendations',
  ],
  planHeading: ['plan', 'proposed', 'proposal', 'proposed fix', 'proposed changes', 'steps', 'fix plan', 'implementation plan'],
  problem: [
    'error', 'errors', 'fails', 'failed', 'failing', 'failure', 'crash*', 'freez*', 'frozen', 'hangs', 'hanging', 'stuck',
    'broken', "doesn't work", 'does not work', 'not working', "isn't working", "can't", 'cannot', 'unable to',
    'exception', 'timed out', 'timeout', 'wrong', 'bug', 'regress*', 'not found', 'undefined', 'nan', 'blank',
    'invalid', 'refus*', 'rejected', 'denied', 'missing', 'unreachable', 'invisible', 'stale', 'looks gray',
    'broke', 'breaks', 'mismatch*', 'inconsisten*', 'unresolved', 'read-only', 'read only',
  ],
  next: [
    'next step*', 'next i', 'next we', "i'll", 'i will', 'let me know', 'want me to', 'shall i', 'should i', 'would you like', 'do you want',
    'remaining', 'still need', 'still needs', 'todo', 'follow up', 'try it', 'test it', 'please check', 'once you',
    'ready to', 'on approval', 'if you approve', 'still open', 'still unresolved', 'pending', 'run', 'try', 'verify',
  ],
  minor: [
    'low', 'minor', 'nit', 'nitpick', 'cosmetic', 'unused', 'typo', 'typos', 'whitespace', 'formatting',
    'lint', 'dead code', 'import', 'imports', 'comment', 'comments', 'log', 'logs', 'console.log', 'duplicate',
    'duplicated', 'redundant', 'consistency', 'consistent', 'encapsulation', 'boilerplate',
    // Installing what was missing repairs an environment, and debug output comes and goes: the project decided nothing.
    'installed missing', 'install missing', 'installed the missing', 'install the missing', 'debug logging', 'debug output',
  ],
  hedge: [
    'would', 'could', 'might', 'if you want', 'alternatively', 'option', 'maybe', 'perhaps', 'consider', 'should we',
    'do you want', 'want me to', 'shall i', 'proposal', 'suggest*',
  ],
  verified: [
    'passing', 'passes', 'passed', 'verified', 'succeeded', 'successful', 'successfully', 'green', 'alive', 'healthy',
    'up and running', 'smoke', 'no errors', 'without errors', 'result', 'results', 'status', 'outcome',
  ],
});
