import { sql } from 'kysely'
import { beforeAll, describe, expect, it } from 'vitest'
import { storageOf } from '../../../schema/kit'
import type { TestApp } from './app'
import { badCases, countRows, createReferences, createRow, holdingRules, labelOf, messagePattern, sampleInput, type AnyEntity, type RefIds } from './samples'

/**
 * Bad input for every field of one entity, generated from the field's kind: a 400 whose
 * field map names exactly that field with a message, never a 500, and no partial write.
 */
export function validationSuite(t: { readonly current: TestApp }, entity: AnyEntity, all: readonly AnyEntity[]): void {
  const base = entity.api.base
  // The generic writes only: a module that serves create/ or update/ itself tests its own input.
  const methods = (['POST', 'PUT'] as const).filter((m) => entity.routes[m === 'POST' ? 'create' : 'update'] === 'generic')
  if (methods.length === 0) return

  describe(entity.name, () => {
    let refIds: RefIds
    let existing: Record<string, unknown>
    beforeAll(async () => {
      refIds = await createReferences(t.current, entity, all)
      existing = await createRow(t.current, entity, sampleInput(entity, refIds))
    })

    /** Sends the request and checks that nothing was written, whatever the answer. */
    async function refused(method: 'POST' | 'PUT', payload: unknown, isRawJson = false) {
      const rows = await countRows(t.current, entity.name)
      const audits = await countRows(t.current, 'audit_log')
      const url = method === 'POST' ? `${base}/create/` : `${base}/update/${existing.id}`
      const headers = isRawJson ? { 'content-type': 'application/json' } : {}
      const res = await t.current.call({ method, url, payload: payload as object, headers })
      expect(await countRows(t.current, entity.name)).toBe(rows)
      expect(await countRows(t.current, 'audit_log')).toBe(audits)
      const stored = await t.current.call({ method: 'GET', url: `${base}/${existing.id}` })
      expect(stored.body).toEqual(existing)
      return res
    }

    // A read-only field is set by the server: what a client sends for it is ignored, not judged.
    for (const name of entity.fieldNames.filter((n) => !entity.fields[n]!.isReadOnly)) {
      const field = entity.fields[name]!
      for (const bad of badCases(field)) {
        it(`rejects ${name} (${field.kind}) given ${bad.why}: 400 naming only ${name}, nothing written`, async () => {
          for (const method of methods) {
            const payload = method === 'POST' ? holdingRules(entity, { ...sampleInput(entity, refIds), [name]: bad.value }, name) : holdingRules(entity, { [name]: bad.value }, name, existing)
            const res = await refused(method, payload)
            expect(res.status, `${method} ${res.raw}`).toBe(400)
            expect(Object.keys(res.body)).toEqual([name])
            expect(res.body[name]).toHaveLength(1)
            expect(res.body[name][0]).toMatch(messagePattern(bad.key, 'en', { label: labelOf(entity, name), ...bad.params }))
          }
        })
      }

      if (field.isRequired && methods.includes('POST')) {
        it(`requires ${name}: missing, null or blank gives "${labelOf(entity, name)} is required"`, async () => {
          const { [name]: _omitted, ...withoutIt } = sampleInput(entity, refIds)
          for (const payload of [withoutIt, { ...withoutIt, [name]: null }, { ...withoutIt, [name]: '   ' }]) {
            const res = await refused('POST', payload)
            expect(res.status).toBe(400)
            expect(res.body).toEqual({ [name]: [`${labelOf(entity, name)} is required`] })
          }
          if (!methods.includes('PUT') || field.isWriteOnly) return
          const cleared = await refused('PUT', { [name]: '' })
          expect(cleared.status).toBe(400)
          expect(cleared.body).toEqual({ [name]: [`${labelOf(entity, name)} is required`] })
        })
      }

      if (field.isWriteOnly && !field.isTransient && methods.includes('PUT')) {
        it(`keeps the stored ${name} when an update sends it blank or not at all`, async () => {
          const row = await createRow(t.current, entity, sampleInput(entity, refIds))
          const stored = async () => (await sql<Record<string, unknown>>`select ${sql.id(name)} as v from ${sql.id(storageOf(entity, name).name)} where id = ${row.id as number}`.execute(t.current.db)).rows[0]!.v
          const hash = await stored()
          expect(hash).toMatch(/^\$argon2id\$/)
          for (const payload of [{ [name]: '' }, { [name]: null }, {}]) {
            const res = await t.current.call({ method: 'PUT', url: `${base}/update/${row.id}`, payload })
            expect(res.status, JSON.stringify(payload)).toBe(200)
            expect(res.body).not.toHaveProperty(name)
          }
          expect(await stored()).toBe(hash)
        })
      }
    }

    if (methods.includes('POST')) it('names every required field at once for an empty body', async () => {
      // A document that needs lines names its lines field too.
      const required = entity.fieldNames.filter((n) => entity.fields[n]!.isRequired || (entity.fields[n]!.lines?.min ?? 0) > 0)
      // A rule of the entity's own that refuses an empty record (the slider: a slide with nothing
      // in it; a group with no head) names its field too: its fields, all optional, are valid.
      const refusing = [...new Set(entity.rules.filter((r) => (r.fields ?? []).every((f) => !required.includes(f)) && !r.check({}, { mode: 'create', input: {} })).map((r) => r.field))]
      if (required.length === 0) {
        if (refusing.length === 0) {
          expect((await t.current.call({ method: 'POST', url: `${base}/create/`, payload: {} })).status).toBe(201)
          return
        }
        const res = await refused('POST', {})
        expect(res.status).toBe(400)
        expect(Object.keys(res.body).sort()).toEqual(refusing.sort())
        return
      }
      const res = await refused('POST', {})
      expect(res.status).toBe(400)
      expect(Object.keys(res.body).sort()).toEqual([...new Set([...required, ...refusing])].sort())
    })

    if (methods.includes('POST')) it('answers malformed JSON with 400 {detail}', async () => {
      const rows = await countRows(t.current, entity.name)
      for (const raw of ['{"name": ', '{name: 1}', 'null x']) {
        const res = await t.current.call({ method: 'POST', url: `${base}/create/`, payload: raw, headers: { 'content-type': 'application/json' } })
        expect(res.status, raw).toBe(400)
        expect(res.body).toEqual({ detail: expect.any(String) })
      }
      expect(await countRows(t.current, entity.name)).toBe(rows)
    })

    it('answers a malformed multipart body with 400 {detail}, writing nothing', async () => {
      const bodies = [
        { payload: 'garbage', type: 'multipart/form-data' },
        { payload: '--xx\r\nContent-Disposition: form-data; name="name"\r\n\r\nabc', type: 'multipart/form-data; boundary=xx' },
      ]
      for (const { payload, type } of bodies) {
        for (const method of methods) {
          const rows = await countRows(t.current, entity.name)
          const url = method === 'POST' ? `${base}/create/` : `${base}/update/${existing.id}`
          const res = await t.current.call({ method, url, payload, headers: { 'content-type': type } })
          expect(res.status, `${method} ${type} ${res.raw}`).toBe(400)
          expect(res.body).toEqual({ detail: expect.any(String) })
          expect(await countRows(t.current, entity.name)).toBe(rows)
        }
      }
    })

    it('answers a body that is not an object (array, string, number) with 400 {detail}', async () => {
      for (const payload of [[sampleInput(entity, refIds)], 'text', 42]) {
        for (const method of methods) {
          const res = await refused(method, JSON.stringify(payload), true)
          expect(res.status, `${method} ${JSON.stringify(payload)}`).toBe(400)
          expect(res.body).toEqual({ detail: expect.any(String) })
        }
      }
    })
  })
}
