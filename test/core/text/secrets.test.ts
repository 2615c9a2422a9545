import { describe, expect, it } from 'vitest';
import { isSecretName, redactedLine, redactSecrets } from '../../../src/core/text/secrets.js';
import { falsePositives, truePositives } from '../../fixtures/secrets/corpus.js';

describe('redactSecrets', () => {
  it('should remove every secret of the corpus and leave the text around it', () => {
    const missed: string[] = [];
    for (const secretCase of truePositives()) {
      const { text, redactions } = redactSecrets(secretCase.text);
      if (redactions === 0 || secretCase.secrets.some((secret) => text.includes(secret))) missed.push(`${secretCase.name}: ${text}`);
      expect(text).toContain('[REDACTED:');
    }
    expect(missed).toEqual([]);
    expect(truePositives().length).toBeGreaterThanOrEqual(40);
  });

  it('should leave ordinary text, placeholders, hashes and public keys alone', () => {
    const alarms = falsePositives().filter((text) => redactSecrets(text).text !== text);
    expect(alarms).toEqual([]);
    expect(falsePositives().length).toBeGreaterThanOrEqual(30);
  });

  it('should keep names, schemes and surrounding words', () => {
    expect(redactSecrets('DATABASE_PASSWORD=abcdefgh12345 and more').text).toBe('DATABASE_PASSWORD=[REDACTED:secret-setting] and more');
    expect(redactSecrets('curl -H "Authorization: Bearer abcdefghijklmnop1234"').text).toBe('curl -H "Authorization: Bearer [REDACTED:bearer-token]"');
    expect(redactSecrets('postgres://app:s3cretpassw0rd@db:5432/x').text).toBe('postgres://app:[REDACTED:url-password]@db:5432/x');
  });

  it('should redact a setting whose value sits alone on the next line, after every kind of line break', () => {
    for (const lineBreak of ['\n', '\r\n', '\r', '\u000B', '\u000C', '\u0085', '\u2028', '\u2029']) {
      // As a CLI prints a setting it refuses, and as the outbox keeps that output as an entry's last error.
      const text = `maenifold: invalid configuration\nAPI_KEY=${lineBreak}q7Rt9Lm2Xv4Kp8Zs${lineBreak}exit 1`;
      expect(redactSecrets(text).text, JSON.stringify(lineBreak)).toBe(`maenifold: invalid configuration\nAPI_KEY=${lineBreak}[REDACTED:secret-setting]${lineBreak}exit 1`);
    }
    expect(redactSecrets('"password":\n  "hunter2hunter2"').text).toBe('"password":\n  "[REDACTED:secret-setting]"');
    expect(redactSecrets('API_KEY=\nTOKEN=\nq7Rt9Lm2Xv4Kp8Zs').text).toBe('API_KEY=\nTOKEN=\n[REDACTED:secret-setting]');
    // A label followed by prose is not a setting: only a value that is all of its line is taken.
    expect(redactSecrets('token:\nConnection refused by the host').redactions).toBe(0);
  });

  it('should be idempotent and count what it removed', () => {
    for (const secretCase of truePositives()) {
      const once = redactSecrets(secretCase.text);
      expect(redactSecrets(once.text).text).toBe(once.text);
      expect(once.kinds.length).toBeGreaterThan(0);
    }
  });

  it('should finish on hostile inputs', () => {
    const hostile = [
      'sk-'.repeat(400_000),
      '='.repeat(1_000_000),
      'eyJ.'.repeat(250_000),
      `-----BEGIN RSA PRIVATE KEY-----\n${'A'.repeat(1_000_000)}`,
      'KEY=value\n'.repeat(100_000),
      'token:\n'.repeat(50_000),
      'a'.repeat(1_000_000),
      `password=${'x'.repeat(1_000_000)}`,
      'token '.repeat(200_000),
      `postgres://${'u'.repeat(500_000)}:${'p'.repeat(500_000)}`,
    ];
    for (const text of hostile) expect(typeof redactSecrets(text).redactions).toBe('number');
  });
});

describe('isSecretName', () => {
  it('should read names by their parts', () => {
    for (const name of ['API_KEY', 'apiKey', 'x-api-key', 'DB_PASSWORD', 'clientSecret', 'auth_token', 'GH_TOKEN', 'aws_secret_access_key', 'PRIVATE_KEY']) expect(isSecretName(name)).toBe(true);
    for (const name of ['author', 'tokenizer', 'NODE_ENV', 'keyboard', 'monkey', 'passage']) expect(isSecretName(name)).toBe(false);
  });

  it('should not take a count of tokens for a token', () => {
    for (const name of ['compactionTokens', 'maxTokens', 'sessionStartTokens', 'MAX_TOKENS']) expect(isSecretName(name)).toBe(false);
    const line = 'option compactionTokens: expected an integer from 50 to 20000, got "lots"; using 500 (the default)';
    expect(redactSecrets(line)).toMatchObject({ text: line, redactions: 0 });
    expect(redactSecrets('GITHUB_TOKEN=q8Jd2kLm0ZpXv7Rt4Nw1').text).toBe('GITHUB_TOKEN=[REDACTED:secret-setting]');
  });
});

describe('redactedLine', () => {
  it('should give one line without the secrets of the corpus', () => {
    for (const secretCase of truePositives()) {
      const line = redactedLine(secretCase.text, 10_000);
      expect(line).not.toMatch(/[\n\r\u2028\u2029]/);
      expect(secretCase.secrets.filter((secret) => line.includes(secret))).toEqual([]);
    }
  });

  it('should redact a setting whose value sat on the next line', () => {
    expect(redactedLine('API_KEY=\nq7Rt9Lm2Xv4Kp8Zs', 100)).toBe('API_KEY= [REDACTED:secret-setting]');
  });

  it('should not show the head of a secret that the cut split', () => {
    const line = redactedLine(`${'word '.repeat(30)}ghp_A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8`, 80);
    expect(line.length).toBeLessThanOrEqual(80);
    expect(line).not.toContain('ghp_');
  });
});
