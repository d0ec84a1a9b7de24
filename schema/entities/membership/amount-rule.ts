import { money, type Rule } from '../../kit'

/**
 * Money received is above zero: a receipt of nothing posts nothing (the general ledger
 * refuses a line without an amount). The field's own `min` only keeps it from being negative.
 */
export const amountAboveZero: Rule = {
  field: 'amount',
  message: 'validation.amount_above_zero',
  fields: ['amount'],
  check: (values) => money.compare(values.amount as string, '0') > 0,
}
