import type { Rule } from './entity'
import type { ComputeInput } from './fields'
import { subtract, sum, toMinor, type Amount } from './money'
import { isSet } from './compute'

/**
 * Rules across fields that recur, for `defineEntity({ rules: [...] })`. Each runs in the
 * browser's form and on the server once the fields themselves are valid.
 */

/**
 * `field` must repeat `other` (a password confirmation). A request that leaves `field` out
 * is not judged: the original clients do not send a confirmation.
 */
export function sameAs(field: string, other: string, message: `validation.${string}` = 'validation.password_match'): Rule {
  return {
    field,
    message,
    fields: [field, other],
    check: (values, { input }) => !Object.hasOwn(input, field) || (values[field] ?? null) === (values[other] ?? null),
  }
}

/**
 * At least one of the fields has a value: a record with nothing in it is refused (a slide
 * with no title, link, image or text). The message goes on the first field.
 */
export function atLeastOne(fields: readonly [string, ...string[]], message: `validation.${string}` = 'validation.empty_record'): Rule {
  return { field: fields[0], message, fields, check: (values) => fields.some((f) => isSet(values[f])) }
}

/** Exactly one of the fields has a value ("either a head group or a head primary group, but not both"). */
export function exactlyOne(fields: readonly [string, string, ...string[]], message: `validation.${string}`): Rule {
  return { field: fields[0], message, fields, check: (values) => fields.filter((f) => isSet(values[f])).length === 1 }
}

const lineAmounts = (values: ComputeInput, lines: string, field: string): Amount[] =>
  ((values[lines] as ReadonlyArray<Record<string, unknown>> | null) ?? []).map((line) => line[field] as Amount)

/** The lines' debits and credits add up to the same total; the message gets both totals and the difference. */
/**
 * The lines' debits equal their credits — or, with a `tolerance` (a voucher's rounding,
 * domain-anchors rule 35), differ by no more than it: what is left over is the posting's to
 * settle (a Round Off line), anything more is refused.
 */
export function balanced(lines: string, debit: string, credit: string, message: `validation.${string}`, tolerance?: string): Rule {
  const totals = (values: ComputeInput) => ({ debit: sum(lineAmounts(values, lines, debit)), credit: sum(lineAmounts(values, lines, credit)) })
  const allowed = tolerance === undefined ? 0n : toMinor(tolerance)
  return {
    field: lines,
    message,
    fields: [lines],
    kind: { balanced: { lines, debit, credit, ...(tolerance === undefined ? {} : { tolerance }) } },
    check: (values) => {
      const t = totals(values)
      const difference = toMinor(t.debit) - toMinor(t.credit)
      return (difference < 0n ? -difference : difference) <= allowed
    },
    params: (values) => {
      const t = totals(values)
      const difference = subtract(t.debit, t.credit).replace('-', '')
      return { debit: t.debit, credit: t.credit, difference }
    },
  }
}

/** `from` is not after `to` (dates as YYYY-MM-DD compare as text). */
export function notAfter(from: string, to: string, message: `validation.${string}`): Rule {
  return { field: to, message, fields: [from, to], check: (values) => !isSet(values[from]) || !isSet(values[to]) || String(values[from]) <= String(values[to]) }
}

/** No two lines carry the same value of `field` (a role's menu holds an item once). */
export function distinct(lines: string, field: string, message: `validation.${string}`): Rule {
  return {
    field: lines,
    message,
    fields: [lines],
    check: (values) => {
      const seen = ((values[lines] as ReadonlyArray<Record<string, unknown>> | null) ?? []).map((line) => line[field])
      return new Set(seen).size === seen.length
    },
  }
}
