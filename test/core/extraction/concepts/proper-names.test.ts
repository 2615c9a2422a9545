import { describe, expect, it } from 'vitest';
import { properNames } from '../../../../src/core/extraction/concepts/proper-names.js';

describe('properNames', () => {
  it('should read capitalized names in the middle of a sentence, several words as one name', () => {
    expect(properNames('The web app uses Svelte with Drizzle, and the nodes run Alma Linux now.', 'eng')).toEqual(['Svelte', 'Drizzle', 'Alma Linux']);
    expect(properNames('Quiero validar el formulario con Valibot y desplegarlo en Vercel.', 'spa')).toEqual(['Valibot', 'Vercel']);
  });

  it('should not read the first word of a sentence or of a list item, nor the items of a table', () => {
    expect(properNames('Deploy it tonight. Backups stay.\n- Restart the worker\n| Column | Value |', 'eng')).toEqual([]);
  });

  it('should skip titles, headings, lines in capitals, error types and constants', () => {
    const prose = 'Root Cause Analysis And Fix\n## Next Steps Here\nSTOP HERE\nit raised KeyError and returned False from Redis';
    expect(properNames(prose, 'eng')).toEqual(['Redis']);
  });

  it('should read a name in a short list item, whose first word is capitalized too', () => {
    expect(properNames('- Keep branding Acmefy\n- Use Tailwind', 'eng')).toEqual(['Acmefy', 'Tailwind']);
  });

  it('should read no names from German prose, where every noun is capitalized', () => {
    expect(properNames('Bitte die Datei im Ordner anpassen und den Server neu starten.', 'deu')).toEqual([]);
  });

  it('should not read names inside inline code', () => {
    expect(properNames('call `Widget Factory` then ask Grafana', 'eng')).toEqual(['Grafana']);
  });
});
