import { describe, expect, it } from 'vitest'
import { amountInWords } from '../../../src/engine/print/amount-in-words'

/** A printed document's amount in words (issue 18 §5), in each of the interface's languages, to the poisha. */
const t = (templates: Record<string, string>) => (key: string, params: Record<string, string>) => templates[key]!.replace(/{{(\w+)}}/g, (_, p: string) => params[p] ?? '')
const en = t({ 'print.words_whole': '{{whole}} taka only', 'print.words_fraction': '{{whole}} taka and {{fraction}} poisha only' })

describe('an amount in words', () => {
  it('says the taka and the poisha, capitalised, counting in lakh and crore in English', async () => {
    expect(await amountInWords('1500.25', 'en', en)).toBe('One thousand five hundred taka and twenty-five poisha only')
    expect(await amountInWords('750.00', 'en', en)).toBe('Seven hundred and fifty taka only')
    expect(await amountInWords('12500000.05', 'en', en)).toBe('One crore twenty-five lakh taka and five poisha only')
    // Beyond a float's digits: the whole is counted as a big integer.
    expect(await amountInWords('999999999999999999.99', 'en', en)).toMatch(/^Nine shankh .* taka and ninety-nine poisha only$/)
  })

  it('speaks Turkish and Arabic', async () => {
    expect(await amountInWords('1250.50', 'tr', t({ 'print.words_whole': 'Yalnız {{whole}} taka', 'print.words_fraction': 'Yalnız {{whole}} taka {{fraction}} poişa' }))).toBe('Yalnız bin iki yüz elli taka elli poişa')
    expect(await amountInWords('750', 'ar', t({ 'print.words_whole': 'فقط {{whole}} تاكا لا غير', 'print.words_fraction': '' }))).toBe('فقط سبعمائة وخمسون تاكا لا غير')
  })
})
