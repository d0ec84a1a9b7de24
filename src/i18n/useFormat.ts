import { useMemo } from 'react'
import { useTranslation } from 'react-i18next'
import { isLanguage, type Language } from './index'

/** Number, money and date formatting through Intl in the current interface language. */
export type Formatters = {
  integer: (value: number) => string
  /** Decimal strings are formatted as text (no float rounding), with exactly `scale` digits. */
  decimal: (value: string, scale?: number) => string
  date: (value: string) => string
  dateTime: (value: string) => string
  /** A share as a percentage: 0.7 → "70%" ("%70" in Turkish). */
  percent: (value: number) => string
  /** Today-style long date: "Sunday, 22 November 2026". */
  longDate: (value: string) => string
  /** A chart's figure, short (spec: "a k suffix"): 950 → "950", 12500 → "12.5k" ("12,5k" in Turkish). */
  compact: (value: number | string) => string
}

// Latin digits keep ids, codes and amounts comparable across languages; Arabic text
// still flows right to left.
const localeOf = (language: Language) => (language === 'ar' ? 'ar-u-nu-latn' : language)

export function formattersFor(language: Language): Formatters {
  const locale = localeOf(language)
  const integer = new Intl.NumberFormat(locale, { maximumFractionDigits: 0 })
  const decimalFormats = new Map<number, Intl.NumberFormat>()
  const decimalFormat = (scale: number) => {
    let format = decimalFormats.get(scale)
    if (!format) {
      format = new Intl.NumberFormat(locale, { minimumFractionDigits: scale, maximumFractionDigits: scale })
      decimalFormats.set(scale, format)
    }
    return format
  }
  const date = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeZone: 'UTC' })
  const dateTime = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' })
  const longDate = new Intl.DateTimeFormat(locale, { dateStyle: 'full', timeZone: 'UTC' })
  const percent = new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 0 })
  const thousands = new Intl.NumberFormat(locale, { maximumFractionDigits: 1 })
  return {
    integer: (value) => integer.format(value),
    decimal: (value, scale = 2) => {
      // Intl formats numeric strings exactly (NumberFormat v3), so money never passes through a float.
      return /^-?\d+(\.\d+)?$/.test(value) ? decimalFormat(scale).format(value as `${number}`) : value
    },
    date: (value) => {
      const d = new Date(`${value.slice(0, 10)}T00:00:00Z`)
      return Number.isNaN(d.getTime()) ? value : date.format(d)
    },
    dateTime: (value) => {
      const d = new Date(value)
      return Number.isNaN(d.getTime()) ? value : dateTime.format(d)
    },
    percent: (value) => percent.format(value),
    compact: (value) => {
      const n = Number(value)
      if (!Number.isFinite(n)) return String(value)
      return Math.abs(n) < 1000 ? thousands.format(n) : `${thousands.format(n / 1000)}k`
    },
    longDate: (value) => {
      const d = new Date(`${value.slice(0, 10)}T00:00:00Z`)
      return Number.isNaN(d.getTime()) ? value : longDate.format(d)
    },
  }
}

export function useFormat(): Formatters {
  const { i18n } = useTranslation()
  const lng = i18n.resolvedLanguage ?? i18n.language
  const language: Language = isLanguage(lng) ? lng : 'en'
  return useMemo(() => formattersFor(language), [language])
}
