/**
 * The address-friendly form of a text (`Summer in Şile!` → `summer-in-sile`), made the same
 * in the browser (the form's preview as one types) and on the server (a slug left blank), so
 * that what the form shows is what gets stored.
 *
 * Latin letters lose their accents (é→e, ş→s, ğ→g, ı→i); letters of other scripts stay as
 * they are — addresses may carry them (`مرحبا-بالعالم`) and folding Arabic to Latin would
 * lose words. Everything that is not a letter, digit or combining mark becomes `-`.
 */

/** Latin letters that Unicode does not decompose into a base letter and an accent. */
const LATIN_WITHOUT_DECOMPOSITION: Readonly<Record<string, string>> = {
  ı: 'i',
  ø: 'o',
  Ø: 'o',
  ł: 'l',
  Ł: 'l',
  đ: 'd',
  Đ: 'd',
  ð: 'd',
  Ð: 'd',
  ħ: 'h',
  Ħ: 'h',
  ß: 'ss',
  ẞ: 'ss',
  æ: 'ae',
  Æ: 'ae',
  œ: 'oe',
  Œ: 'oe',
  þ: 'th',
  Þ: 'th',
}
const UNDECOMPOSED = new RegExp(`[${Object.keys(LATIN_WITHOUT_DECOMPOSITION).join('')}]`, 'gu')

/** A Latin letter's accents after decomposition (NFKD): dropped. Other scripts keep theirs (Arabic's hamza is one). */
const LATIN_ACCENTS = /(\p{Script=Latin})\p{M}+/gu
/** The Arabic tatweel stretches a word on the page; it is not part of the word. */
const TATWEEL = /\u0640/g
const NOT_WORD = /[^\p{L}\p{N}\p{M}]+/gu
const EDGE_DASHES = /^-+|-+$/g

/** `max`: the most characters (code points, as PostgreSQL's `varchar(n)` counts); a cut slug never ends in `-`. */
export function slugify(text: string, max?: number): string {
  const slug = text
    .normalize('NFKD')
    .replace(UNDECOMPOSED, (c) => LATIN_WITHOUT_DECOMPOSITION[c] ?? c)
    .replace(TATWEEL, '')
    .replace(LATIN_ACCENTS, '$1')
    // Recomposes what other scripts decomposed (أ is ا with a hamza above).
    .normalize('NFC')
    .toLowerCase()
    .replace(NOT_WORD, '-')
    .replace(EDGE_DASHES, '')
  if (max === undefined) return slug
  const chars = Array.from(slug)
  if (chars.length <= max) return slug
  return chars.slice(0, Math.max(0, max)).join('').replace(EDGE_DASHES, '')
}
