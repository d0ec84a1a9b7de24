import { describe, expect, it } from 'vitest'
import { csvValue } from '../../../../server/engine/reports'

/** A report's CSV cells: text always quoted, nothing a spreadsheet would run as a formula. */
describe('csvValue', () => {
  it.each([
    ['Tea', '"Tea"'],
    ['', '""'],
    ['say "hi"', '"say ""hi"""'],
    ['=1+1', `"'=1+1"`],
    ['+90 212', `"'+90 212"`],
    ['@SUM(A1)', `"'@SUM(A1)"`],
    // A Turkish Excel splits on ';': what follows one would start a cell of its own.
    ['Ali;=1+1', `"Ali;'=1+1"`],
    ['a,=HYPERLINK("x")', `"a,'=HYPERLINK(""x"")"`],
    ['line\n-2', `"line\n'-2"`],
    ['tab\t=cmd', `"tab\t'=cmd"`],
    ['a - b', '"a - b"'],
  ])('quotes text %j and makes a formula in it inert', (value, cell) => {
    expect(csvValue(value, true)).toBe(cell)
  })

  it('leaves numbers, dates and empty values as they are', () => {
    expect(csvValue('-12.50', false)).toBe('-12.50')
    expect(csvValue(3, false)).toBe('3')
    expect(csvValue(null, true)).toBe('')
    expect(csvValue(new Date('2026-07-05T00:00:00Z'), false)).toBe('2026-07-05T00:00:00.000Z')
  })
})
