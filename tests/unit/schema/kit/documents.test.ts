import { describe, expect, it } from 'vitest'
import { checkRegistry, navigationEntries } from '../../../../schema'
import { navGroups } from '../../../../schema/navigation'
import { defineEntity, defineReport, f, rules, withComputed, money } from '../../../../schema/kit'
import { issueKey, issueLabelKey, validateRecordInput } from '../../../../schema/kit/validators'

/**
 * Documents in the field kit (issue 7): a lines field nests its line entity's validator,
 * rules run across fields and lines, computed values are worked out alike everywhere, and
 * the registry check names what does not fit.
 */
const line = defineEntity({
  name: 'invoice_line',
  module: 'test',
  lineOf: 'invoice',
  fields: {
    product: f.text({ max: 20, required: true }),
    quantity: f.integer({ required: true, min: 1 }),
    price: f.money({ required: true }),
    amount: f.money({ compute: (l) => money.multiply(l.price as string, l.quantity as number) }),
  },
})

const invoiceConfig = {
  name: 'invoice',
  module: 'test',
  listKey: 'invoices',
  labelField: 'number',
  route: { area: 'invoices', list: 'invoices' },
  nav: { group: 'settings', icon: 'receipt', order: 3 },
  fields: {
    number: f.text({ max: 20, required: true, search: true }),
    items: f.lines(line, { min: 1 }),
    total: f.money({ compute: (d) => money.sum(((d.items as Array<{ amount: string }>) ?? []).map((l) => l.amount)) }),
    password: f.password(),
    confirm: f.password({ transient: true }),
  },
  rules: [rules.sameAs('confirm', 'password'), rules.distinct('items', 'product', 'validation.duplicate_line')],
  actions: { approve: { confirm: true } },
} as const
const invoice = defineEntity(invoiceConfig)

describe('a lines field', () => {
  it('validates each line with the line entity\'s rules, reported as items.<i>.<field>', () => {
    const result = validateRecordInput(invoice, { number: 'A1', items: [{ product: 'Pen', quantity: 2, price: '1.50' }, { product: '', quantity: 0, price: 'x' }] })
    expect(result.success).toBe(false)
    if (result.success) return
    expect(result.issues.map((i) => [issueKey(invoice, i.path), i.message])).toEqual([
      ['items.1.product', 'validation.required'],
      ['items.1.quantity', 'validation.min_value'],
      ['items.1.price', 'validation.decimal'],
    ])
    expect(issueLabelKey(invoice, ['items', 1, 'quantity'])).toBe('field.quantity')
    expect(issueLabelKey(invoice, ['items', 0, 'id'])).toBe('field.line')
    expect(issueKey(invoice, ['items'])).toBe('items')
  })

  it('keeps the id of a stored line, and takes a line as the bare value of its scalar field', () => {
    const ok = validateRecordInput(invoice, { number: 'A1', items: [{ id: '7', product: 'Pen', quantity: '2', price: 1.5 }] })
    expect(ok.success && ok.data.items).toEqual([{ id: 7, product: 'Pen', quantity: 2, price: '1.50' }])
    const menu = defineEntity({ name: 'menu_line', module: 'test', lineOf: 'menu', fields: { item: f.ref('menu', { required: true }) } })
    const doc = defineEntity({ name: 'menu', module: 'test', listKey: 'menus', route: { area: 'm', list: 'm' }, fields: { name: f.text({ search: true }), items: f.lines(menu, { scalar: 'item' }) } })
    const scalar = validateRecordInput(doc, { items: [3, '5', { item: 8 }] })
    expect(scalar.success && scalar.data.items).toEqual([{ item: 3 }, { item: 5 }, { item: 8 }])
  })

  it('needs as many lines as its minimum, and a list', () => {
    const none = validateRecordInput(invoice, { number: 'A1', items: [] })
    expect(!none.success && none.issues.map((i) => i.message)).toEqual(['validation.lines_min'])
    const notList = validateRecordInput(invoice, { number: 'A1', items: 'pens' })
    expect(!notList.success && notList.issues.map((i) => i.message)).toEqual(['validation.lines'])
  })
})

describe('rules across fields and lines', () => {
  it('runs once the fields are valid, at the rule\'s field', () => {
    const twice = validateRecordInput(invoice, { number: 'A1', items: [{ product: 'Pen', quantity: 1, price: '1' }, { product: 'Pen', quantity: 2, price: '1' }] })
    expect(!twice.success && twice.issues.map((i) => [i.path.join('.'), i.message])).toEqual([['items', 'validation.duplicate_line']])
    const mismatch = validateRecordInput(invoice, { number: 'A1', items: [{ product: 'Pen', quantity: 1, price: '1' }], password: 'secret-1', confirm: 'secret-2' })
    expect(!mismatch.success && mismatch.issues.map((i) => i.path.join('.'))).toEqual(['confirm'])
    // A request that sends no confirmation (an original client) is not judged by it.
    expect(validateRecordInput(invoice, { number: 'A1', items: [{ product: 'Pen', quantity: 1, price: '1' }], password: 'secret-1' }).success).toBe(true)
  })

  it('balances debits and credits, naming the difference', () => {
    const rule = rules.balanced('items', 'debit', 'credit', 'validation.unbalanced')
    const values = { items: [{ debit: '100.00', credit: '0' }, { debit: '0', credit: '99.90' }] }
    expect(rule.check(values, { mode: 'create', input: values })).toBe(false)
    expect(rule.params!(values)).toEqual({ debit: '100.00', credit: '99.90', difference: '0.10' })
    expect(rule.check({ items: [{ debit: '0.1', credit: '0' }, { debit: '0.2', credit: '0.3' }] }, { mode: 'create', input: {} })).toBe(true)
  })

  it('exactly one of two fields', () => {
    const rule = rules.exactlyOne(['a', 'b'], 'validation.one_of')
    const check = (v: Record<string, unknown>) => rule.check(v, { mode: 'create', input: v })
    expect([check({ a: 1, b: null }), check({ a: null, b: 2 }), check({ a: 1, b: 2 }), check({ a: null, b: null })]).toEqual([true, true, false, false])
  })
})

describe('computed fields', () => {
  it('works out each line\'s value, then the document\'s from them', () => {
    const values = withComputed(invoice, { number: 'A1', items: [{ product: 'Pen', quantity: 3, price: '0.10' }, { product: 'Ink', quantity: 1, price: '2.05' }] })
    expect(values.items).toEqual([expect.objectContaining({ amount: '0.30' }), expect.objectContaining({ amount: '2.05' })])
    expect(values.total).toBe('2.35')
  })

  it('are set by the engine: read-only, stored as a column unless virtual', () => {
    expect(invoice.fields.total).toMatchObject({ isReadOnly: true, isVirtual: false, sql: { type: 'numeric(20,2)' } })
    const virtual = f.text({ virtual: true, compute: () => 'x' })
    expect(virtual).toMatchObject({ isVirtual: true, isSortable: false, sql: undefined })
    expect(invoice.fields.confirm).toMatchObject({ isTransient: true, isWriteOnly: true, sql: undefined })
  })
})

describe('the registry check of documents, actions, reports and navigation', () => {
  const report = defineReport({ name: 'sales', module: 'test', route: 'sales', params: { from: f.date() }, columns: { product: f.text(), amount: f.money() }, totals: ['amount'] })

  it('takes a document with its lines, an action and a report', () => {
    const problems = checkRegistry([invoice, line], {}, [report])
    expect(problems).toEqual([])
    expect(invoice.actions.approve).toMatchObject({ permission: 'INVOICE_APPROVE', labelKey: 'action.approve', confirmKey: 'action.approve_question', paths: ['approve'] })
    expect(report.permission).toBe('SALES_VIEW')
  })

  it('names a line entity no document uses, a lines field whose entity is not registered, and a line used twice', () => {
    expect(checkRegistry([invoice]).map((p) => p.message)).toContain("its line entity 'invoice_line' is not in the registry")
    const stray = defineEntity({ name: 'stray_line', module: 'test', lineOf: 'invoice', fields: { x: f.text() } })
    expect(checkRegistry([invoice, line, stray]).map((p) => p.message)).toContain("lineOf 'invoice', but 'invoice' has no lines field of this entity")
  })

  it('names a lines total that is not a number or money column of the line', () => {
    const totalled = (totals: Array<'product' | 'quantity' | 'amount'>) =>
      defineEntity({ ...invoiceConfig, fields: { ...invoiceConfig.fields, items: f.lines(line, { min: 1, totals }) } })
    expect(checkRegistry([totalled(['quantity', 'amount']), line], {}, [report])).toEqual([])
    expect(checkRegistry([totalled(['product']), line], {}, [report]).map((p) => p.message)).toContain("totals: 'product' is not a number or money field of 'invoice_line'")
  })

  it('names a label field that cannot be searched, an unknown nav group or icon, a bad total and an action path that is taken', () => {
    const unsearchable = defineEntity({ name: 'tag', module: 'test', listKey: 'tags', route: { area: 'tags', list: 'tags' }, fields: { name: f.text() }, nav: { group: 'nowhere', icon: 'x' }, actions: { search: {} } })
    const messages = checkRegistry([unsearchable]).map((p) => p.message)
    expect(messages).toContain('the label field must be searchable (a picker finds rows by it): mark it search: true')
    // A group added to schema/navigation.ts joins the list the message gives.
    expect(messages).toContain(`nav group 'nowhere' is not a group of schema/navigation.ts (${navGroups.map((g) => g.id).join(', ')})`)
    expect(navGroups.map((g) => g.id)).toEqual(expect.arrayContaining(['employee-management', 'settings', 'reports', 'other']))
    expect(messages).toContain("action path 'search' is taken by another route of the entity")
    expect(messages.find((m) => m.startsWith("nav icon 'x' is not one the shell draws: use one of schema/navigation.ts's materialIcons (dashboard, people"))).toBeDefined()
    const badTotal = defineReport({ name: 'bad', module: 'test', route: 'bad', params: {}, columns: { product: f.text() }, totals: ['product'] })
    expect(checkRegistry([], {}, [badTotal]).map((p) => p.message)).toContain("only number columns can be totalled (this one is 'text')")
  })

  it('asks the catalogues for the action, report and navigation keys', async () => {
    const { registryKeys } = await import('../../../../schema/check')
    expect(registryKeys([invoice, line], [report])).toEqual(expect.arrayContaining(['action.approve', 'action.approve_question', 'report.sales', 'nav.settings', 'entity.invoice.other', 'field.line', 'nav.reports']))
  })

  it('places entities and reports in their groups, groups and pages in order', () => {
    const entries = navigationEntries([invoice, line], [report])
    expect(entries.map((e) => [e.key, e.parent ?? null])).toEqual([
      ['page:dashboards', null],
      ['group:settings', null],
      ['group:reports', null],
      ['entity:invoice', 'group:settings'],
      ['report:sales', 'group:reports'],
    ])
    expect(entries.find((e) => e.key === 'entity:invoice')).toMatchObject({ url: '/apps/invoices/invoices', permission: 'INVOICE_LIST', label: 'entity.invoice.other' })
  })
})
