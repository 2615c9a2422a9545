import { describe, expect, it } from 'vitest';
import { cuesFor } from '../../../../src/core/text/cues/cues.js';
import { proseItems } from '../../../../src/core/extraction/prose/prose-items.js';
import { MAX_REQUEST_PIECE_CHARS, assistantNotes, isPastedDocument, userNotes } from '../../../../src/core/extraction/notes/prose-notes.js';
import { CARRIED_PREFIX, INTENT_PREFIX, REQUEST_PREFIX, STEP_PREFIX } from '../../../../src/core/extraction/notes/note-ids.js';
import { liveNotes } from '../../../../src/core/extraction/pipeline/merge-prose.js';

function user(text: string, language = 'eng', order = 3) {
  return userNotes(text, proseItems(text), cuesFor(language), order);
}

function assistant(text: string, summary = false, language = 'eng', order = 4, working = false) {
  return assistantNotes(proseItems(text), cuesFor(language), order, summary, working);
}

describe('userNotes', () => {
  it('should keep the request as in-progress work and the problem it describes', () => {
    const notes = user('when I open the settings page the whole tab freezes, can you find out why?');
    expect(notes.find((note) => note.type === 'next')).toMatchObject({ id: `${REQUEST_PREFIX}3`, order: 3 });
    expect(notes.find((note) => note.type === 'problem')?.text).toContain('freezes');
  });

  it('should not keep a complaint that names nothing as a problem, and keep one that names what failed', () => {
    const problems = (text: string, language = 'eng') => user(text, language).filter((note) => note.type === 'problem').map((note) => note.text);
    expect(problems('getting errors again')).toEqual([]);
    expect(problems('またエラーです', 'jpn')).toEqual([]);
    expect(problems('the checkout page still fails with a 500')).toHaveLength(1);
  });

  it('should take short requests, in any language, but not a nudge to go on', () => {
    const asked = (text: string, language = 'eng') => user(text, language).filter((note) => note.type === 'next').map((note) => note.text);
    expect(asked('fix the tests')).toEqual(['asked: fix the tests']);
    expect(asked('arregla el login', 'spa')).toEqual(['asked: arregla el login']);
    expect(asked('修复登录页面', 'cmn')).toEqual(['asked: 修复登录页面']);
    expect(asked('ok go on')).toEqual([]);
    expect(asked('dale, sigue', 'spa')).toEqual([]);
  });

  it('should not take a go-ahead that only points back at what the model proposed for a request', () => {
    const asked = (text: string, language = 'eng') => user(text, language).filter((note) => note.type === 'next').map((note) => note.text);
    expect(asked('implement the plan')).toEqual([]);
    expect(asked('ok implement the best changes')).toEqual([]);
    expect(asked('yes plz proceed')).toEqual([]);
    expect(asked('continúa con el plan de fix', 'spa')).toEqual([]);
    expect(asked('comenzá con la implementación', 'spa')).toEqual([]);
    expect(asked('oke lanjutkan', 'ind')).toEqual([]);
    // Anything of its own makes it a request.
    expect(asked('implement the login page')).toEqual(['asked: implement the login page']);
    expect(asked('continúa con el login', 'spa')).toEqual(['asked: continúa con el login']);
  });

  it('should keep a rest longer than one line as several steps, split at sentences, so no ask is cut off when read back', () => {
    const text =
      'ok the save dialog works now, thanks, but while testing the whole flow on the staging build this morning I found more things that still need work before the release. ' +
      'First, the export button is not doing anything when the list is empty, fix that. ' +
      'Opening the first project after a cold start is also slow, probably because every thumbnail loads at once, and the sidebar stays blank for a second or two while scrolling. ' +
      'And the selection gets lost when I change from list view to grid view! please look at these';
    const steps = user(text).filter((note) => note.id.startsWith(`${STEP_PREFIX}3:`)).map((note) => note.text);
    expect(steps.length).toBeGreaterThan(1);
    // Each piece is as long as the sentences it packs, a short one joining the piece before it.
    for (const step of steps) expect(step.length).toBeLessThanOrEqual(MAX_REQUEST_PIECE_CHARS + 'asked, then: please look at these'.length);
    expect(steps.some((step) => step.includes('the export button is not doing anything when the list is empty'))).toBe(true);
    expect(steps.some((step) => step.includes('the selection gets lost when I change from list view to grid view'))).toBe(true);
  });

  it('should keep the asks a long request lists past its note, as a step the request holds while it is the latest', () => {
    const text =
      'nice, the inventory screen works now, but I noticed a few things while playing the second level with the new weapons and armour we added yesterday. ' +
      'The shop keeps the old prices after a reload. Another problem: the quest log never clears finished quests, fix that too. Also the minimap flickers on resize.';
    const notes = user(text);
    const request = notes.find((note) => note.id === `${REQUEST_PREFIX}3`);
    expect(request?.text.length).toBeLessThanOrEqual(200);
    expect(request?.text).not.toContain('quest log');
    const rest = notes.filter((note) => note.type === 'next' && note.id.startsWith(`${STEP_PREFIX}3:`));
    expect(rest).toHaveLength(1);
    expect(rest[0]?.text).toMatch(/^asked, then: /);
    expect(rest[0]?.text).toContain('the quest log never clears finished quests');
    expect(rest[0]?.text).toContain('minimap flickers on resize');
    expect(liveNotes(notes).map((note) => note.id)).toContain(rest[0]?.id);
    // Once the user asks something new and the work on it goes on, the earlier request's asks are answered or overtaken.
    const later = [...user('now add a settings page for the sound volume', 'eng', 9), ...assistant('Next steps:\n- add the volume slider to the settings page\n- save the volume with the other settings', false, 'eng', 10)];
    expect(liveNotes([...notes, ...later]).map((note) => note.id)).not.toContain(rest[0]?.id);
    // A request its note holds whole has nothing more.
    expect(user('fix the shop prices after a reload').filter((note) => note.id.startsWith(STEP_PREFIX))).toEqual([]);
  });

  it('should read problems in Spanish', () => {
    const notes = user('cuando ejecuto el proyecto el navegador se congela y no responde', 'spa');
    expect(notes.some((note) => note.type === 'problem' && note.text.includes('congela'))).toBe(true);
  });

  it('should skip one-word nudges as requests and pasted templates entirely', () => {
    expect(user('continue').filter((note) => note.type === 'next')).toEqual([]);
    const template = `# Review template\n## Scope\nerror handling\n## Checklist\n- crash paths\n## Output\n${'fill in '.repeat(400)}`;
    expect(isPastedDocument(template)).toBe(true);
    expect(user(template)).toEqual([]);
  });
});

describe('assistantNotes', () => {
  it('should not take work already done, listed under a next-steps or in-progress heading, for a next step', () => {
    const text = [
      '## Current work',
      '',
      '- Created `src/dashboard/package.json`',
      '- Move the API client into `lib/`',
      '- Add the orders page',
      '',
      '## Recommendations',
      '',
      '1. Close the preview canvas to silence the warnings.',
      '2. Running the app shows a clean console (verified).',
    ].join('\n');
    const next = assistant(text).filter((note) => note.type === 'next').map((note) => note.text);
    expect(next).toEqual(['next: Move the API client into lib/', 'next: Add the orders page', 'next: Close the preview canvas to silence the warnings.']);
  });

  it('should keep the old state of a before/after pair as a problem since resolved', () => {
    const text = ['## Export button', '- **Before**: the button stayed disabled until a cell was edited', '- **After**: enabled whenever the grid has rows'].join('\n');
    const notes = assistantNotes(proseItems(text), cuesFor('eng'), 3, false);
    expect(notes.filter((item) => item.type === 'warning').map((item) => item.text)).toEqual(['resolved: export button: Before: the button stayed disabled until a cell was edited']);
  });

  it('should take next steps from their section, and problems from a root-cause lead-in', () => {
    const text = [
      'Root cause: the session cookie is dropped because the proxy strips `SameSite=None`.',
      '',
      '## Next steps',
      '1. Add the header rewrite to `nginx.conf`',
      '2. Re-run the login test',
    ].join('\n');
    const notes = assistant(text);
    expect(notes.filter((note) => note.type === 'next').map((note) => note.text)).toEqual([
      'next: Add the header rewrite to nginx.conf',
      'next: Re-run the login test',
    ]);
    expect(notes.every((note) => note.type !== 'next' || note.id.startsWith(STEP_PREFIX))).toBe(true);
    expect(notes.find((note) => note.type === 'problem')?.text).toContain('session cookie is dropped');
  });

  it('should take the closing offer or question as what comes next', () => {
    const notes = assistant('The build passes now.\n\nIf you want, next I can add a retry around the upload step.');
    expect(notes.map((note) => note.text)).toEqual(['next: If you want, next I can add a retry around the upload step.']);
  });

  it('should not take a closing report of what was run for what comes next', () => {
    const notes = assistant('Updated the loader.\n\nRan npm run build in web/ and it succeeds.\n\nShall I also bump the cache version?');
    expect(notes.map((note) => note.text)).toEqual(['next: Shall I also bump the cache version?']);
  });

  it('should keep what a working message says it is doing as its intent, not its narration as next steps', () => {
    const notes = assistant('Now I make the store notify the toolbar. Let me check the store:', false, 'eng', 9, true);
    expect(notes).toEqual([{ id: `${INTENT_PREFIX}9`, type: 'next', text: 'doing: Now I make the store notify the toolbar. Let me check the store:', order: 9, frequency: 1 }]);
    expect(assistant('Summary of the fix:\n\n- moved the cache\n- added a test', false, 'eng', 9, true).filter((note) => note.id.startsWith(INTENT_PREFIX))).toEqual([]);
  });

  it('should keep the latest intent only when nothing was asked or planned after it', () => {
    const early = assistant('I will now rebuild the index from scratch.', false, 'eng', 3, true);
    const late = assistant('Renaming the column in the migration next:', false, 'eng', 8, true);
    const request = user('please also add a created_at column to the table', 'eng', 10);
    const live = (notes: ReturnType<typeof assistant>) => liveNotes(notes).filter((note) => note.type === 'next').map((note) => note.text);
    expect(live([...early, ...late])).toEqual(['doing: Renaming the column in the migration next:']);
    expect(live([...early, ...late, ...request])).toEqual(['asked: please also add a created_at column to the table']);
  });

  it('should mark the next steps of a prior compaction summary as carried', () => {
    const notes = assistant('## Goal\nShip the export.\n\n## Next Steps\n- Wire the CSV writer into the export route', true);
    expect(notes).toHaveLength(1);
    expect(notes[0]?.id.startsWith(CARRIED_PREFIX)).toBe(true);
  });

  it('should read German and Japanese next-step sections', () => {
    expect(assistant('## Nächste Schritte\n- Den Cache nach dem Login leeren', false, 'deu')).toHaveLength(1);
    expect(assistant('## 次のステップ\n- ログイン後にキャッシュをクリアする', false, 'jpn')).toHaveLength(1);
  });
});
