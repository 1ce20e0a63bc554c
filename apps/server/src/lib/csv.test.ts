/** The one CSV writer of the exports: every cell quoted, no formula start anywhere in a value. */
import { describe, expect, it } from 'vitest';
import { formulaCells } from '../../test/csv';
import { csvCell, csvRow, neutraliseFormulas } from './csv';

describe('CSV cells', () => {
  it('quotes every cell, doubling the quotes inside; numbers stay numbers', () => {
    expect(csvCell('Posto Sé')).toBe('"Posto Sé"');
    expect(csvCell('diz "oi"')).toBe('"diz ""oi"""');
    expect(csvCell(42)).toBe('"42"');
    expect(csvRow(['a', 1, ''])).toBe('"a";"1";""\r\n');
  });

  it('neutralises a formula start at the beginning and after any separator', () => {
    expect(neutraliseFormulas('=1+1')).toBe("'=1+1");
    expect(neutraliseFormulas("x,=cmd|' /C calc'!A0")).toBe("x,'=cmd|' /C calc'!A0");
    expect(neutraliseFormulas('a; -2')).toBe("a; '-2");
    expect(neutraliseFormulas('\t\r=x')).toBe("'\t'\r'=x");
    expect(neutraliseFormulas('linha\n@SOMA(1)')).toBe("linha\n'@SOMA(1)");
    // A formula character inside a piece is not a formula start.
    expect(neutraliseFormulas('a-b=c')).toBe('a-b=c');
  });

  it('no reader finds a formula in a row of hostile values', () => {
    const values = ["x,=cmd|' /C calc'!A0", '+SOMA(1)', '-1', '@x', '\t=1', '\r=1', 'a\n=b', 'ok'];
    expect(formulaCells(csvRow(values))).toEqual([]);
  });
});
