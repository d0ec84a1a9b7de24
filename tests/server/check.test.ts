import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'
import { checkRegistry, entities, reports } from '../../schema'
import { defineEntity, f } from '../../schema/kit'
import { defaultModules } from '../../server/app'
import { checkApp } from '../../server/check'
import { throwawayApp, useThrowawayLabels } from './helpers/throwaway-module'
import { gadgetOrder, stockTransfer, throwawayEntities, throwawayReports } from '../support/throwaway-registry'

useThrowawayLabels()

/** `npm run check` (issue 18 §6): what the start-up would refuse, found without a database. */
describe('the check without a database', () => {
  it('passes the app’s registry and modules, and runs as npm run check', async () => {
    const result = await checkApp()
    expect(result).toMatchObject({ entities: entities.length, reports: reports.length })
    expect(result.routes).toBeGreaterThan(1000)
    const { stdout } = await promisify(execFile)('npx', ['tsx', 'scripts/check.ts'], { cwd: process.cwd() })
    expect(stdout).toMatch(/^check: \d+ entities, \d+ reports, \d+ routes — no problems$/m)
  }, 60_000)

  it('names every problem of the registry at once', async () => {
    const broken = defineEntity({
      name: 'unlabelled_thing', module: 'test', listKey: 'unlabelled_things', route: { area: 'thing-management', list: 'things' },
      fields: { name: f.text({ max: 20, required: true, search: true }), owner: f.ref('nobody') },
    })
    const failure = checkApp({ entities: [...entities, broken] })
    await expect(failure).rejects.toMatchObject({ name: 'RegistryError' })
    await expect(failure).rejects.toThrow(/entity\.unlabelled_thing\.one[\s\S]*nobody|nobody[\s\S]*entity\.unlabelled_thing\.one/)
  })

  it('refuses a print layout naming what the document does not have', () => {
    const broken = defineEntity({
      name: 'broken_print', module: 'test', listKey: 'broken_prints', route: { area: 'brokenPrint-management', list: 'brokenPrints' },
      fields: { name: f.text({ required: true, search: true }), value: f.integer() },
      print: { header: ['name', 'nope' as 'name'], lines: { field: 'name', columns: ['x'] }, totals: ['name'], amount: 'value' },
    })
    expect(checkRegistry([...entities, broken]).filter((p) => p.entity === 'broken_print' && !p.message.includes('translation')).map((p) => p.message)).toEqual([
      "print: header names 'nope', which is not a field",
      "print: lines names 'name', which is not its lines",
      "print: total 'name' is not a number column of its lines",
      "print: amount 'value' is not a money field",
    ])
  })

  it('names at once every declaration no module completes: an action without its handler, a report without its query, a posted document without its postings', async () => {
    const registry = { entities: throwawayEntities, reports: throwawayReports }
    const failure = checkApp({ ...registry, modules: [...defaultModules(), { name: 'test', actions: { gadget_order: { cancel: () => {} } } }] })
    await expect(failure).rejects.toMatchObject({ name: 'RegistryError' })
    const message = await failure.then(() => '', (e: Error) => e.message)
    expect(message.split('\n').slice(1)).toEqual([
      `  - ${gadgetOrder.name}: the action 'confirm' has no handler: a domain module must give one (actions: { gadget_order: { confirm: … } })`,
      `  - ${stockTransfer.name}: it posts to the general ledger, but no module says what: give \`postings: { stock_transfer: … }\` in a DomainModule`,
      "  - gadget_sales: the report has no query: a domain module must give one (reports: { gadget_sales: … })",
    ])
    // Completed, the same registry passes.
    await expect(checkApp({ ...registry, modules: [...defaultModules(), ...throwawayApp.modules] })).resolves.toMatchObject({ entities: throwawayEntities.length })
  })
})

/**
 * What a workflow's transition stamps (`stamp`) and the lookup it keeps pointing at the status's
 * row (`lookup`) are the server's alone: the check refuses either on a field a client may write,
 * or of the wrong kind.
 */
describe('the registry check of what a workflow sets', () => {
  const stage = defineEntity({ name: 'parcel_stage', module: 'test', listKey: 'parcel_stages', route: { area: 'parcelStage-management', list: 'parcelStages' }, fields: { name: f.text({ max: 30, required: true, search: true, unique: true }) } })
  const parcel = (fields: Record<string, unknown>, workflow: Record<string, unknown>) =>
    defineEntity({
      name: 'broken_parcel', module: 'test', listKey: 'broken_parcels', route: { area: 'brokenParcel-management', list: 'brokenParcels' },
      fields: { name: f.text({ max: 30, required: true, search: true }), status: f.choice(['draft', 'shipped', 'delivered']), ...fields },
      workflow: { field: 'status', initial: 'draft', editableIn: ['draft'], transitions: { ship: { from: ['draft'], to: 'shipped' }, deliver: { from: ['shipped'], to: 'delivered' } }, ...workflow },
    } as never)
  const problemsOf = (e: ReturnType<typeof parcel>) =>
    checkRegistry([...entities, stage, e]).filter((p) => p.entity === 'broken_parcel' && !p.message.includes('translation')).map((p) => [p.field, p.message])
  const transitions = (stamps: { ship?: string; deliver?: string }) => ({
    transitions: { ship: { from: ['draft'], to: 'shipped', stamp: stamps.ship }, deliver: { from: ['shipped'], to: 'delivered', stamp: stamps.deliver } },
  })
  const stampProblem = (t: string, field: string) => [field, `transition '${t}' stamps '${field}', which must be a read-only date-time field of the entity's own (f.datetime({ readOnly: true }))`]
  const lookupProblem = (field: string) => [field, `the workflow's lookup '${field}' must be a read-only reference of the entity's own (f.ref('<lookup>', { readOnly: true }))`]

  it('passes a read-only date-time stamped and a read-only reference to the lookup', () => {
    const fine = parcel({ delivered_at: f.datetime({ readOnly: true }), stage: f.ref('parcel_stage', { readOnly: true }) }, { ...transitions({ deliver: 'delivered_at' }), lookup: { field: 'stage', names: { draft: 'pending' } } })
    expect(problemsOf(fine)).toEqual([])
  })

  it('refuses a stamp on a field a client writes, on a field that is not a date-time, and on no field at all', () => {
    const broken = parcel({ shipped_at: f.datetime(), delivered_at: f.text({ max: 30, readOnly: true }) }, transitions({ ship: 'shipped_at', deliver: 'delivered_at' }))
    expect(problemsOf(broken)).toEqual([stampProblem('ship', 'shipped_at'), stampProblem('deliver', 'delivered_at')])
    expect(problemsOf(parcel({}, transitions({ deliver: 'nowhere_at' })))).toEqual([stampProblem('deliver', 'nowhere_at')])
    // Worked out by a compute, it is not the transition's to set.
    expect(problemsOf(parcel({ delivered_at: f.datetime({ readOnly: true, compute: () => null }) }, transitions({ deliver: 'delivered_at' })))).toEqual([stampProblem('deliver', 'delivered_at')])
  })

  it('refuses a lookup that is not a read-only reference', () => {
    expect(problemsOf(parcel({ stage: f.ref('parcel_stage') }, { lookup: { field: 'stage' } }))).toEqual([lookupProblem('stage')])
    expect(problemsOf(parcel({ stage: f.text({ max: 30, readOnly: true }) }, { lookup: { field: 'stage' } }))).toEqual([lookupProblem('stage')])
    expect(problemsOf(parcel({}, { lookup: { field: 'stage' } }))).toEqual([lookupProblem('stage')])
  })
})
