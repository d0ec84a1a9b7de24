import { describe, expect, it } from 'vitest'
import { checkRegistry, entities } from '../../schema'
import { defineEntity, f } from '../../schema/kit'
import { shelf } from '../support/throwaway-registry'
import { describeEachDatabase, type TestApp } from './helpers/app'
import { countRows } from './helpers/samples'
import { throwawayApp, useThrowawayLabels } from './helpers/throwaway-module'

/**
 * Trees as a reference option (issue 18 §6): an entity referring to itself keeps a tree the
 * engine guards — no row under itself or its own descendants, and with `maxDepth` no level
 * past it, for a new row, a moved one and a moved one's descendants — in the registry's words
 * unless the field names its own (the categories', the menus', the groups').
 */
const BASE = shelf.api.base

useThrowawayLabels()

async function shelfOf(t: TestApp, name: string, parent: number | null = null): Promise<number> {
  const r = await t.call({ method: 'POST', url: `${BASE}/create/`, payload: { name, parent } })
  expect(r.status, r.raw).toBe(201)
  return Number(r.body.id)
}

describe('trees in the registry', () => {
  it('are refused by the start-up check when maxDepth is not on a reference to the entity itself, or is no number of levels', () => {
    const broken = defineEntity({
      name: 'broken_tree', module: 'test', listKey: 'broken_trees', route: { area: 'brokenTree-management', list: 'brokenTrees' },
      fields: { name: f.text({ required: true, search: true }), city: f.ref('city', { maxDepth: 2 }), parent: f.ref('broken_tree', { maxDepth: 0 }) },
    })
    expect(checkRegistry([...entities, broken]).filter((p) => p.entity === 'broken_tree' && !p.message.includes('translation')).map((p) => `${p.field}: ${p.message}`)).toEqual([
      "city: maxDepth is for a reference of 'broken_tree' to itself (a tree)",
      'parent: maxDepth must be a whole number of levels, 1 or more',
    ])
  })
})

describeEachDatabase(
  'trees kept by a self-reference',
  (t) => {
    it('refuses a row placed under itself or one of its descendants, naming the entity in the caller’s language, and keeps the tree', async () => {
      const top = await shelfOf(t.current, 'Top')
      const below = await shelfOf(t.current, 'Below', top)
      for (const parent of [top, below]) {
        const r = await t.current.call({ method: 'PATCH', url: `${BASE}/update/${top}`, payload: { parent } })
        expect(r.status, r.raw).toBe(400)
        expect(r.body).toEqual({ parent: ['A Shelf cannot be placed under itself or under one of its own descendants.'] })
      }
      const tr = await t.current.call({ method: 'PATCH', url: `${BASE}/update/${top}`, payload: { parent: below }, headers: { 'accept-language': 'tr' } })
      expect(tr.body.parent[0]).toMatch(/^Shelf kaydı kendisinin/)
      expect((await t.current.call({ method: 'GET', url: `${BASE}/${top}` })).body.parent).toBeNull()
      // Unchanged, the parent is not judged again; a new root is fine.
      expect((await t.current.call({ method: 'PATCH', url: `${BASE}/update/${below}`, payload: { name: 'Still below', parent: top } })).status).toBe(200)
      expect((await t.current.call({ method: 'PATCH', url: `${BASE}/update/${below}`, payload: { parent: null } })).status).toBe(200)
    })

    it('keeps maxDepth levels: a new row and a moved one past it are refused, as is a move pushing the moved row’s descendants past it', async () => {
      const top = await shelfOf(t.current, 'Top')
      const leaf = await shelfOf(t.current, 'Leaf', top)
      const before = await countRows(t.current, 'shelf')
      const deeper = await t.current.call({ method: 'POST', url: `${BASE}/create/`, payload: { name: 'Third', parent: leaf } })
      expect(deeper.status).toBe(400)
      expect(deeper.body).toEqual({ parent: ['Parent: at most 2 levels deep, and the chosen one is already on the last level.'] })
      expect(await countRows(t.current, 'shelf')).toBe(before)
      const loose = await shelfOf(t.current, 'Loose')
      expect((await t.current.call({ method: 'PATCH', url: `${BASE}/update/${loose}`, payload: { parent: leaf } })).body).toEqual(deeper.body)
      // A root with a child cannot go under another root: its child would be a third level.
      const other = await shelfOf(t.current, 'Other')
      await shelfOf(t.current, 'Child of other', other)
      const pushed = await t.current.call({ method: 'PATCH', url: `${BASE}/update/${other}`, payload: { parent: top }, headers: { 'accept-language': 'ar' } })
      expect(pushed.status).toBe(400)
      expect(pushed.body.parent[0]).toContain('مستويات على الأكثر')
      expect((await t.current.call({ method: 'GET', url: `${BASE}/${other}` })).body.parent).toBeNull()
      // Without its child it fits.
      expect((await t.current.call({ method: 'PATCH', url: `${BASE}/update/${loose}`, payload: { parent: top } })).status).toBe(200)
    })

    it('lets two moves that would loop together take turns: one of them is refused, neither fails (again and again)', async () => {
      for (let round = 0; round < 10; round++) {
        const a = await shelfOf(t.current, `A${round}`)
        const b = await shelfOf(t.current, `B${round}`)
        const replies = await Promise.all([
          t.current.call({ method: 'PATCH', url: `${BASE}/update/${a}`, payload: { parent: b } }),
          t.current.call({ method: 'PATCH', url: `${BASE}/update/${b}`, payload: { parent: a } }),
        ])
        expect(replies.map((r) => r.status).sort(), replies.map((r) => r.raw).join(' | ')).toEqual([200, 400])
      }
    })
  },
  throwawayApp,
)
