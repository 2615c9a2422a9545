import { describe, expect, it } from 'vitest';
import { isBareComplaint } from '../../../../src/core/extraction/problems/bare-complaint.js';

describe('isBareComplaint', () => {
  it('should read a complaint that names nothing as bare, in spaced and unspaced scripts', () => {
    for (const text of ['getting errors again', 'still broken!', 'It is still broken!!', 'sigue sin funcionar… otra vez error', 'またエラーです', '还是报错了', 'Та же самая ошибка.', 'Znowu błąd, nadal nie działa']) {
      expect(isBareComplaint(text)).toBe(true);
    }
  });

  it('should not read a problem that names what failed as bare', () => {
    for (const text of ['the build fails', 'still getting a 403 from /api/login', 'SyntaxError: unmatched )', 'ログイン画面でエラーが出ました', '登录页面崩溃了', 'ошибка 429 при запросе высоты']) {
      expect(isBareComplaint(text)).toBe(false);
    }
  });
});
