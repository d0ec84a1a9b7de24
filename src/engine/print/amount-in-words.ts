import type { Language } from '../../i18n'

/**
 * An amount of money in words, in the reader's language ("one thousand two hundred and fifty
 * taka and fifty poisha only"): the whole and the fraction counted by n2words (each
 * language's grammar, loaded when first printed), the currency's words from the catalogue.
 */
type Cardinal = (value: number | string | bigint) => string

const cardinals: Record<Language, () => Promise<Cardinal>> = {
  // Bangladesh's English counts in lakh and crore, as the business's documents do.
  en: () => import('n2words/en-BD').then((m) => m.toCardinal),
  tr: () => import('n2words/tr-TR').then((m) => m.toCardinal),
  ar: () => import('n2words/ar-SA').then((m) => m.toCardinal),
}

export async function amountInWords(amount: string, language: Language, t: (key: string, params: Record<string, string>) => string): Promise<string> {
  const toCardinal = await cardinals[language]()
  const [whole = '0', fraction = ''] = amount.replace(/^-/, '').split('.')
  const minor = Number(fraction.padEnd(2, '0').slice(0, 2))
  const wholeWords = toCardinal(BigInt(whole || '0'))
  const words = minor === 0 ? t('print.words_whole', { whole: wholeWords }) : t('print.words_fraction', { whole: wholeWords, fraction: toCardinal(minor) })
  // A sentence starts with a capital, where the script has one.
  return words.charAt(0).toLocaleUpperCase(language) + words.slice(1)
}
