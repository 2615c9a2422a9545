import { describe, expect, it } from 'vitest';
import { checkOptionValue, envName, flag, integer, oneOf, readVariable, text } from '../../../src/main/options/option-kinds.js';

describe('envName', () => {
  it('should map option keys to variable names', () => {
    expect(envName('compactionDeadlineMs')).toBe('MAENIFOLD_COMPACTION_DEADLINE_MS');
    expect(envName('enabled')).toBe('MAENIFOLD_ENABLED');
  });
});

describe('readVariable', () => {
  it('should read switches and whole numbers, and give anything else back as typed', () => {
    expect(readVariable(' On ', { type: 'boolean' })).toBe(true);
    expect(readVariable('no', { type: 'boolean' })).toBe(false);
    expect(readVariable('maybe', { type: 'boolean' })).toBe('maybe');
    expect(readVariable(' 42 ', { type: 'integer', min: 0, max: 100 })).toBe(42);
    expect(readVariable('4.2', { type: 'integer', min: 0, max: 100 })).toBe('4.2');
    expect(readVariable(' files ', { type: 'enum', values: ['files'] })).toBe(' files ');
  });
});

describe('checkOptionValue', () => {
  it('should accept a value of the kind and name what was expected otherwise', () => {
    expect(checkOptionValue('rules', true, { type: 'boolean' })).toBeNull();
    expect(checkOptionValue('rulesMaxChars', 499, { type: 'integer', min: 500, max: 200_000 })).toEqual({ key: 'rulesMaxChars', expected: 'an integer from 500 to 200000', actual: 499 });
    expect(checkOptionValue('project', 3, { type: 'string' })).toEqual({ key: 'project', expected: 'a string', actual: 3 });
    expect(checkOptionValue('store', 'sqlite', { type: 'enum', values: ['auto', 'files'] })).toEqual({ key: 'store', expected: 'one of auto, files', actual: 'sqlite' });
  });
});

describe('flag, text, integer and oneOf', () => {
  it('should pair the kind an option accepts with its default', () => {
    expect(flag(false)).toEqual({ kind: { type: 'boolean' }, default: false });
    expect(text('')).toEqual({ kind: { type: 'string' }, default: '' });
    expect(integer(400, 100, 20_000)).toEqual({ kind: { type: 'integer', min: 100, max: 20_000 }, default: 400 });
    expect(oneOf(['auto', 'files'], 'files')).toEqual({ kind: { type: 'enum', values: ['auto', 'files'] }, default: 'files' });
  });
});
