// The function-length check `npm run lint` runs over server/ and bench/: a function of 101 lines is
// flagged with its name and first line, one of 100 is not, and nested ones count alone too.
import { describe, expect, it } from 'vitest';
import { longFunctions } from '../../scripts/lint/functionLength.js';

const body = (lines: number) => Array.from({ length: lines - 2 }, (_, i) => `  const v${i} = ${i};`).join('\n');

describe('the function-length check', () => {
  it('flags a function of 101 lines and passes one of 100', () => {
    const text = `function short() {\n${body(100)}\n}\n\nexport const long = () => {\n${body(101)}\n};\n`;
    expect(longFunctions('x.ts', text)).toEqual([{ file: 'x.ts', name: 'long', line: 102, lines: 101 }]);
  });

  it('counts a nested function and its parent each', () => {
    const text = `class A {\n  build() {\n    return function inner() {\n${body(101)}\n    };\n  }\n}\n`;
    expect(longFunctions('x.ts', text).map((f) => [f.name, f.lines])).toEqual([
      ['build', 103],
      ['inner', 101],
    ]);
  });
});
