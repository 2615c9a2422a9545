import { describe, expect, it } from 'vitest';
import { cuesFor } from '../../../../src/core/text/cues/cues.js';
import { proseItems } from '../../../../src/core/extraction/prose/prose-items.js';
import { isProposal, isReport } from '../../../../src/core/extraction/decisions/decision-source.js';

const PLAIN = { summary: false, report: false, edits: false };

describe('isProposal', () => {
  it('should read an instruction in a message that changes nothing as a proposal, in Spanish too', () => {
    const [english] = proseItems('Move the retry budget from `worker.ts` into `QueueConfig`.');
    const [spanish] = proseItems('Cambiar `next` a 15.2.4 en `package.json`.');
    if (!english || !spanish) throw new Error('expected items');
    expect(isProposal(english, cuesFor('eng'), PLAIN)).toBe(true);
    expect(isProposal(english, cuesFor('eng'), { ...PLAIN, edits: true })).toBe(false);
    expect(isProposal(spanish, cuesFor('spa'), PLAIN)).toBe(true);
  });

  it('should read a finding with a priority as a proposal, and nothing in a prior summary', () => {
    const [finding] = proseItems('- **High:** Add a bounded `ThreadPoolTaskScheduler` to `ReportJob`');
    if (!finding) throw new Error('expected an item');
    expect(isProposal(finding, cuesFor('eng'), { ...PLAIN, edits: true })).toBe(true);
    expect(isProposal(finding, cuesFor('eng'), { ...PLAIN, summary: true })).toBe(false);
  });
});

describe('isProposal of a choice with its reason', () => {
  it('should read an instruction that names the option set aside and why as a choice, not a step', () => {
    const [choice] = proseItems('Use NATS instead of Redis streams because the consumers already speak it.');
    const [step] = proseItems('Use NATS for the consumer queue.');
    const [spanish] = proseItems('Usar NATS en lugar de Redis porque los consumidores ya lo hablan.');
    if (!choice || !step || !spanish) throw new Error('expected items');
    expect(isProposal(choice, cuesFor('eng'), PLAIN)).toBe(false);
    expect(isProposal(step, cuesFor('eng'), PLAIN)).toBe(true);
    expect(isProposal(spanish, cuesFor('spa'), PLAIN)).toBe(false);
  });
});

describe('isProposal under a lead-in of intent', () => {
  it('should read the items under "Want to:" or "let me check" as options still to take, and a summary lead-in as a report', () => {
    const options = proseItems('Want to:\n1. Rebuild the `search_index` table, or\n2. Load the archive first?');
    const chinese = proseItems('让我检查一下配置:\n- 把 `retry_limit` 改为 5,避免重复提交');
    const summary = proseItems("Let me sum up the changes:\n- Rebuilt the `search_index` table with a trigram index");
    const source = { ...PLAIN, edits: true };
    expect(isProposal(options[0]!, cuesFor('eng'), source)).toBe(true);
    expect(isProposal(chinese[0]!, cuesFor('cmn'), source)).toBe(true);
    expect(isProposal(summary[0]!, cuesFor('eng'), source)).toBe(false);
  });

  it('should read the items under a lead-in in the future tense as an expected outcome', () => {
    const outcome = proseItems('Now the checkout will show:\n- **Total with tax** on one line ✅');
    expect(isProposal(outcome[0]!, cuesFor('eng'), { ...PLAIN, edits: true })).toBe(true);
  });
});

describe('isProposal under a lead-in that offers', () => {
  it('should read the items under "Possible changes:" or "Enfoque recomendado:" as offers, even in a message that edits', () => {
    const english = proseItems('Possible changes:\n- Cache the parsed `Shader` per mesh instead of rebuilding it per frame');
    const spanish = proseItems('Enfoque recomendado:\n- Reconstruir la tabla `scores` desde el respaldo de anoche');
    const done = proseItems('What changed:\n- Cached the parsed `Shader` per mesh instead of rebuilding it per frame');
    const source = { ...PLAIN, edits: true };
    expect(isProposal(english[0]!, cuesFor('eng'), source)).toBe(true);
    expect(isProposal(spanish[0]!, cuesFor('spa'), source)).toBe(true);
    expect(isProposal(done[0]!, cuesFor('eng'), source)).toBe(false);
  });
});

describe('isProposal of places mapped to actions', () => {
  it('should read an arrow that leads to an instruction as a plan line, even in a message that edits', () => {
    const [plan] = proseItems('- 118-140: sección de precios → reemplazar por la tabla nueva');
    const [change] = proseItems('- `retries`: 3 → 5 in `queue.ts`');
    if (!plan || !change) throw new Error('expected items');
    expect(isProposal(plan, cuesFor('spa'), { ...PLAIN, edits: true })).toBe(true);
    expect(isProposal(change, cuesFor('eng'), { ...PLAIN, edits: true })).toBe(false);
  });
});

describe('isReport', () => {
  it('should read a message that opens with a summary cue as a report of work done', () => {
    const cues = cuesFor('eng');
    expect(isReport(proseItems("Done. Here's a summary of what changed:\n\n- Replaced the cron loop"), cues)).toBe(true);
    expect(isReport(proseItems('Let me look at the scheduler first.'), cues)).toBe(false);
    expect(isReport([], cues)).toBe(false);
  });
});
