import { describe, expect, it } from 'vitest';
import { withoutModePreambles } from '../../../src/core/text/mode-preambles.js';

const SEARCH = '[search-mode]\nLOOK EVERYWHERE. Start several helpers at once:\n- one for the code\nNever stop early.';
const ANALYZE = '[analyze-mode]\nREAD FIRST. Gather what is known before going deep.';
const ULTRA = '<ultrawork-mode>\n\n**Orders** first.\n\n---\n\n## More orders\n\nNOW.\n\n</ultrawork-mode>';

describe('withoutModePreambles', () => {
  it('should keep only what the user typed after one block and its separator', () => {
    expect(withoutModePreambles(`${SEARCH}\n\n---\n\nwhy does the add-on open a bare shell?`)).toBe('why does the add-on open a bare shell?');
  });

  it('should drop several blocks in a row, and a tag block with separators of its own', () => {
    expect(withoutModePreambles(`${SEARCH}\n\n${ANALYZE}\n\n---\n\nfind the config loader`)).toBe('find the config loader');
    expect(withoutModePreambles(`${ULTRA}\n\n---\n\nport the parser to Rust`)).toBe('port the parser to Rust');
    expect(withoutModePreambles(`${ULTRA}\n\n---\n\n${SEARCH}\n\n---\n\nport it`)).toBe('port it');
  });

  it('should leave nothing of a turn that holds only a block', () => {
    expect(withoutModePreambles(SEARCH)).toBe('');
    expect(withoutModePreambles('<think-mode>\nthink hard')).toBe('');
  });

  it('should leave a text alone that does not open with a block', () => {
    const pasted = 'the log says:\n[search-mode]\nsomething\n---\nend';
    expect(withoutModePreambles(pasted)).toBe(pasted);
    expect(withoutModePreambles('[x] done\n---\nnext')).toBe('[x] done\n---\nnext');
    expect(withoutModePreambles('<search> tag\nthen text')).toBe('<search> tag\nthen text');
    expect(withoutModePreambles('')).toBe('');
  });

  it('should read CRLF line endings like LF', () => {
    expect(withoutModePreambles('[search-mode]\r\nLOOK.\r\n\r\n---\r\n\r\nfix the test')).toBe('fix the test');
  });
});
