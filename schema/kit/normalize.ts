/**
 * Name normalisation rules applied on save (api-contract §2.6). They run inside the
 * field's zod validator, so the browser form and the server store the same text.
 */
export type Normalizer = 'capitalize' | 'title' | 'upper' | 'upper_snake' | 'lower_snake'

const words = (s: string) => s.trim().replace(/\s+/g, ' ')

export const normalizers: Record<Normalizer, (value: string) => string> = {
  // Only the first letter is raised: lowering the rest (Python's capitalize) would
  // damage names such as "Cox's Bazar" or "Dhaka DOHS".
  capitalize: (s) => {
    const t = words(s)
    return t.charAt(0).toLocaleUpperCase('en') + t.slice(1)
  },
  title: (s) =>
    words(s)
      .split(' ')
      .map((w) => w.charAt(0).toLocaleUpperCase('en') + w.slice(1).toLocaleLowerCase('en'))
      .join(' '),
  upper: (s) => words(s).toLocaleUpperCase('en'),
  upper_snake: (s) => words(s).replace(/ /g, '_').toLocaleUpperCase('en'),
  lower_snake: (s) => words(s).replace(/ /g, '_').toLocaleLowerCase('en'),
}
