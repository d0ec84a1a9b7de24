import type { Rule } from '../../kit'

/**
 * A reference to a ledger that must hold money — a cash or bank ledger (`is_cash_bank`, a
 * fact of the ledger): where a payment is paid from, where a method's money is received.
 * Not known (a form that has not read the ledger yet): the server, which knows it, decides.
 */
export const cashOrBankLedger = (field: string, message: `validation.${string}`): Rule => ({
  field,
  message,
  fields: [field],
  facts: [{ field, target: 'ledger_account', name: 'is_cash_bank' }],
  check: (values, context) => values[field] === null || values[field] === undefined || context.fact?.('ledger_account', values[field], 'is_cash_bank') !== false,
})
