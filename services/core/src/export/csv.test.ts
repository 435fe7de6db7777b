import { describe, expect, it } from 'vitest';
import { csvCell, csvFileName, csvLine } from './csv.js';

describe('csv', () => {
  it('quotes commas, quotes, carriage returns and line feeds, doubling quotes', () => {
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    expect(csvCell('cr\rhere')).toBe('"cr\rhere"');
  });

  it('neutralises cells a spreadsheet would run as a formula', () => {
    expect(csvCell('=1+1')).toBe("'=1+1");
    expect(csvCell('+33 6')).toBe("'+33 6");
    expect(csvCell('-rm')).toBe("'-rm");
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvCell('\tx')).toBe("'\tx");
    expect(csvCell('=HYPERLINK("http://x","y")')).toBe(`"'=HYPERLINK(""http://x"",""y"")"`);
    expect(csvCell('a=b')).toBe('a=b');
  });

  it('writes numbers, booleans and empty values as they are', () => {
    expect(csvCell(-5)).toBe('-5');
    expect(csvCell(true)).toBe('true');
    expect(csvCell(null)).toBe('');
    expect(csvCell(undefined)).toBe('');
    expect(csvLine(['Zoë', 3, null, 'x,y'])).toBe('Zoë,3,,"x,y"\r\n');
  });

  it('makes a header-safe file name', () => {
    expect(csvFileName(['reelstat-history', 'user', 'a b"c'], new Date('2026-11-24T10:00:00Z'))).toBe(
      'reelstat-history-user-a_b_c-2026-11-24.csv',
    );
  });
});
