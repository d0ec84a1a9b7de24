import { describe, expect, it } from 'vitest'
import { checkRegistry, entities, RegistryError } from '../../../schema'
import { registryKeys, type Catalogue } from '../../../schema/check'
import { defineEntity, defineReport, f } from '../../../schema/kit'
import { defineWidget } from '../../../schema/kit/widget'
import { catalogues } from '../../../server/i18n'

/** The registry's self-check (architecture §1): every problem named with entity, field and fix. */
const base = { module: 'test', route: { area: 'widget-management', list: 'widgets' } }
const widget = (over: Partial<Parameters<typeof defineEntity>[0]> = {}) =>
  defineEntity({ name: 'widget', listKey: 'widgets', ...base, fields: { name: f.text({ max: 20, required: true, search: true }) }, ...over } as Parameters<typeof defineEntity>[0])

describe('checkRegistry', () => {
  it('finds no problem in the real registry with the real catalogues', () => {
    expect(checkRegistry(entities, catalogues)).toEqual([])
  })

  it('reports a value fetched through something that is not a reference, or from a field its row does not have', () => {
    const e = widget({
      fields: {
        name: f.text({ required: true, search: true }),
        parent: f.ref('widget'),
        price: f.money({ fetchFrom: { ref: 'name', field: 'price' } }),
        cost: f.money({ fetchFrom: { ref: 'parent', field: 'ghost' } }),
        copy: f.text({ fetchFrom: { ref: 'parent', field: 'name' } }),
      },
    })
    expect(checkRegistry([e]).map((p) => `${p.field}: ${p.message}`)).toEqual([
      "price: fetchFrom names 'name', which is not a reference of 'widget'",
      "cost: fetchFrom reads 'ghost', which 'widget' does not have",
    ])
  })

  it('reports a dashboard widget that reads or links to what the registry does not have', () => {
    const problems = checkRegistry([widget()], {}, [], [
      defineWidget({ name: 'ghosts', dashboard: 'project', kind: 'figure', reads: 'ghost', order: 1 }),
      defineWidget({ name: 'widgets', dashboard: 'project', kind: 'list', reads: 'widget', link: { entity: 'widget', view: 'none' }, route: 'get_widgets', order: 2 }),
      defineWidget({ name: 'widgets', dashboard: 'project', kind: 'figure', reads: 'widget', route: 'get_widgets', order: 3 }),
    ]).map((p) => `${p.entity}: ${p.message}`)
    expect(problems).toEqual([
      "widget ghosts: reads 'ghost', which is not an entity with a list of its own",
      "widget widgets: links to the view 'none', which 'widget' does not have",
      'widget widgets: a list widget names its columns',
      "widget widgets: duplicate widget name 'widgets'",
      "widget widgets: duplicate widget route 'get_widgets'",
    ])
  })

  it('reports a reference to an entity that is not registered, listing the registered ones', () => {
    const e = widget({ fields: { name: f.text({ required: true, search: true }), owner: f.ref('nowhere') } })
    expect(checkRegistry([e])).toEqual([{ entity: 'widget', field: 'owner', message: "unknown ref target 'nowhere' (registered: widget)" }])
  })

  it('reports a duplicate list key and a duplicate route, naming both entities', () => {
    const a = widget()
    const b = defineEntity({ name: 'gizmo', listKey: 'widgets', ...base, fields: { name: f.text() } })
    const messages = checkRegistry([a, b]).map((p) => `${p.entity}: ${p.message}`)
    expect(messages).toContain("gizmo: duplicate list key 'widgets' (also used by 'widget')")
    expect(messages).toContain("gizmo: duplicate list route '/apps/widget-management/widgets' (also used by 'widget')")
  })

  it('reports a second address that is another entity’s screen', () => {
    const a = widget()
    const b = defineEntity({ name: 'gizmo', listKey: 'gizmos', ...base, route: { area: 'gizmo-management', list: 'gizmos', alsoAt: { area: 'widget-management', list: 'widgets' } }, fields: { name: f.text() } })
    expect(checkRegistry([a, b]).map((p) => `${p.entity}: ${p.message}`)).toContain("gizmo: duplicate second list route '/apps/widget-management/widgets' (also used by 'widget')")
    expect(b.ui.alsoAt).toEqual({ listPath: '/apps/widget-management/widgets', formPath: '/apps/widget-management/widgets' })
  })

  it('reports a view’s form address that another screen has, or that is not a path', () => {
    const a = widget()
    const view = (name: string, form: string) => ({ route: { area: `${name}-management`, list: `${name}s`, form }, filter: { kind: 'a' }, nav: false as const })
    const b = defineEntity({
      name: 'gizmo',
      listKey: 'gizmos',
      module: 'test',
      route: { area: 'gizmo-management', list: 'gizmos' },
      fields: { name: f.text({ search: true }), kind: f.choice(['a', 'b']) },
      views: { red: view('red', 'red-managements/gizmo-details'), blue: view('blue', 'red-managements/gizmo-details'), green: view('green', 'widget-management/widgets'), odd: view('odd', 'odd/../gizmo details'), own: view('own', 'own-management/owns') },
    })
    expect(b.views.red!.ui.formPath).toBe('/apps/red-managements/gizmo-details')
    expect(checkRegistry([a, b]).map((p) => `${p.entity}: ${p.message}`)).toEqual([
      "gizmo: duplicate form route of the view 'blue' '/apps/red-managements/gizmo-details' (also used by 'gizmo')",
      "gizmo: duplicate form route of the view 'green' '/apps/widget-management/widgets' (also used by 'widget')",
      "gizmo: view 'odd': its form address 'odd/../gizmo details' is not path segments of letters, digits, - and _ (`support-managements/ticket-details`)",
    ])
  })

  it('reports a duplicate entity name', () => {
    expect(checkRegistry([widget(), widget({ listKey: 'others', route: { area: 'x', list: 'y' } })]).map((p) => p.message)).toContain(
      "duplicate entity name 'widget' (also used by 'widget')",
    )
  })

  it('reports every translation key a catalogue lacks, per language', () => {
    const en: Catalogue = JSON.parse(JSON.stringify(catalogues.en))
    const problems = checkRegistry([widget()], { en })
    expect(problems).toEqual([
      { entity: 'widget', message: "missing translation key 'entity.widget.one' in the 'en' catalogue" },
      { entity: 'widget', message: "missing translation key 'entity.widget.other' in the 'en' catalogue" },
    ])
    const withLabels = { ...en, entity: { ...(en.entity as object), widget: { one: 'Widget', other: 'Widgets' } } }
    expect(checkRegistry([widget()], { en: withLabels })).toEqual([])
  })

  it('reports field names, orderings, search fields, list columns and extra routes that do not fit', () => {
    const e = widget({
      fields: { name: f.text({ required: true, search: true }), created_at: f.text(), 'Bad-Name': f.text(), flag: f.boolean({ search: true }) },
      ordering: '-missing',
      search: ['nope'] as never,
      listColumns: ['ghost'] as never,
      filters: ['name', 'phantom'] as never,
      extraRoutes: [{ kind: 'listBy', path: 'by owner', field: 'owner' }],
    })
    const messages = checkRegistry([e]).map((p) => (p.field ? `${p.field}: ${p.message}` : p.message))
    expect(messages).toEqual(
      expect.arrayContaining([
        "created_at: 'created_at' is set by the engine on every table; choose another name",
        expect.stringMatching(/^Bad-Name: field name must match/),
        "flag: only text-like fields, or references to a row whose label is searchable, can be searchable (this one is 'boolean')",
        "ordering '-missing' names an unknown field",
        "search field 'nope' is not a field",
        "list column 'ghost' is not a field",
        "filter 'name' must be a stored choice, flag, reference, date or number field",
        "filter 'phantom' must be a stored choice, flag, reference, date or number field",
        "extra route 'by owner' filters on unknown field 'owner'",
        expect.stringMatching(/^extra route path 'by owner' must match/),
      ]),
    )
  })

  it('refuses a required reference that would be set null on delete', () => {
    const target = widget()
    const e = defineEntity({ name: 'part', listKey: 'parts', module: 'test', route: { area: 'parts', list: 'parts' }, fields: { name: f.text({ search: true }), widget: f.ref('widget', { required: true, onDelete: 'setNull' }) } })
    expect(checkRegistry([target, e])).toEqual([{ entity: 'part', field: 'widget', message: "a required reference cannot use onDelete 'setNull'" }])
  })

  it('refuses a name unique within a field that is not a stored field of the same table', () => {
    const target = widget()
    const e = defineEntity({ name: 'part', listKey: 'parts', module: 'test', route: { area: 'parts', list: 'parts' }, fields: { name: f.text({ search: true, unique: { within: 'ghost' } }), widget: f.ref('widget') } })
    expect(checkRegistry([target, e])).toEqual([{ entity: 'part', field: 'name', message: "unique within 'ghost': that must be another stored field of the same table" }])
    const fine = defineEntity({ name: 'part', listKey: 'parts', module: 'test', route: { area: 'parts', list: 'parts' }, fields: { name: f.text({ search: true, unique: { within: 'widget' } }), widget: f.ref('widget') } })
    expect(checkRegistry([target, fine])).toEqual([])
  })

  it('refuses a related list whose `via` is not the other entity’s reference to this one', () => {
    const part = defineEntity({
      name: 'part',
      listKey: 'parts',
      module: 'test',
      route: { area: 'parts', list: 'parts' },
      fields: { name: f.text({ search: true }), widget: f.ref('widget'), spare: f.ref('part'), note: f.text() },
      filters: ['widget', 'spare'],
    })
    const problems = (via: string) => checkRegistry([widget({ related: [{ entity: 'part', via }] }), part]).map((p) => `${p.entity}: ${p.message}`)
    // A text, a reference to another entity, a field it does not have: none names the widget its row belongs to.
    expect(problems('note')).toEqual(["widget: related 'part': 'note' is not its reference to widget"])
    expect(problems('spare')).toEqual(["widget: related 'part': 'spare' is not its reference to widget"])
    expect(problems('ghost')).toEqual(["widget: related 'part': 'ghost' is not its reference to widget"])
    expect(problems('widget')).toEqual([])
  })

  it('refuses built-in rows named by a field that is not a required, unique text, and asks for their message', () => {
    expect(checkRegistry([widget({ builtIn: { field: 'ghost', values: ['MAIN'] } })]).map((p) => p.message)).toContain("builtIn names 'ghost', which is not a text field of the entity")
    expect(checkRegistry([widget({ builtIn: { field: 'name', values: ['MAIN'] } })])).toEqual([
      { entity: 'widget', field: 'name', message: 'the field that names built-in rows must be required and unique' },
    ])
    const fine = widget({ fields: { name: f.text({ required: true, unique: true, search: true }) }, builtIn: { field: 'name', values: ['MAIN'], message: 'detail.built_in_widget' } })
    expect(checkRegistry([fine])).toEqual([])
    expect(registryKeys([fine])).toContain('detail.built_in_widget')
  })

  it('throws all problems at once as a RegistryError with one line each', () => {
    const error = new RegistryError([
      { entity: 'widget', field: 'owner', message: "unknown ref target 'nowhere'" },
      { entity: 'widget', message: "duplicate list key 'widgets'" },
    ])
    expect(error.message).toBe("The entity registry has 2 problem(s):\n  - widget.owner: unknown ref target 'nowhere'\n  - widget: duplicate list key 'widgets'")
  })

  describe('a report’s chart, hidden columns and drill-downs', () => {
    const target = defineReport({ name: 'sales_by_day', module: 'test', route: 'sales-by-day', params: { day: f.date({ required: true }), shop: f.ref('widget', { required: true }) }, columns: { amount: f.money() } })
    const report = (over: Record<string, unknown>) =>
      defineReport({
        name: 'sales',
        module: 'test',
        route: 'sales',
        params: { day: f.date() },
        columns: { day: f.date(), kind: f.choice(['widget', 'opening']), note: f.text(), orders: f.integer(), amount: f.money() },
        hidden: { record: f.integer() },
        ...over,
      } as Parameters<typeof defineReport>[0])
    const problemsOf = (r: ReturnType<typeof report>) => checkRegistry([widget()], {}, [r, target]).map((p) => `${p.entity}${p.field ? `.${p.field}` : ''}: ${p.message}`)

    it('passes a chart of number columns by a shown one, a hidden id and drill-downs to an entity, to the entity a row names and to a report', () => {
      const good = report({
        chart: { kind: 'bar', label: 'kind', values: ['orders', 'amount'] },
        drill: {
          note: { entity: 'widget', id: 'record' },
          kind: { entity: { fromColumn: 'kind' }, id: 'record' },
          amount: { report: 'sales_by_day', params: { shop: 'record' } },
        },
      })
      expect(problemsOf(good)).toEqual([])
      expect([good.columnNames, good.hiddenNames]).toEqual([['day', 'kind', 'note', 'orders', 'amount'], ['record']])
      // A hidden column needs no label: no one reads it.
      expect(registryKeys([], [good])).not.toContain('field.record')
    })

    it('reports a chart of columns it does not have or that are not numbers', () => {
      expect(problemsOf(report({ chart: { kind: 'pie', label: 'ghost', values: ['note', 'amount'] } }))).toEqual([
        "sales: chart label 'ghost' is not a column",
        "sales.note: a chart plots number columns (this one is 'text')",
        'sales: a pie chart plots one value column',
      ])
      expect(problemsOf(report({ chart: { kind: 'donut', label: 'day', values: ['orders'] } }))).toEqual(["sales: chart kind 'donut' is none of bar, line, pie"])
    })

    it('reports a hidden column named as a column or a parameter', () => {
      expect(problemsOf(report({ hidden: { amount: f.money(), day: f.date(), Bad: f.text() } }))).toEqual([
        'sales.amount: a hidden column is named as a column or a parameter',
        'sales.day: a hidden column is named as a column or a parameter',
        'sales.Bad: name must match /^[a-z][a-z0-9_]*$/',
      ])
    })

    it('reports drill-downs to what the registry does not have, by columns the report does not have', () => {
      expect(
        problemsOf(
          report({
            drill: {
              record: { entity: 'widget', id: 'record' },
              note: { entity: 'ghost', id: 'note' },
              day: { entity: { fromColumn: 'nowhere' }, id: 'ghost' },
              kind: { entity: { fromColumn: 'kind' }, id: 'record' },
              orders: { report: 'ghost_report' },
              amount: { report: 'sales_by_day', params: { week: 'day', day: 'nothing' } },
            },
            columns: { day: f.date(), kind: f.choice(['opening', 'closing']), note: f.text(), orders: f.integer(), amount: f.money() },
          }),
        ),
      ).toEqual([
        'sales.record: a drill-down starts from a column',
        "sales.note: a drill-down id is a record's id, an integer column (this one is 'text')",
        "sales.note: drill-down to unknown entity 'ghost'",
        "sales.day: drill-down id 'ghost' is not a column",
        "sales.day: drill-down takes its entity from 'nowhere', which is not a column",
        "sales.kind: drill-down takes its entity from 'kind', none of whose choices is an entity",
        "sales.orders: drill-down to unknown report 'ghost_report'",
        "sales.amount: drill-down gives 'week', which is not a parameter of 'sales_by_day'",
        "sales.amount: drill-down takes 'day' from 'nothing', which is neither a column nor a parameter",
        "sales.amount: drill-down to 'sales_by_day' does not give its required parameter 'shop'",
      ])
    })
  })

  it('asks the catalogues for entity, field, option and validation keys', () => {
    const e = widget({ fields: { name: f.text(), state: f.choice(['open', 'shut']) } })
    expect(registryKeys([e])).toEqual(expect.arrayContaining(['entity.widget.one', 'entity.widget.other', 'field.name', 'field.state', 'option.open', 'option.shut', 'validation.required']))
  })
})
