import { describe, expect, it } from 'vitest';
import { diagnosticsSource, readDiagnostics, reportedDiagnostics } from '../../../../src/core/extraction/problems/lsp-diagnostics.js';

const edited = [
  'Edit applied successfully.',
  '',
  'LSP errors detected in this file, please fix:',
  '<diagnostics file="/home/dev/shop/src/cart.ts">',
  "ERROR [14:9] Property 'total' does not exist on type 'Cart'.",
  "ERROR [30:9] Property 'total' does not exist on type 'Cart'.",
  "ERROR [41:3] Cannot find name 'applyCoupon'.",
  '  Did you mean to import it?',
  '</diagnostics>',
  '',
  'LSP errors detected in other files:',
  '<diagnostics file="/home/dev/shop/native/crc.c">',
  "ERROR [1:10] 'zlib.h' file not found",
  "ERROR [8:3] Call to undeclared function 'crc32'",
  '</diagnostics>',
].join('\n');

describe('readDiagnostics', () => {
  it('should read every error of a block with its file and line, and tell the edited file from the others', () => {
    const found = readDiagnostics(edited);
    expect(found).toHaveLength(5);
    expect(found[0]).toEqual({ file: '/home/dev/shop/src/cart.ts', line: 14, message: "Property 'total' does not exist on type 'Cart'.", current: true });
    expect(found[3]).toMatchObject({ file: '/home/dev/shop/native/crc.c', line: 1, current: false });
  });

  it("should read the blocks earlier versions printed, the edited file's named by the call", () => {
    const output = [
      '',
      'This file has errors, please fix',
      '<file_diagnostics>',
      "ERROR [7:3] Cannot find name 'tax'.",
      'WARN [9:1] Unreachable code detected.',
      '</file_diagnostics>',
      '',
      '<project_diagnostics>',
      '/home/dev/shop/src/invoice.ts',
      "ERROR [3:10] Module './cart' has no exported member 'total'.",
      '</project_diagnostics>',
    ].join('\n');
    expect(readDiagnostics(output, '/home/dev/shop/src/cart.ts')).toEqual([
      { file: '/home/dev/shop/src/cart.ts', line: 7, message: "Cannot find name 'tax'.", current: true },
      { file: '/home/dev/shop/src/invoice.ts', line: 3, message: "Module './cart' has no exported member 'total'.", current: false },
    ]);
  });

  it('should not read a tag that file content quotes without its header', () => {
    expect(readDiagnostics('12: const tag = `\n<diagnostics file="a.ts">\nERROR [1:1] quoted\n</diagnostics>')).toEqual([]);
    expect(readDiagnostics('Wrote file successfully.')).toEqual([]);
  });
});

describe('reportedDiagnostics', () => {
  it("should keep each distinct error of the edited file once, and only the first of another file's", () => {
    const kept = reportedDiagnostics(readDiagnostics(edited));
    expect(kept.map((diagnostic) => diagnostic.message)).toEqual([
      "Property 'total' does not exist on type 'Cart'.",
      "Cannot find name 'applyCoupon'.",
      "'zlib.h' file not found",
    ]);
    expect(kept[2]?.key.startsWith('lsp-other:')).toBe(true);
  });
});

describe('diagnosticsSource', () => {
  it('should give one key per file, whatever its slashes, without whitespace', () => {
    expect(diagnosticsSource('C:\\dev\\My App\\Program.cs')).toBe('lsp:C:/dev/My_App/Program.cs');
  });
});
