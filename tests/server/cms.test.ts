import { expect, it } from 'vitest'
import { entities, registry } from '../../schema'
import { BLOG_CATEGORY_CONTRACT_BASE } from '../../server/domain/cms/blog-routes'
import { withPublicRead } from '../../server/engine/access'
import { describeEachDatabase, type TestApp } from './helpers/app'
import { tinyPng } from './helpers/images'
import { multipart } from './helpers/multipart'
import { countRows, translate } from './helpers/samples'

/**
 * Content (issue 12, api-contract §4.4): the routes and list keys of the CMS, the menu tree
 * (nested, never a cycle), what the site reads of a menu (contents by name, pictures by
 * heading), slugs made from titles (`-2`, `-3`… on a clash), and pictures for a post's body.
 * Generic routes, validation, paging and permissions of each entity are the registry suites'.
 */
const MENU = registry.cms_menu.api.base
const CONTENT = registry.cms_menu_content.api.base
const IMAGE = registry.cms_menu_content_image.api.base
const ITINERARY = registry.cms_itinerary.api.base
const META = registry.cms_meta_data.api.base
const BLOG = registry.cms_blog.api.base

let sequence = 0
const unique = (prefix: string) => `${prefix} ${++sequence}`
/** Positions no other test of the file takes. */
let positions = 1000
const nextPosition = () => ++positions

async function create(t: TestApp, base: string, payload: Record<string, unknown>): Promise<Record<string, any>> {
  const res = await t.call({ method: 'POST', url: `${base}/create/`, payload })
  expect(res.status, res.raw).toBe(201)
  return res.body
}

const createMenu = (t: TestApp, name: string, parent: number | null = null, position: number | null = nextPosition()) => create(t, MENU, { name, parent, position })

/** A stored picture's URL, as the picture field of a content image holds it. */
async function createImage(t: TestApp, menu: number, head: string): Promise<string> {
  const body = multipart({ cms_menu: String(menu), head }, [{ name: 'image', filename: 'photo.png', type: 'image/png', data: tinyPng() }])
  const res = await t.call({ method: 'POST', url: `${IMAGE}/create/`, payload: body.payload, headers: body.headers })
  expect(res.status, res.raw).toBe(201)
  return res.body.image as string
}

const SVG = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>')
const HTML = Buffer.from('<!doctype html><html><body><script>alert(1)</script></body></html>')

describeEachDatabase('cms', (t) => {
  it('answers every list under the contract’s key (menus, content_images, itineraries, meta_data, blog_categories, blogs)', async () => {
    // Menu contents and tours' stops also answer `all/` under the contract's `menu_items` (the navigation's menu items hold that key in the registry).
    const keys: Array<[string, string, string?]> = [
      [MENU, 'menus'],
      [CONTENT, 'cms_menu_contents', 'menu_items'],
      [IMAGE, 'content_images'],
      [ITINERARY, 'itineraries', 'menu_items'],
      [META, 'meta_data'],
      [registry.cms_blog_category.api.base, 'blog_categories'],
      [BLOG, 'blogs'],
    ]
    const menu = await createMenu(t.current, unique('Listed'))
    await create(t.current, CONTENT, { cms_menu: menu.id, name: unique('Listed content') })
    for (const [base, key, second] of keys) {
      const page = await t.current.call({ method: 'GET', url: `${base}/all/?size=5` })
      expect(page.status, base).toBe(200)
      expect(Object.keys(page.body).sort(), base).toEqual([key, ...(second ? [second] : []), 'page', 'size', 'total_elements', 'total_pages'].sort())
      expect(page.body.size, base).toBe(5)
      if (second) expect(page.body[second], base).toEqual(page.body[key])
      const all = await t.current.call({ method: 'GET', url: `${base}/without_pagination/all/` })
      expect(Object.keys(all.body), base).toEqual([key, ...(second ? [second] : [])])
    }
    expect((await t.current.call({ method: 'GET', url: `${CONTENT}/all/` })).body.menu_items.length).toBeGreaterThan(0)
  })

  it('nests the menus: roots by position, each {id, name, parent, children, position}, sub menus by position', async () => {
    const second = await createMenu(t.current, unique('Tours'), null, 3)
    const first = await createMenu(t.current, unique('Home'), null, 2)
    const late = await createMenu(t.current, unique('Day trips'), second.id, 20)
    const early = await createMenu(t.current, unique('Sylhet'), second.id, 10)
    const leaf = await createMenu(t.current, unique('Tea gardens'), early.id, 30)
    const res = await t.current.call({ method: 'GET', url: `${MENU}/get_all_nested_cms_menu/` })
    expect(res.status, res.raw).toBe(200)
    expect(Object.keys(res.body)).toEqual(['menus'])
    const roots = res.body.menus as Array<Record<string, any>>
    const ids = roots.map((m) => m.id)
    expect(ids.indexOf(first.id)).toBeLessThan(ids.indexOf(second.id))
    expect(roots.every((m) => m.parent === null)).toBe(true)
    const tours = roots.find((m) => m.id === second.id)!
    expect(tours).toEqual({
      id: second.id,
      name: second.name,
      parent: null,
      position: 3,
      children: [
        { id: early.id, name: early.name, parent: second.id, position: 10, children: [{ id: leaf.id, name: leaf.name, parent: early.id, position: 30, children: [] }] },
        { id: late.id, name: late.name, parent: second.id, position: 20, children: [] },
      ],
    })
    // A sub menu is in the tree once, under its parent.
    expect(ids).not.toContain(early.id)
  })

  it('keeps positions unique: a second menu at a taken position is refused on position and nothing is written', async () => {
    const position = nextPosition()
    await createMenu(t.current, unique('Taken'), null, position)
    const before = await countRows(t.current, 'cms_menu')
    const res = await t.current.call({ method: 'POST', url: `${MENU}/create/`, payload: { name: unique('Again'), position } })
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ position: ['Cms Menu with this Position already exists.'] })
    expect(await countRows(t.current, 'cms_menu')).toBe(before)
    // Menus without a position are many.
    await createMenu(t.current, unique('Loose'), null, null)
    await createMenu(t.current, unique('Loose'), null, null)
  })

  it('refuses a menu under itself or under one of its own sub menus (400 on parent, in each language) and keeps the tree', async () => {
    const top = await createMenu(t.current, unique('Top'))
    const middle = await createMenu(t.current, unique('Middle'), top.id)
    const bottom = await createMenu(t.current, unique('Bottom'), middle.id)
    for (const parent of [top.id, middle.id, bottom.id]) {
      const res = await t.current.call({ method: 'PATCH', url: `${MENU}/update/${top.id}`, payload: { parent } })
      expect(res.status, res.raw).toBe(400)
      expect(res.body).toEqual({ parent: ['A menu cannot be placed under itself or under one of its own sub menus.'] })
    }
    for (const lang of ['tr', 'ar'] as const) {
      const res = await t.current.call({ method: 'PUT', url: `${MENU}/update/${middle.id}`, payload: { parent: bottom.id }, headers: { 'accept-language': lang } })
      expect(res.body).toEqual({ parent: [translate(lang, 'validation.cms_menu_cycle')] })
    }
    expect((await t.current.call({ method: 'GET', url: `${MENU}/${top.id}` })).body.parent).toBeNull()
    expect((await t.current.call({ method: 'GET', url: `${MENU}/${middle.id}` })).body.parent).toBe(top.id)
    // Moving a branch elsewhere is fine; so is making a sub menu a root again.
    const other = await createMenu(t.current, unique('Other'))
    expect((await t.current.call({ method: 'PATCH', url: `${MENU}/update/${middle.id}`, payload: { parent: other.id } })).status).toBe(200)
    expect((await t.current.call({ method: 'PATCH', url: `${MENU}/update/${bottom.id}`, payload: { parent: null } })).status).toBe(200)
    // A menu with sub menus cannot be deleted (the contract's protect).
    const refused = await t.current.call({ method: 'DELETE', url: `${MENU}/delete/${other.id}` })
    expect(refused.status).toBe(409)
  })

  it("answers one menu's contents by name and pictures by heading (one picture as its URL, several as a list); an unknown menu is a 404", async () => {
    const menu = await createMenu(t.current, unique('About'))
    const elsewhere = await createMenu(t.current, unique('Elsewhere'))
    await create(t.current, CONTENT, { cms_menu: menu.id, name: 'title', value: '<p>Who we are</p>', position: 1 })
    await create(t.current, CONTENT, { cms_menu: menu.id, name: 'subtitle', value: 'Since 1999', position: 2 })
    await create(t.current, CONTENT, { cms_menu: elsewhere.id, name: 'title', value: 'Not this one' })
    const hero = await createImage(t.current, menu.id, 'hero')
    const galleryA = await createImage(t.current, menu.id, 'gallery')
    const galleryB = await createImage(t.current, menu.id, 'gallery')
    await createImage(t.current, elsewhere.id, 'hero')

    const res = await t.current.call({ method: 'GET', url: `${MENU}/get_all_menu_content_and_image_by_cms_menu_id/${menu.id}` })
    expect(res.status, res.raw).toBe(200)
    expect(res.body).toEqual({
      menu_contents: { title: '<p>Who we are</p>', subtitle: 'Since 1999' },
      content_images: { hero, gallery: [galleryA, galleryB] },
    })
    const empty = await createMenu(t.current, unique('Empty'))
    expect((await t.current.call({ method: 'GET', url: `${MENU}/get_all_menu_content_and_image_by_cms_menu_id/${empty.id}` })).body).toEqual({ menu_contents: {}, content_images: {} })
    const missing = await t.current.call({ method: 'GET', url: `${MENU}/get_all_menu_content_and_image_by_cms_menu_id/999999999` })
    expect(missing.status).toBe(404)
    expect(missing.body).toEqual({ detail: "CMSMenu id - 999999999 doesn't exists" })
  })

  it("lists a menu's contents by position at the contract's two paths, under menu_items and the registry's key", async () => {
    const menu = await createMenu(t.current, unique('Packages'))
    const b = await create(t.current, CONTENT, { cms_menu: menu.id, name: unique('Second'), position: 2 })
    const a = await create(t.current, CONTENT, { cms_menu: menu.id, name: unique('First'), position: 1 })
    for (const url of [`/cms_menu_content/api/v1/get_all_cms_menu_content_by_cms_menu_id/${menu.id}`, `${CONTENT}/get_cms_menu_content_by_cms_menu_id/${menu.id}`]) {
      const res = await t.current.call({ method: 'GET', url })
      expect(res.status, res.raw).toBe(200)
      expect(Object.keys(res.body).sort(), url).toEqual(['cms_menu_contents', 'menu_items'])
      expect(res.body.menu_items.map((r: { id: number }) => r.id), url).toEqual([a.id, b.id])
      expect(res.body.menu_items[0].cms_menu, url).toEqual({ id: menu.id, name: menu.name })
      expect(res.body.cms_menu_contents).toEqual(res.body.menu_items)
    }
    expect((await t.current.call({ method: 'GET', url: `${CONTENT}/get_cms_menu_content_by_cms_menu_id/abc` })).status).toBe(404)
  })

  it("answers a menu's pictures as rows, grouped by heading, by the menu's name, and with its contents", async () => {
    const menu = await createMenu(t.current, unique('Gallery Menu'))
    const content = await create(t.current, CONTENT, { cms_menu: menu.id, name: unique('Intro') })
    const one = await createImage(t.current, menu.id, 'banner')
    const two = await createImage(t.current, menu.id, 'slides')
    const three = await createImage(t.current, menu.id, 'slides')
    const prefix = '/cms_menu_content_image/api/v1'

    const rows = await t.current.call({ method: 'GET', url: `${prefix}/get_all_cms_menu_content_image_by_cms_menu_id/${menu.id}` })
    expect(rows.status, rows.raw).toBe(200)
    expect(rows.body.content_images.map((r: { image: string }) => r.image)).toEqual([one, two, three])
    expect(rows.body.content_images[0].cms_menu).toEqual({ id: menu.id, name: menu.name })

    const grouped = await t.current.call({ method: 'GET', url: `${prefix}/get_all_cms_menu_content_image_list_by_cms_menu_id/${menu.id}` })
    expect(grouped.body).toEqual({ content_images: { banner: [one], slides: [two, three] } })

    // By a part of the menu's name, ignoring case.
    const byName = await t.current.call({ method: 'GET', url: `${prefix}/get_all_cms_menu_content_image_list_by_menu_name/${encodeURIComponent(menu.name.slice(2).toUpperCase())}` })
    expect(byName.status, byName.raw).toBe(200)
    expect(byName.body).toEqual({ content_images: { banner: [one], slides: [two, three] } })
    const noMenu = await t.current.call({ method: 'GET', url: `${prefix}/get_all_cms_menu_content_image_list_by_menu_name/no-menu-is-called-this` })
    expect(noMenu.status).toBe(404)
    expect(noMenu.body).toEqual({ detail: "No menus found matching 'no-menu-is-called-this'" })

    const both = await t.current.call({ method: 'GET', url: `${prefix}/get_content_and_images_by_menu_id/${menu.id}/` })
    expect(both.status, both.raw).toBe(200)
    expect(both.body.menu_items.map((r: { id: number }) => r.id)).toEqual([content.id])
    expect(both.body.content_images.map((r: { image: string }) => r.image)).toEqual([one, two, three])
  })

  it("lists a tour's stops by its content", async () => {
    const menu = await createMenu(t.current, unique('Tours'))
    const tour = await create(t.current, CONTENT, { cms_menu: menu.id, name: unique('Sundarbans'), type: 'Tours' })
    const other = await create(t.current, CONTENT, { cms_menu: menu.id, name: unique('Cox Bazar'), type: 'Tours' })
    const a = await create(t.current, ITINERARY, { cms_content: tour.id, title: 'Day 1: Khulna', lat: '22.845641', lng: '89.540328' })
    const b = await create(t.current, ITINERARY, { cms_content: tour.id, title: 'Day 2: Mangroves', description: '<p>By <strong>boat</strong></p>' })
    await create(t.current, ITINERARY, { cms_content: other.id, title: 'Day 1: Beach' })
    const res = await t.current.call({ method: 'GET', url: `/cms_itinerary/api/v1/Itinerary/get_Itinerary_by_cms_content_id/${tour.id}` })
    expect(res.status, res.raw).toBe(200)
    expect(res.body.itineraries.map((r: { id: number }) => r.id)).toEqual([a.id, b.id])
    expect(res.body.menu_items).toEqual(res.body.itineraries)
    expect(res.body.itineraries[0]).toMatchObject({ lat: '22.845641', lng: '89.540328', cms_content: { id: tour.id, name: tour.name } })
  })

  it('makes a blank slug from the title, -2, -3… when another row has it, keeps a slug given, and finds meta data by its content’s slug', async () => {
    const title = unique('Summer in Sylhet')
    const base = title.toLowerCase().replace(/ /g, '-')
    const made = []
    for (let i = 0; i < 3; i++) made.push(await create(t.current, META, { meta_title: title, meta_description: 'Tea and hills' }))
    expect(made.map((m) => m.slug)).toEqual([base, `${base}-2`, `${base}-3`])
    // A slug given is the client's choice; a blank one on update is made again (its own row is no clash).
    // The form previews the made slug in the field and sends it: taken as made, it gets its suffix too.
    const previewed = await create(t.current, META, { meta_title: title, slug: base })
    expect(previewed.slug).toBe(`${base}-4`)
    const chosen = await create(t.current, META, { meta_title: title, slug: `${base}-chosen` })
    expect(chosen.slug).toBe(`${base}-chosen`)
    const again = await t.current.call({ method: 'PATCH', url: `${META}/update/${made[0]!.id}`, payload: { slug: '' } })
    expect(again.status, again.raw).toBe(200)
    expect(again.body.slug).toBe(base)
    const renamed = await t.current.call({ method: 'PATCH', url: `${META}/update/${made[1]!.id}`, payload: { meta_title: 'Another title' } })
    expect(renamed.body.slug).toBe(`${base}-2`)
    // A slug given that another row has is refused, as any unique value.
    const taken = await t.current.call({ method: 'POST', url: `${META}/create/`, payload: { meta_title: 'x', slug: base } })
    expect(taken.status).toBe(400)
    expect(taken.body).toEqual({ slug: ['Cms Meta Data with this Slug already exists.'] })

    // The content's slug comes from its name; its meta data is found by it.
    const menu = await createMenu(t.current, unique('Tours'))
    const content = await create(t.current, CONTENT, { cms_menu: menu.id, name: unique('Sajek Valley'), type: 'Tours' })
    expect(content.slug).toBe(String(content.name).toLowerCase().replace(/ /g, '-'))
    expect(content.published).toBe(false)
    const meta = await create(t.current, META, { meta_title: 'Sajek', cms_content: content.id })
    const found = await t.current.call({ method: 'GET', url: `${META}/get_meta_data_by_cms_content_slug/${content.slug}/` })
    expect(found.status, found.raw).toBe(200)
    expect(found.body).toMatchObject({ id: meta.id, meta_title: 'Sajek', cms_content: content.id, _labels: { cms_content: content.name } })
    const unknown = await t.current.call({ method: 'GET', url: `${META}/get_meta_data_by_cms_content_slug/no-such-tour/` })
    expect(unknown.status).toBe(404)
    expect(unknown.body).toEqual({ detail: "No content has the slug 'no-such-tour'." })
    const bare = await create(t.current, CONTENT, { cms_menu: menu.id, name: unique('No meta') })
    const none = await t.current.call({ method: 'GET', url: `${META}/get_meta_data_by_cms_content_slug/${bare.slug}/`, headers: { 'accept-language': 'tr' } })
    expect(none.status).toBe(404)
    expect(none.body.detail).toBe(translate('tr', 'detail.cms_meta_data_not_found').replace('{{slug}}', bare.slug))
  })

  it('makes slugs of Turkish names in plain letters and keeps Arabic letters; a title of symbols leaves the slug blank', async () => {
    const turkish = await create(t.current, META, { meta_title: `Çağrı Şölen İstanbul Gezisi ${++sequence}` })
    expect(turkish.slug).toBe(`cagri-solen-istanbul-gezisi-${sequence}`)
    // The form's preview makes the same (schema/kit/slug.ts): the tatweel goes, the letters and their marks stay.
    const arabic = await create(t.current, META, { meta_title: `رحلـــة إلى إسطنبول ${++sequence}` })
    expect(arabic.slug).toBe(`رحلة-إلى-إسطنبول-${sequence}`)
    const symbols = await create(t.current, META, { meta_title: '!!! ***' })
    expect(symbols.slug).toBeNull()
    // Within the field's length, the suffix included.
    const longest = 'x'.repeat(497) + String(++sequence).padStart(3, '0')
    const first = await create(t.current, BLOG, { title: longest })
    const second = await create(t.current, BLOG, { title: longest })
    expect([first.slug, second.slug]).toEqual([longest, `${longest.slice(0, 498)}-2`])
  })

  it('gives parallel posts of one title distinct slugs', async () => {
    const title = unique('Rainy Season Offers')
    const base = title.toLowerCase().replace(/ /g, '-')
    const results = await Promise.all(Array.from({ length: 5 }, () => t.current.call({ method: 'POST', url: `${BLOG}/create/`, payload: { title } })))
    for (const r of results) expect(r.status, r.raw).toBe(201)
    expect(results.map((r) => r.body.slug).sort()).toEqual([base, `${base}-2`, `${base}-3`, `${base}-4`, `${base}-5`].sort())
    // Flags start unset.
    expect(results[0]!.body).toMatchObject({ is_published: false, is_featured: false })
  })

  it('stores a picture for a post’s body (image_upload/, multipart file) and answers its URL in a list', async () => {
    const body = multipart({}, [{ name: 'file', filename: 'sunset.png', type: 'image/png', data: tinyPng() }])
    const res = await t.current.call({ method: 'POST', url: `${BLOG}/image_upload/`, payload: body.payload, headers: body.headers })
    expect(res.status, res.raw).toBe(200)
    expect(res.body).toEqual([expect.stringMatching(/^\/media\/cms_blog\/[0-9a-f-]+\.png$/)])
    const served = await t.current.app.inject({ method: 'GET', url: res.body[0] })
    expect(served.statusCode).toBe(200)
    expect(served.headers['content-type']).toBe('image/png')
  })

  it('refuses an SVG or a page renamed .png on image_upload/, and answers {error: "No file provided"} without a file', async () => {
    for (const data of [SVG, HTML]) {
      const body = multipart({}, [{ name: 'file', filename: 'photo.png', type: 'image/png', data }])
      const res = await t.current.call({ method: 'POST', url: `${BLOG}/image_upload/`, payload: body.payload, headers: body.headers })
      expect(res.status, res.raw).toBe(400)
      expect(res.body).toEqual({ file: [expect.stringContaining('must be an image')] })
    }
    const noFile = [
      { payload: {}, headers: {} },
      multipart({ note: 'nothing here' }),
      // A path sent as text is no upload.
      multipart({ file: '/media/cms_blog/someone-else.png' }),
    ]
    for (const body of noFile) {
      const res = await t.current.call({ method: 'POST', url: `${BLOG}/image_upload/`, payload: body.payload, headers: body.headers })
      expect(res.status, res.raw).toBe(400)
      expect(res.body).toEqual({ error: 'No file provided', detail: 'No file provided' })
    }
    const ar = await t.current.call({ method: 'POST', url: `${BLOG}/image_upload/`, payload: {}, headers: { 'accept-language': 'ar' } })
    expect(ar.body.error).toBe(translate('ar', 'detail.no_file_provided'))
  })

  it("serves the blog categories at the contract's base too, the same rows and rules", async () => {
    const name = unique('Travel tips')
    const created = await t.current.call({ method: 'POST', url: `${BLOG_CATEGORY_CONTRACT_BASE}/create/`, payload: { name } })
    expect(created.status, created.raw).toBe(201)
    expect(BLOG_CATEGORY_CONTRACT_BASE).toBe('/cms_blog_category/api/v1/blog_category')
    for (const base of [BLOG_CATEGORY_CONTRACT_BASE, registry.cms_blog_category.api.base]) {
      const all = await t.current.call({ method: 'GET', url: `${base}/without_pagination/all/` })
      expect(all.body.blog_categories.map((c: { id: number }) => c.id), base).toContain(created.body.id)
      expect((await t.current.call({ method: 'GET', url: `${base}/${created.body.id}` })).body.name, base).toBe(name)
    }
    const post = await create(t.current, BLOG, { title: unique('Packing light'), blog_category: created.body.id })
    const listed = (await t.current.call({ method: 'GET', url: `${BLOG}/search/?blog_category=${created.body.id}` })).body.blogs
    expect(listed.map((b: { id: number }) => b.id)).toEqual([post.id])
    // Deleting a category at the contract's base leaves its posts without one (their reference is cleared).
    const deleted = await t.current.call({ method: 'DELETE', url: `${BLOG_CATEGORY_CONTRACT_BASE}/delete/${created.body.id}` })
    expect(deleted.status, deleted.raw).toBe(200)
    expect((await t.current.call({ method: 'GET', url: `${BLOG}/${post.id}` })).body.blog_category).toBeNull()
    expect((await t.current.call({ method: 'POST', url: `${BLOG_CATEGORY_CONTRACT_BASE}/create/`, payload: {} })).status).toBe(400)
  })
})

const CMS = entities.filter((e) => e.module === 'cms' && !e.isLine).map((e) => e.name)

describeEachDatabase(
  'cms with PUBLIC_READ opening its entities',
  (t) => {
    it("answers the site's read routes without a token and leaves out who wrote the rows, as the engine's own reads do", async () => {
      const menu = await createMenu(t.current, unique('Public'))
      const content = await create(t.current, CONTENT, { cms_menu: menu.id, name: unique('Public tour') })
      await createImage(t.current, menu.id, 'hero')
      await create(t.current, ITINERARY, { cms_content: content.id, title: 'Day 1' })
      await create(t.current, META, { meta_title: 'Public', cms_content: content.id })
      const anonymous = async (url: string) => {
        const res = await t.current.call({ method: 'GET', url, asAnonymous: true })
        expect(res.status, `${url}: ${res.raw}`).toBe(200)
        return res.body
      }
      const authorsOf = (rows: Array<Record<string, unknown>>) => rows.map((r) => [r.created_by, r.updated_by])
      const listed = await anonymous(`${CONTENT}/all/`)
      expect(authorsOf(listed.menu_items).flat().every((x: unknown) => x === null)).toBe(true)
      const byMenu = await anonymous(`/cms_menu_content/api/v1/get_all_cms_menu_content_by_cms_menu_id/${menu.id}`)
      expect(authorsOf(byMenu.menu_items)).toEqual([[null, null]])
      expect(authorsOf((await anonymous(`/cms_menu_content_image/api/v1/get_all_cms_menu_content_image_by_cms_menu_id/${menu.id}`)).content_images)).toEqual([[null, null]])
      expect(authorsOf((await anonymous(`/cms_itinerary/api/v1/Itinerary/get_Itinerary_by_cms_content_id/${content.id}`)).itineraries)).toEqual([[null, null]])
      expect(await anonymous(`${META}/get_meta_data_by_cms_content_slug/${content.slug}/`)).toMatchObject({ meta_title: 'Public', created_by: null, updated_by: null })
      expect((await anonymous(`${MENU}/get_all_menu_content_and_image_by_cms_menu_id/${menu.id}`)).menu_contents).toEqual({ [content.name]: null })
      expect((await anonymous(`${MENU}/get_all_nested_cms_menu/`)).menus.map((m: { id: number }) => m.id)).toContain(menu.id)
      // A signed-in caller is told who wrote them; a token that is not valid reads as a guest, never refused.
      const signed = await t.current.call({ method: 'GET', url: `/cms_menu_content/api/v1/get_all_cms_menu_content_by_cms_menu_id/${menu.id}` })
      expect(signed.body.menu_items[0].created_by).toBe('admin@example.com')
      const stale = await t.current.call({ method: 'GET', url: `/cms_menu_content/api/v1/get_all_cms_menu_content_by_cms_menu_id/${menu.id}`, headers: { authorization: 'Bearer not.a.token' } })
      expect([stale.status, stale.body.menu_items[0].created_by]).toEqual([200, null])
      // The blog categories' second base keeps its token; the engine's base is the open one.
      expect((await t.current.call({ method: 'GET', url: `${BLOG_CATEGORY_CONTRACT_BASE}/all/`, asAnonymous: true })).status).toBe(401)
      await anonymous(`${registry.cms_blog_category.api.base}/all/`)
      // Writes keep their permissions.
      expect((await t.current.call({ method: 'POST', url: `${BLOG}/image_upload/`, payload: {}, asAnonymous: true })).status).toBe(401)
    })
  },
  { entities: withPublicRead(entities, CMS) },
)
