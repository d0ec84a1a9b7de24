import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { http, HttpResponse } from 'msw'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { registry } from '../../schema'
import { adminUser, api, envelope, storeSessionOf } from './support/fixtures'
import { renderApp } from './support/render-app'
import { server } from './support/server'

/**
 * A product's gallery on its form (EntityConfig.gallery): pictures in order, several added at
 * once (each uploaded as its own picture, in the order chosen), moved with the arrows (the
 * keyboard and pointer drag share the same move), removed after a confirmation; on a new
 * product the pictures wait and are uploaded once it is saved.
 */
const PRODUCT = registry.product.api.base
const IMAGE = registry.productimage.api.base
const product = { id: 5, name: 'Framed Print', unit_price: '10.00', low_stock_alert: 5, colors: [], sizes: [], updated_at: '2026-11-01T00:00:00Z', _labels: {} }
const picture = (id: number, position: number) => ({ id, product: 5, image: `/media/productimage/p${id}.png`, position })
const png = (name: string) => new File([new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10, 0, 0, 0, 13])], name, { type: 'image/png' })

// jsdom's File does not survive Node's fetch whole (its name and bytes are lost on the way):
// which file each upload carried is read where the gallery hands it over; the request still goes out.
const handedOver: string[] = []
vi.mock('../../src/engine/gallery/gallery-api', async (original) => {
  const real = await original<typeof import('../../src/engine/gallery/gallery-api')>()
  return {
    ...real,
    uploadPicture: (entity: Parameters<typeof real.uploadPicture>[0], ownerId: number, file: File) => {
      handedOver.push(file.name)
      return real.uploadPicture(entity, ownerId, file)
    },
  }
})

type Upload = { product: string; image: string }
let gallery: ReturnType<typeof picture>[]
let uploads: Upload[]
let reorders: unknown[]
let deletes: number[]

beforeEach(() => {
  storeSessionOf(adminUser)
  gallery = [picture(31, 0), picture(32, 1)]
  uploads = []
  handedOver.length = 0
  reorders = []
  deletes = []
  server.use(
    http.get(api(`${PRODUCT}/5`), () => HttpResponse.json(product)),
    // The form's pickers ask for their first options.
    ...['brand', 'category', 'color', 'manufacturer', 'size', 'vendor'].map((name) => http.get(api(`/${name}/api/v1/${name}/all/`), () => HttpResponse.json(envelope(`${name}s`, [])))),
    http.get(api(`${IMAGE}/search/`), ({ request }) => {
      const owner = new URL(request.url).searchParams.get('product')
      return HttpResponse.json(envelope('product_images', owner === '5' ? gallery : []))
    }),
    http.post(api(`${IMAGE}/create/`), async ({ request }) => {
      const form = await request.formData()
      expect(form.get('image')).toHaveProperty('size')
      const name = handedOver[uploads.length]!
      uploads.push({ product: String(form.get('product')), image: name })
      if (name.startsWith('broken')) return HttpResponse.json({ image: ['Upload a valid image.'] }, { status: 400 })
      const made = picture(40 + uploads.length, gallery.length)
      gallery = [...gallery, made]
      return HttpResponse.json(made, { status: 201 })
    }),
    http.post(api(`${IMAGE}/reorder/`), async ({ request }) => {
      const body = (await request.json()) as { product: number; ids: number[] }
      reorders.push(body)
      gallery = body.ids.map((id, i) => ({ ...gallery.find((p) => p.id === id)!, position: i }))
      return HttpResponse.json({ product_images: gallery })
    }),
    http.delete(api(`${IMAGE}/delete/:id`), ({ params }) => {
      deletes.push(Number(params.id))
      gallery = gallery.filter((p) => p.id !== Number(params.id))
      return HttpResponse.json({ detail: 'deleted' })
    }),
  )
})

const tiles = () => within(screen.getByRole('region', { name: 'Product Images' })).getAllByRole('listitem').filter((li) => li.getAttribute('aria-label')?.startsWith('Picture'))
const shownImages = () => tiles().map((li) => li.querySelector('img')!.getAttribute('src'))

describe('product gallery', () => {
  it('shows the stored pictures in order, as thumbnails, and saves a new order at once', async () => {
    const { user } = await renderApp(`${registry.product.ui.formPath}/5`)
    await waitFor(() => expect(shownImages()).toEqual(['/media/productimage/p31.thumb.webp', '/media/productimage/p32.thumb.webp']))
    expect(screen.getByRole('button', { name: 'Move picture 1 earlier' })).toBeDisabled()
    await user.click(screen.getByRole('button', { name: 'Move picture 2 earlier' }))
    await waitFor(() => expect(reorders).toEqual([{ product: 5, ids: [32, 31] }]))
    await waitFor(() => expect(shownImages()).toEqual(['/media/productimage/p32.thumb.webp', '/media/productimage/p31.thumb.webp']))
    // Dragging has a keyboard way too: its handle is a button that says so.
    expect(screen.getByRole('button', { name: 'Drag picture 1' })).toHaveAttribute('aria-roledescription', 'sortable')
  })

  it('uploads several pictures chosen at once, one after another in their order, and refuses a file that is not a picture without sending it', async () => {
    const { user } = await renderApp(`${registry.product.ui.formPath}/5`)
    await waitFor(() => expect(tiles()).toHaveLength(2))
    const input = screen.getByLabelText(/Add pictures/)
    expect(input).toHaveAttribute('multiple')
    const notes = new File(['<svg onload=alert(1)>'], 'notes.svg', { type: 'image/svg+xml' })
    // user.upload honours `accept`; a drop or a chooser set to all files would not: the gallery judges it itself.
    fireEvent.change(input, { target: { files: [png('front.png'), notes, png('back.png')] } })
    await waitFor(() => expect(tiles()).toHaveLength(4))
    expect(uploads).toEqual([
      { product: '5', image: 'front.png' },
      { product: '5', image: 'back.png' },
    ])
    expect(await screen.findByText('notes.svg is not a picture (PNG, JPEG, GIF or WebP).')).toBeVisible()
    await user.click(screen.getByRole('button', { name: 'Dismiss' }))
    expect(screen.queryByText(/notes.svg/)).toBeNull()
  })

  it('judges a picture by its bytes, not its name: a drawing named .png gets no tile and is not sent', async () => {
    await renderApp(`${registry.product.ui.formPath}/5`)
    await waitFor(() => expect(tiles()).toHaveLength(2))
    const disguised = new File(['<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>'], 'holiday.png', { type: 'image/png' })
    fireEvent.change(screen.getByLabelText(/Add pictures/), { target: { files: [disguised] } })
    expect(await screen.findByText('holiday.png is not a picture (PNG, JPEG, GIF or WebP).')).toBeVisible()
    expect(tiles()).toHaveLength(2)
    expect(uploads).toEqual([])
  })

  it('keeps a refused upload on its tile with the server’s words', async () => {
    await renderApp(`${registry.product.ui.formPath}/5`)
    await waitFor(() => expect(tiles()).toHaveLength(2))
    fireEvent.change(screen.getByLabelText(/Add pictures/), { target: { files: [png('broken.png')] } })
    const tile = await screen.findByRole('listitem', { name: 'Picture 3' })
    expect(await within(tile).findByRole('alert')).toHaveTextContent('Upload a valid image.')
  })

  it('removes a stored picture only after the user confirms', async () => {
    const { user } = await renderApp(`${registry.product.ui.formPath}/5`)
    await waitFor(() => expect(tiles()).toHaveLength(2))
    await user.click(screen.getByRole('button', { name: 'Remove picture 1' }))
    const dialog = await screen.findByRole('dialog', { name: 'Remove this picture?' })
    await user.click(within(dialog).getByRole('button', { name: 'Keep it' }))
    expect(deletes).toEqual([])
    await user.click(screen.getByRole('button', { name: 'Remove picture 1' }))
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Remove' }))
    await waitFor(() => expect(deletes).toEqual([31]))
    await waitFor(() => expect(tiles()).toHaveLength(1))
  })

  it('holds the pictures of a new product, in the order the user leaves them, and uploads them once the product is saved', async () => {
    let created: unknown
    server.use(
      http.post(api(`${PRODUCT}/create/`), async ({ request }) => {
        created = await request.json()
        return HttpResponse.json({ ...product, id: 77 }, { status: 201 })
      }),
      http.get(api(`${PRODUCT}/all/`), () => HttpResponse.json(envelope('products', []))),
    )
    const { user, router } = await renderApp(`${registry.product.ui.formPath}/new`)
    await user.type(await screen.findByRole('textbox', { name: /^Name/ }), 'Framed Print')
    fireEvent.change(await screen.findByLabelText(/Add pictures/), { target: { files: [png('a.png'), png('b.png')] } })
    expect(await screen.findByText('These pictures are uploaded when you save.')).toBeVisible()
    await user.click(screen.getByRole('button', { name: 'Move picture 2 earlier' }))
    expect(uploads).toEqual([])
    await user.click(screen.getByRole('button', { name: 'Save' }))
    // Saved, the product stays open at its own address, its pictures uploaded.
    await waitFor(() => expect(router.state.location.pathname).toBe(`${registry.product.ui.formPath}/77`))
    expect(created).toMatchObject({ name: 'Framed Print' })
    expect(uploads).toEqual([
      { product: '77', image: 'b.png' },
      { product: '77', image: 'a.png' },
    ])
  })

  it('takes the user to the saved product, saying which pictures failed, when an upload after the save is refused', async () => {
    server.use(
      http.post(api(`${PRODUCT}/create/`), () => HttpResponse.json({ ...product, id: 5 }, { status: 201 })),
    )
    const { user, router } = await renderApp(`${registry.product.ui.formPath}/new`)
    await user.type(await screen.findByRole('textbox', { name: /^Name/ }), 'Framed Print')
    fireEvent.change(await screen.findByLabelText(/Add pictures/), { target: { files: [png('broken.png')] } })
    await user.click(screen.getByRole('button', { name: 'Save' }))
    await waitFor(() => expect(router.state.location.pathname).toBe(`${registry.product.ui.formPath}/5`))
    expect(await screen.findByText(/Saved, but these pictures were not uploaded: broken.png \(Upload a valid image.\)/)).toBeVisible()
  })
})
