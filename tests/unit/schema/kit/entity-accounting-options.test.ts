import { describe, expect, it } from 'vitest'
import { registry } from '../../../../schema'
import { checkRegistry } from '../../../../schema/check'
import { defineEntity, f, isBuiltInRow } from '../../../../schema/kit'

/**
 * The entity options the chart of accounts added (issue 10): built-in rows marked by a
 * read-only flag (`builtIn: { field: 'is_deletable', values: [false] }`) and the automatic
 * ledger account (`ledger`).
 */
const base = { module: 'test', listKey: 'widgets', route: { area: 'widget-management', list: 'widgets' } }

describe('builtIn by a flag', () => {
  const flagged = defineEntity({
    name: 'widget',
    ...base,
    fields: { name: f.text({ required: true, search: true }), is_deletable: f.boolean({ default: true, readOnly: true }) },
    builtIn: { field: 'is_deletable', values: [false], message: 'detail.built_in_widget' },
  })

  it('marks the rows whose flag has the value, and only those', () => {
    expect(isBuiltInRow(flagged, { name: 'Seeded', is_deletable: false })).toBe(true)
    expect(isBuiltInRow(flagged, { name: 'Mine', is_deletable: true })).toBe(false)
    // A text field's values are not matched by a flag's, nor the other way round.
    expect(isBuiltInRow(flagged, { name: 'Seeded', is_deletable: 'false' })).toBe(false)
  })

  it('accepts a read-only flag and refuses one a client could clear', () => {
    expect(checkRegistry([flagged]).filter((p) => p.entity === 'widget' && /built-in|builtIn/.test(p.message))).toEqual([])
    const writable = defineEntity({
      name: 'widget',
      ...base,
      fields: { name: f.text({ required: true, search: true }), is_deletable: f.boolean({ default: true }) },
      builtIn: { field: 'is_deletable', values: [false] },
    })
    expect(checkRegistry([writable])).toContainEqual({ entity: 'widget', field: 'is_deletable', message: 'the flag that marks built-in rows must be read-only' })
  })

  it('is how the chart of accounts keeps its seeded rows', () => {
    for (const e of [registry.primary_group, registry.group, registry.ledger_account]) expect(e.builtIn).toMatchObject({ field: 'is_deletable', values: [false] })
  })
})

describe('ledger', () => {
  it('names the ledger by the given field, or by the label field', () => {
    const named = defineEntity({ name: 'widget', ...base, labelField: 'code', fields: { code: f.text({ search: true }), title: f.text() }, ledger: { group: 'Sundry Debtors', type: 'widget_ledger' } })
    expect(named.ledger).toEqual({ group: 'Sundry Debtors', type: 'widget_ledger', name: 'code' })
    const byTitle = defineEntity({ name: 'widget', ...base, fields: { name: f.text({ search: true }), title: f.text() }, ledger: { group: 'Salary', type: 'widget_ledger', name: 'title' } })
    expect(byTitle.ledger?.name).toBe('title')
    expect(defineEntity({ name: 'widget', ...base, fields: { name: f.text() } }).ledger).toBeUndefined()
  })

  it('is declared on the employee: its ledger under Salary, named after the username', () => {
    expect(registry.employee.ledger).toEqual({ group: 'Salary', type: 'employee_ledger', name: 'username' })
  })
})
