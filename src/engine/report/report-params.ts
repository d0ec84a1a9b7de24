import { messageOfIssue, renderMessage, type AnyField, type Translate } from '../../../schema/kit'
import type { Report } from '../../../schema/kit/report'
import { validateRecordInput, type RecordShape } from '../../../schema/kit/validators'
import { prepareForValidation, type FormValue, type FormValues, type SubmitValues } from '../form/form-values'
import type { ParamValue } from './report-search'

/**
 * A report's parameters between the address, the form and the server. The form holds
 * what its widgets hold (text as strings, a reference's id, a checkbox's boolean); the
 * parameters are judged by the registry's validators and rules — the server's very check —
 * and what passes goes to the address and, as text, to the server's query string.
 */
export type ParamErrors = Record<string, string>

const shapes = new WeakMap<Report, RecordShape>()

/** The parameters as a record shape the validators judge (fields and the rules across them). */
export function paramsShape(report: Report): RecordShape {
  let shape = shapes.get(report)
  if (!shape) {
    shape = { fields: report.params, fieldNames: report.paramNames, rules: report.rules, linesFieldNames: [] }
    shapes.set(report, shape)
  }
  return shape
}

function blankOf(field: AnyField): FormValue {
  switch (field.widget) {
    case 'checkbox':
      return field.defaultValue === true
    case 'ref-select':
      return typeof field.defaultValue === 'number' ? field.defaultValue : null
    case 'refs-select':
      return []
    default:
      return typeof field.defaultValue === 'string' || typeof field.defaultValue === 'number' ? String(field.defaultValue) : ''
  }
}

function formValueOf(field: AnyField, value: ParamValue | undefined): FormValue {
  if (value === undefined) return blankOf(field)
  switch (field.widget) {
    case 'checkbox':
      return value === true || value === 'true'
    case 'ref-select': {
      const id = typeof value === 'number' ? value : Number(value)
      return Number.isSafeInteger(id) ? id : null
    }
    case 'refs-select':
      return Array.isArray(value) ? value : typeof value === 'number' ? [value] : []
    default:
      return Array.isArray(value) ? value.join(',') : String(value)
  }
}

/** The form's values for the parameters the address holds. */
export function formValuesOf(report: Report, params: Readonly<Record<string, ParamValue>>): FormValues {
  return Object.fromEntries(report.paramNames.map((name) => [name, formValueOf(report.params[name]!, params[name])]))
}

/** The validated parameters as the address keeps them: blanks, nulls and an unticked box left out. */
export function paramsOfValues(report: Report, values: SubmitValues): Record<string, ParamValue> {
  const out: Record<string, ParamValue> = {}
  for (const name of report.paramNames) {
    const value = values[name]
    if (value === null || value === undefined || value === '' || value === false) continue
    if (Array.isArray(value)) {
      if (value.length > 0) out[name] = value.filter((v): v is number => typeof v === 'number')
    } else if (typeof value === 'string' || typeof value === 'number' || value === true) out[name] = value
  }
  return out
}

export type ParamsCheck = { success: true; params: Record<string, ParamValue> } | { success: false; errors: ParamErrors }

/** Judges the form's values as the server will (fields, then the rules across them), with the messages in the interface language. */
export function checkParams(report: Report, values: FormValues, t: Translate): ParamsCheck {
  const result = validateRecordInput(paramsShape(report), prepareForValidation(values), 'create')
  if (result.success) return { success: true, params: paramsOfValues(report, result.data) }
  const errors: ParamErrors = {}
  for (const issue of result.issues) {
    const field = typeof issue.path[0] === 'string' ? issue.path[0] : report.paramNames[0]
    if (field === undefined || errors[field]) continue
    errors[field] = renderMessage(t, messageOfIssue(issue, report.fieldLabelKey(field)))
  }
  return { success: false, errors }
}

/** The query string of a run: every parameter as text (a list of ids comma-separated). */
export function queryOfParams(params: Readonly<Record<string, ParamValue>>): Record<string, string> {
  return Object.fromEntries(Object.entries(params).map(([name, value]) => [name, Array.isArray(value) ? value.join(',') : String(value)]))
}

/** A stable key of the parameters, whatever their order. */
export function paramsKey(params: Readonly<Record<string, ParamValue>>): string {
  return JSON.stringify(Object.keys(params).sort().map((k) => [k, params[k]]))
}
