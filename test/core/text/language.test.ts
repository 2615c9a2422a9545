import { describe, expect, it } from 'vitest';
import { detectLanguage } from '../../../src/core/text/language.js';

describe('detectLanguage', () => {
  it('should name the language of a sentence of prose', () => {
    expect(detectLanguage('La página se queda en blanco cuando abro el panel de usuarios, y la consola muestra un error.')).toBe('spa');
    expect(detectLanguage('Der Server stürzt jedes Mal ab, wenn ich die Anmeldung mit einem leeren Passwort versuche.')).toBe('deu');
    expect(detectLanguage('I moved the retry logic into the queue worker so the handler stays small and easy to test.')).toBe('eng');
    expect(detectLanguage('登录页面在提交表单之后一直卡住，控制台里出现了很多网络请求失败的错误信息。')).toBe('cmn');
  });

  it('should answer und for short messages', () => {
    expect(detectLanguage('continua')).toBe('und');
    expect(detectLanguage('ok, go')).toBe('und');
    expect(detectLanguage('')).toBe('und');
  });

  it('should ignore inline code, paths and links when guessing', () => {
    const text = 'Cambié `useEffect(() => fetchUsers(), [])` en src/pages/users.tsx porque la lista se cargaba dos veces al abrir la página.';
    expect(detectLanguage(text)).toBe('spa');
  });

  it('should read only the head of a huge message', () => {
    expect(detectLanguage(`${'the build fails again on the worker thread '.repeat(10)}${'x'.repeat(5_000_000)}`)).toBe('eng');
  });
});
