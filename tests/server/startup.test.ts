import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { entities, reports } from '../../schema'
import { defineEntity, f } from '../../schema/kit'
import { loadConfig } from '../../server/config'
import { start } from '../../server/start'

/** The start-up sequence (server/start.ts): a broken registry stops it before anything is touched. */
const dirs: string[] = []
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

describe('start-up', () => {
  it('names every problem of the registry and stops before it opens, locks or migrates the database', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'startup-'))
    dirs.push(dataDir)
    // An entity without its labels, pointing at an entity nobody registered.
    const broken = defineEntity({
      name: 'unlabelled_thing',
      module: 'test',
      listKey: 'unlabelled_things',
      route: { area: 'thing-management', list: 'things' },
      fields: { name: f.text({ max: 20, required: true, search: true }), owner: f.ref('nobody') },
    })
    const config = loadConfig({ DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1' })
    const failure = start(config, { entities: [...entities, broken], reports })
    await expect(failure).rejects.toThrow(/entity\.unlabelled_thing\.one/)
    await expect(failure).rejects.toThrow(/nobody/)
    await expect(failure).rejects.toMatchObject({ name: 'RegistryError' })
    expect(existsSync(join(dataDir, 'pglite'))).toBe(false)
    expect(readdirSync(dataDir)).toEqual([])
  })
})
