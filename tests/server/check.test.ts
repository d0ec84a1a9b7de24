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
