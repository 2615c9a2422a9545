import { describe, expect, it } from 'vitest';
import { detectLanguage } from '../../../src/core/text/language.js';

describe('detectLanguage', () => {
  it('should name the language of a sentence of prose', () => {
    expect(detectLanguage('La página se queda en blanco cuando abro el panel de usuarios, y la consola muestra un error.')).toBe('spa');
    expect(detectLanguage('Der Server stürzt jedes Mal ab, wenn ich die Anmeldung mit einem leeren Passwort versuche.')).toBe('deu');
    expect(detectLanguage('I moved the retry logic into the queue worker so the handler stays small and easy to test.')).toBe('eng');
    expect(detectLanguage('登录页面在提交表单之后一直卡住，控制台里出现了很多网络请求失败的错误信息。')).toBe('cmn');
  });

  it('should tell English full of names from its neighbours by words only English writes', () => {
    expect(detectLanguage("Let's go with SQLite. I chose Redis over Postgres because writes must stay ordered.")).toBe('eng');
    expect(detectLanguage('Ik heb de cache over de workers verdeeld zodat de server sneller start en minder geheugen gebruikt.')).toBe('nld');
    expect(detectLanguage("J'ai déplacé la logique de reprise dans le worker de la file pour que le gestionnaire reste petit.")).toBe('fra');
    expect(detectLanguage('Movi a lógica de repetição para o worker da fila para que o handler continue pequeno e fácil de testar.')).toBe('por');
    expect(detectLanguage('Ich habe die Logik in den Worker verschoben, also bleibt der Handler klein und man kann ihn testen.')).toBe('deu');
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
