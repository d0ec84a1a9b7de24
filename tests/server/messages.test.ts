import { expect, it } from 'vitest'
import { describeEachDatabase } from './helpers/app'

/**
 * The server's own words (issue 8): every `detail` a person may read comes in the request's
 * language (Accept-Language) and names things as the screens do; in English the contract's
 * exact sentences stay, as the original client and its users know them.
 */
const THANA = '/thana/api/v1/thana'
const lang = (language: string) => ({ 'accept-language': language })

describeEachDatabase('server messages', (t) => {
  it('says a record does not exist in the contract’s English, and in Turkish and Arabic with the screens’ names', async () => {
    const en = await t.current.call({ method: 'GET', url: `${THANA}/999999`, headers: lang('en') })
    expect(en.body).toEqual({ detail: "Thana id - 999999 doesn't exists" })
    const tr = await t.current.call({ method: 'GET', url: `${THANA}/999999`, headers: lang('tr-TR,tr;q=0.9') })
    expect(tr.body).toEqual({ detail: '999999 numaralı Karakol bulunamadı.' })
    const ar = await t.current.call({ method: 'GET', url: `${THANA}/999999`, headers: lang('ar') })
    expect(ar.body).toEqual({ detail: 'لا يوجد مركز شرطة بالرقم 999999.' })
  })

  it('asks for credentials and names missing permissions in the request’s language', async () => {
    const anonymous = await t.current.call({ method: 'GET', url: `${THANA}/all/`, headers: lang('ar'), asAnonymous: true })
    expect(anonymous.status).toBe(401)
    expect(anonymous.body).toEqual({ detail: 'لم تُرسل بيانات الدخول: يرجى تسجيل الدخول.' })
    const english = await t.current.call({ method: 'GET', url: `${THANA}/all/`, asAnonymous: true })
    expect(english.body).toEqual({ detail: 'Authentication credentials were not provided.' })
    const login = await t.current.call({ method: 'POST', url: '/user/api/v1/user/login/', payload: { email: 'nobody@example.com', password: 'wrong-password' }, headers: lang('tr'), asAnonymous: true })
    expect(login.status).toBe(401)
    expect(login.body.detail).toBe('Bu bilgilerle etkin bir hesap bulunamadı.')
  })

  it('answers malformed bodies and unknown API paths in the request’s language', async () => {
    const malformed = await t.current.call({ method: 'POST', url: `${THANA}/create/`, payload: '{"name": ', headers: { ...lang('tr'), 'content-type': 'application/json' } })
    expect(malformed.status).toBe(400)
    expect(malformed.body.detail).toMatch(/^Hatalı istek: /)
    const unknown = await t.current.call({ method: 'GET', url: '/api/no-such-thing', headers: lang('ar') })
    expect(unknown.status).toBe(404)
    expect(unknown.body).toEqual({ detail: 'غير موجود.' })
  })

  it('keeps the contract’s sentences for the role menus and the user checks in English, and translates them otherwise', async () => {
    const missing = await t.current.call({ method: 'GET', url: '/user/api/v1/user/check_username_when_create/', headers: lang('en') })
    expect(missing.body).toEqual({ detail: "Username can't be null." })
    const translated = await t.current.call({ method: 'GET', url: '/user/api/v1/user/check_username_when_create/', headers: lang('tr') })
    expect(translated.body.detail).toMatch(/ boş olamaz\.$/)
    const noRole = await t.current.call({ method: 'DELETE', url: '/role_menu/api/v1/role_menu/delete/999999', headers: lang('en') })
    expect(noRole.body).toEqual({ detail: "Role id - 999999 doesn't exists" })
  })
})
