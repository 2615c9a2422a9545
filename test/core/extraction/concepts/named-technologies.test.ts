import { describe, expect, it } from 'vitest';
import { namedInProse, packageRoot } from '../../../../src/core/extraction/concepts/named-technologies.js';

const named = (prose: string) => namedInProse(prose).map((thing) => thing.name);

describe('namedInProse', () => {
  it('should read a capitalized word with accented letters as one word, never as an acronym and a fragment', () => {
    const found = named('Revisa la CONFIGURACIÓN del servidor y el DISEÑO del menú antes de firmar el JWT.');
    expect(found).toEqual(['JWT']);
  });

  it('should read no acronyms from a line written in capitals, but read them in running prose', () => {
    const found = named('PASOS OBLIGATORIOS\n- keep the session token in the MFA flow\nFINAL RULES\n');
    expect(found).toEqual(['MFA']);
  });

  it('should leave out placeholders made of one repeated letter', () => {
    expect(named('Replace XX with your team number and ZZZ with the MFA code.')).toEqual(['MFA']);
  });

  it("should leave out a routine's name, which says what the code does, but keep the names of things", () => {
    const found = named('`getOptionLabel` now reads `unitMap`, ApplyScrollbarTheme runs after CreateScrollView, and `onHit` calls `toUnity` on the DamagePopup; the TodoList and `saveSlots` stay.');
    expect(found).toEqual(['unitMap', 'saveSlots', 'DamagePopup', 'TodoList']);
  });

  it('should keep a backticked name with accented letters whole', () => {
    expect(named('Renombré `sesión` en el módulo.')).toEqual(['sesión']);
  });
});

describe('packageRoot', () => {
  it('should name a package whose name is an everyday English word by its product', () => {
    expect(packageRoot('next/navigation')).toBe('nextjs');
    expect(packageRoot('next@15.2.4')).toBe('nextjs');
    expect(packageRoot('@types/react')).toBe('react');
  });
});
