import { describe, expect, it } from 'vitest'
import { entities } from '../../../schema'
import { defineEntity, f } from '../../../schema/kit'
import { ConfigError, loadConfig } from '../../../server/config'
import { publicReadRefusal, withPublicRead } from '../../../server/engine/access'
import { actionConfig } from '../../../server/engine/routes'

/**
 * `PUBLIC_READ` (issue 9): reference entities whose reads answer without a token, for the
 * original admin client's lookups and searches — checked at start, never people's data.
 */
describe('PUBLIC_READ', () => {
  it('is read as a comma-separated list of entity names, empty by default', () => {
    expect(loadConfig({}).PUBLIC_READ).toEqual([])
    expect(loadConfig({ PUBLIC_READ: 'city, thana,country,' }).PUBLIC_READ).toEqual(['city', 'thana', 'country'])
  })

  it.each([
    ['user', "PUBLIC_READ: 'user' holds personal data (user accounts)"],
    ['employee', "PUBLIC_READ: 'employee' holds personal data (user accounts)"],
    ['qualification', "PUBLIC_READ: 'qualification' holds personal data (its field 'employee_id')"],
    ['general_setting', "PUBLIC_READ: 'general_setting' holds personal data (its field 'email')"],
    // Anyone reading the outbox would read the reset links in it and take any account over.
    ['outbox_message', "PUBLIC_READ: 'outbox_message' holds personal data (its field 'recipient')"],
    ['journal', "PUBLIC_READ: 'journal' holds the business's confidential records"],
    ['account_log', "PUBLIC_READ: 'account_log' holds the business's confidential records"],
    ['ledger_account', "PUBLIC_READ: 'ledger_account' holds the business's confidential records"],
    // A donation seen from its cause names its donor (issue 20): a member, or a person's e-mail.
    ['cause_donation', "PUBLIC_READ: 'cause_donation' holds personal data (its field 'donor')"],
    ['role_menu', "PUBLIC_READ: 'role_menu' is an access entity; of those only role, permission, menu_item may be opened"],
    ['cites', "PUBLIC_READ: 'cites' is not an entity (known: country, city"],
    ['role_menu_item', "PUBLIC_READ: 'role_menu_item' is not an entity"],
  ])('stops the start when it names %s', (name, message) => {
    expect(() => loadConfig({ PUBLIC_READ: `city,${name}` })).toThrow(ConfigError)
    expect(() => loadConfig({ PUBLIC_READ: `city,${name}` })).toThrow(message)
  })

  it('names every refused entity at once', () => {
    expect(() => loadConfig({ PUBLIC_READ: 'user,nowhere' })).toThrow(/PUBLIC_READ: 'user'[^\n]*\n {2}- PUBLIC_READ: 'nowhere'/)
  })

  it('accepts the reference entities the original client loads as lookups', () => {
    const names = ['branch', 'thana', 'city', 'country', 'role', 'department', 'permission', 'menu_item']
    expect(loadConfig({ PUBLIC_READ: names.join(',') }).PUBLIC_READ).toEqual(names)
    for (const name of names) expect(publicReadRefusal(entities, name), name).toBeNull()
  })

  it('decides by what the registry says of an entity, not by its name', () => {
    const remark = (fields: Parameters<typeof defineEntity>[0]['fields'], confidential?: boolean) =>
      defineEntity({ name: 'remark', module: 'test', listKey: 'remarks', route: { area: 'remark-management', list: 'remarks' }, fields, confidential })
    expect(publicReadRefusal([...entities, remark({ title: f.text() })], 'remark')).toBeNull()
    expect(publicReadRefusal([...entities, remark({ title: f.text(), token: f.text({ personal: true }) })], 'remark')).toBe("'remark' holds personal data (its field 'token') and is never opened to anonymous reads")
    expect(publicReadRefusal([...entities, remark({ title: f.text(), contact: f.email() })], 'remark')).toMatch(/its field 'contact'/)
    expect(publicReadRefusal([...entities, remark({ title: f.text() }, true)], 'remark')).toMatch(/confidential records/)
  })

  it('refuses an entity with a row scope: an anonymous reader would pass it by', () => {
    const memo = defineEntity({ name: 'memo', module: 'test', listKey: 'memos', route: { area: 'memo-management', list: 'memos' }, fields: { name: f.text() }, scope: (caller) => (caller.isAdmin ? null : { created_by: caller.id }) })
    expect(publicReadRefusal([...entities, memo], 'memo')).toMatch(/row scope/)
  })

  it('opens the named entities’ list, search and get routes to anonymous callers and nothing else', () => {
    const opened = withPublicRead(entities, ['city', 'menu_item'])
    const city = opened.find((e) => e.name === 'city')!
    expect(city.publicActions).toEqual(['LIST', 'DETAILS'])
    expect(actionConfig(city, 'LIST')).toMatchObject({ isPublic: true })
    expect(actionConfig(city, 'DETAILS', true)).toMatchObject({ isPublic: true })
    for (const write of ['CREATE', 'UPDATE', 'DELETE'] as const) expect(actionConfig(city, write, true).isPublic, write).toBeUndefined()
    // Every other entity is the registry's own, unchanged.
    for (const e of opened.filter((x) => x.name !== 'city' && x.name !== 'menu_item')) expect(e).toBe(entities.find((x) => x.name === e.name))
    // A site setting list stays public as the registry says, and gains nothing.
    expect(opened.find((e) => e.name === 'general_setting')!.publicActions).toEqual(['LIST'])
    expect(withPublicRead(entities, [])).toBe(entities)
    expect(() => withPublicRead(entities, ['user'])).toThrow(/PUBLIC_READ: 'user' holds personal data/)
  })
})
