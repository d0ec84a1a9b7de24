import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { slugify } from '../../../schema/kit/slug'

describe('slugify (the form previews and the server stores the same slug)', () => {
  it.each([
    ['Summer in Sylhet', 'summer-in-sylhet'],
    ['  Hello,   World!  ', 'hello-world'],
    ['What’s new? (2024 edition)', 'what-s-new-2024-edition'],
    ['a_b.c/d\\e+f&g', 'a-b-c-d-e-f-g'],
    ['---Already--dashed---', 'already-dashed'],
    ['UPPER Case', 'upper-case'],
  ])('lower-cases and joins the words of %j with single dashes', (text, slug) => {
    expect(slugify(text)).toBe(slug)
  })

  it('folds the accents of Latin letters, Turkish ones included', () => {
    expect(slugify('Café Déjà Vu à Noël')).toBe('cafe-deja-vu-a-noel')
    expect(slugify('Şişli Çarşı Ağaç Öğün Üsküdar Işık İstanbul')).toBe('sisli-carsi-agac-ogun-uskudar-isik-istanbul')
    expect(slugify('Straße Łódź Øre Ærø')).toBe('strasse-lodz-ore-aero')
  })

  it('keeps the letters of other scripts as they are (addresses may carry them)', () => {
    expect(slugify('مرحبا بالعالم')).toBe('مرحبا-بالعالم')
    // Hamza and tanween are parts of Arabic letters and words, not accents to fold.
    expect(slugify('أهلاً وسهلاً، يا صديقي!')).toBe('أهلاً-وسهلاً-يا-صديقي')
    expect(slugify('إدارة المحتوى 2024')).toBe('إدارة-المحتوى-2024')
    // The tatweel only stretches a word on the page.
    expect(slugify('مـــرحبا')).toBe('مرحبا')
  })

  it('keeps the maximum length without a dash at the end', () => {
    expect(slugify('Summer in Sylhet', 7)).toBe('summer')
    expect(slugify('Summer in Sylhet', 6)).toBe('summer')
    expect(slugify('Summer in Sylhet', 12)).toBe('summer-in-sy')
    expect(slugify('Summer in Sylhet', 100)).toBe('summer-in-sylhet')
    expect(slugify('مرحبا بالعالم', 6)).toBe('مرحبا')
    expect(slugify('anything', 0)).toBe('')
  })

  it('makes nothing of a text without letters or digits', () => {
    expect(slugify('')).toBe('')
    expect(slugify('  !!! ---  ')).toBe('')
  })

  it('always answers a slug: lower-case, no spaces, no dash at either end or twice, within the length', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), fc.integer({ min: 0, max: 40 }), (text, max) => {
        const slug = slugify(text, max)
        expect(Array.from(slug).length).toBeLessThanOrEqual(max)
        expect(slug).not.toMatch(/^-|-$|--|\s/)
        expect(slug).toBe(slug.toLowerCase())
        // Made once, a slug is made again unchanged: the server may slugify what the form sent.
        expect(slugify(slug, max)).toBe(slug)
      }),
    )
  })
})
