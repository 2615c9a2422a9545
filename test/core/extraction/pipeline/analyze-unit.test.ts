import { describe, expect, it } from 'vitest';
import { analyzeUnit } from '../../../../src/core/extraction/pipeline/analyze-unit.js';
import { finalizeExtraction } from '../../../../src/core/extraction/pipeline/finalize.js';
import type { AnalysisUnit } from '../../../../src/workers/protocol.js';
import { CONSERVATIVE_STRATEGY } from '../../../../src/core/context/compaction-strategy.js';

const SETTINGS = { projectRoot: '/home/dev/shop', maxSectionChars: 2_000, maxDecisionsPerUnit: 10 };

function unit(order: number, role: string, text: string, summary = false): AnalysisUnit {
  return { key: null, order, role, text, tools: [], summary };
}

describe('analyzeUnit (prose side)', () => {
  it('should set the language, and read decisions, problems and next steps in it', () => {
    const request = analyzeUnit(unit(0, 'user', 'cuando abro el carrito la página se congela y el navegador deja de responder'), SETTINGS, {});
    expect(request.language).toBe('spa');
    expect(request.notes.map((note) => note.type).sort()).toEqual(['next', 'problem']);
    const report = analyzeUnit(unit(1, 'assistant', [
      'Listo. Resumen de los cambios:',
      '',
      '- Reemplacé el `useEffect` de `Cart.tsx` por un selector memoizado, en lugar de recalcular el total en cada render',
      '',
      '## Próximos pasos',
      '- Probar el carrito con 200 productos',
    ].join('\n')), SETTINGS, {});
    expect(report.language).toBe('spa');
    expect(report.decisions[0]).toMatchObject({ family: 'change', order: 1 });
    expect(report.notes.some((note) => note.type === 'next' && note.text.includes('200 productos'))).toBe(true);
  });

  it('should read what the user typed, not the mode orders another plugin put before it', () => {
    const injected = [
      '[search-mode]',
      'SEARCH HARD. Start several background helpers at once; never stop at the first result.',
      '',
      '---',
      '',
      'the export button does nothing on mobile, please fix it',
    ].join('\n');
    const ask = analyzeUnit(unit(0, 'user', injected), SETTINGS, {});
    expect(ask.notes.map((note) => note.text).join(' ')).toContain('export button');
    expect(ask.notes.map((note) => note.text).join(' ')).not.toMatch(/SEARCH HARD|background helpers/);
    expect(ask.chars).toBe('the export button does nothing on mobile, please fix it'.length);
  });

  it('should carry a prior compaction summary forward and list what is in progress', () => {
    const summary = analyzeUnit(unit(5, 'assistant', [
      '## Key Decisions',
      '- Orders are stored in SQLite instead of JSON files',
      '## Next Steps',
      '- Add the CSV export to the orders page',
    ].join('\n'), true), SETTINGS, {});
    const ask = analyzeUnit(unit(6, 'user', 'please also show the export button on mobile'), SETTINGS, {});
    const final = finalizeExtraction({
      sections: [],
      sectionKind: 'empty',
      decisions: [...summary.decisions, ...ask.decisions],
      files: [],
      signals: [],
      notes: [...summary.notes, ...ask.notes],
      terms: [],
      latestOrder: 6,
      settings: { encoding: 'o200k_base', contextTokenBudget: 500, maxConcepts: 10, maxDecisions: 10, maxFiles: 10, strategy: CONSERVATIVE_STRATEGY },
    });
    expect(final.decisions.map((decision) => decision.text)).toEqual(['Orders are stored in SQLite instead of JSON files']);
    expect(final.next).toEqual(['next: Add the CSV export to the orders page', 'asked: please also show the export button on mobile']);
    expect(final.context.text).toContain('SQLite instead of JSON');
  });
});

describe('analyzeUnit (decisions the work records)', () => {
  it('should take a commit and the deleted project files as decisions, with secrets redacted', () => {
    const analysis = analyzeUnit({
      key: null,
      order: 9,
      role: 'assistant',
      text: '',
      summary: false,
      tools: [
        { tool: 'bash', input: { command: 'git add -A && git commit -m "payments: read the gateway key from env, not sk_live_4eC39HqLyjWDarjtT1zdp7dc"' }, output: '', failed: false },
        { tool: 'bash', input: { command: 'rm /home/dev/shop/src/legacy/OldCart.tsx /tmp/scratch.json' }, output: '', failed: false },
        { tool: 'bash', input: { command: 'git commit -m "this one failed to run at all"' }, output: 'error', failed: true },
      ],
    }, SETTINGS, {});
    expect(analysis.decisions.map((decision) => decision.family)).toEqual(['change', 'deleted']);
    expect(analysis.decisions[0]?.text.startsWith('committed: payments: read the gateway key from env')).toBe(true);
    expect(analysis.decisions[0]?.text).not.toContain('4eC39HqLyjWDarjtT1zdp7dc');
    expect(analysis.decisions[1]).toMatchObject({ text: 'deleted src/legacy/OldCart.tsx', order: 9 });
  });
});

describe('analyzeUnit and finalizeExtraction (stated decisions kept whole)', () => {
  const settings = { encoding: 'o200k_base' as const, contextTokenBudget: 500, maxConcepts: 10, maxDecisions: 10, maxFiles: 10, strategy: CONSERVATIVE_STRATEGY };
  function decided(role: string, text: string): string[] {
    const analysis = analyzeUnit(unit(1, role, text), SETTINGS, {});
    const final = finalizeExtraction({ sections: [], sectionKind: 'empty', decisions: analysis.decisions, files: [], signals: [], notes: analysis.notes, terms: [], latestOrder: 1, settings });
    return final.decisions.map((decision) => decision.text);
  }

  it.each([
    ['assistant', 'We decided to use SQLite.', ['SQLite']],
    ['assistant', 'We decided to use SQLite instead of Redis because it is simpler to ship.', ['SQLite instead of Redis because it is simpler to ship']],
    ['assistant', 'Approach: rotate the token on every use to limit replay.', ['rotate the token on every use']],
    ['user', 'We decided to use PostgreSQL because we need transactions', ['PostgreSQL because we need transactions']],
    ['assistant', 'use RabbitMQ instead of Kafka because the team knows it', ['RabbitMQ', 'Kafka']],
  ])('should keep one decision from a %s message: %s', (role, text, parts) => {
    const decisions = decided(role, text);
    expect(decisions).toHaveLength(1);
    for (const part of parts) expect(decisions[0]).toContain(part);
  });
});
