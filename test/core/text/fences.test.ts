import { describe, expect, it } from 'vitest';
import { closesFence, openingFence, stripFencedCode } from '../../../src/core/text/fences.js';

describe('openingFence', () => {
  it('should open on a run of three or more backticks or tildes after at most three spaces', () => {
    expect(openingFence('```')).toEqual({ marker: '`', length: 3 });
    expect(openingFence('   ~~~~~ info ` with a tick')).toEqual({ marker: '~', length: 5 });
    expect(openingFence('````ts title="x"')).toEqual({ marker: '`', length: 4 });
    expect(openingFence('```ts\r')).toEqual({ marker: '`', length: 3 });
  });

  it('should not open on short runs, four spaces of indentation or a mixed run', () => {
    expect(openingFence('``')).toBeNull();
    expect(openingFence('    ```')).toBeNull();
    expect(openingFence('\t```')).toBeNull();
    expect(openingFence('`~~')).toBeNull();
    expect(openingFence('text ```')).toBeNull();
    expect(openingFence('')).toBeNull();
    expect(openingFence('   \r')).toBeNull();
  });

  it('should not open on backticks whose info string holds a backtick', () => {
    expect(openingFence('```js`')).toBeNull();
    expect(openingFence('``` a `b` c')).toBeNull();
  });
});

describe('closesFence', () => {
  const backticks = { marker: '`', length: 4 } as const;

  it('should close on a run of the same character at least as long, followed only by spaces or tabs', () => {
    expect(closesFence('````', backticks)).toBe(true);
    expect(closesFence('   `````  \t', backticks)).toBe(true);
    expect(closesFence('````\r', backticks)).toBe(true);
  });

  it('should not close on a shorter run, the other character, an info string or other white space', () => {
    expect(closesFence('```', backticks)).toBe(false);
    expect(closesFence('~~~~', backticks)).toBe(false);
    expect(closesFence('```` ts', backticks)).toBe(false);
    expect(closesFence('    ````', backticks)).toBe(false);
    expect(closesFence('````\u00a0', backticks)).toBe(false);
    expect(closesFence('~~~', { marker: '~', length: 3 })).toBe(true);
  });
});

describe('stripFencedCode', () => {
  it('should remove fenced blocks and an unclosed tail', () => {
    expect(stripFencedCode('a\n```js\ncode\n```\nb\n~~~\nrest')).toBe('a\nb');
  });

  it('should keep a backtick line whose info string holds a backtick, and close on CRLF fences', () => {
    expect(stripFencedCode('a\n```js` x\nb')).toBe('a\n```js` x\nb');
    expect(stripFencedCode('a\r\n```\r\ncode\r\n```\r\nb\r\n')).toBe('a\r\nb\r\n');
  });

  it('should stay linear on long runs', () => {
    const line = '`'.repeat(200_000);
    expect(stripFencedCode(`${line}x\nin\n${line}\nout`)).toBe('out');
  });
});
