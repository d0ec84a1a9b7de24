import type { Editor } from '@tiptap/core'
import { act, screen, waitFor, within } from '@testing-library/react'
import { http, HttpResponse } from 'msw'
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { entities } from '../../schema'
import { defineEntity, f } from '../../schema/kit'
import { changeLanguage, i18n } from '../../src/i18n'
import { linkAddress } from '../../src/engine/widgets/link-address'
import { accessTokenAnswers, adminUser, api, clerkUser, storeSession, storeSessionOf } from './support/fixtures'
import { renderApp } from './support/render-app'
import { server } from './support/server'

/**
 * The editor's code arrives when the test says: its placeholder is seen for certain, however
 * fast the import is (and wherever the module was loaded before). Open for every test but the
 * one that looks at the placeholder.
 */
const editorCode = vi.hoisted(() => {
  let arrive!: () => void
  const arrived = new Promise<void>((resolve) => (arrive = resolve))
  return { arrive, arrived }
})
vi.mock('../../src/engine/widgets/RichTextInput', async (importOriginal) => {
  await editorCode.arrived
  return importOriginal()
})
const PLACEHOLDER_TEST = 'loads with the form: a textarea-like placeholder first, then the editor labelled by the field'

/** A page of a site with a formatted body: an entity of this test only. */
const article = defineEntity({
  name: 'article',
  module: 'test',
  listKey: 'articles',
  route: { area: 'article-management', list: 'articles' },
  fields: {
    title: f.text({ max: 100, required: true, search: true }),
    body: f.html({ required: true }),
  },
})
const withArticle = [...entities, article]
const base = '/article/api/v1/article'
const stored = { id: 7, title: 'Welcome', body: '<p>Hello <strong>world</strong></p>', created_at: '2026-01-01T00:00:00Z', updated_at: '2026-01-01T00:00:00Z', created_by: 1, updated_by: 1 }

// ProseMirror measures the selection to keep it in view; jsdom lays nothing out.
beforeAll(() => {
  const rect = { x: 0, y: 0, top: 0, left: 0, bottom: 0, right: 0, width: 0, height: 0, toJSON: () => ({}) }
  Range.prototype.getBoundingClientRect = () => rect as DOMRect
  Range.prototype.getClientRects = () => ({ length: 0, item: () => null, [Symbol.iterator]: [][Symbol.iterator] }) as unknown as DOMRectList
  document.elementFromPoint ??= () => null
})

/** The editor behind its content element (TipTap keeps it there): to type where jsdom's contenteditable cannot. */
const editorOf = (element: HTMLElement) => (element as HTMLElement & { editor: Editor }).editor
const body = () => screen.getByRole('textbox', { name: /^Body/ })

describe('rich-text editor (f.html)', () => {
  beforeEach(({ task }) => {
    if (task.name !== PLACEHOLDER_TEST) editorCode.arrive()
    storeSession()
    i18n.addResourceBundle('en', 'translation', { entity: { article: { one: 'Article', other: 'Articles' } }, field: { title: 'Title', body: 'Body' } }, true, true)
    server.use(http.get(api(`${base}/:id`), ({ params }) => (params.id === '7' ? HttpResponse.json(stored) : undefined)))
  })

  it(PLACEHOLDER_TEST, async () => {
    await renderApp('/apps/article-management/articles/new', { entities: withArticle })
    expect(await screen.findByRole('heading', { name: 'New Article' })).toBeInTheDocument()
    const placeholder = body()
    expect(placeholder.tagName).toBe('TEXTAREA')
    expect(placeholder).toBeDisabled()
    expect(placeholder).toHaveAttribute('aria-busy', 'true')

    editorCode.arrive()
    await waitFor(() => expect(body()).toHaveAttribute('contenteditable', 'true'))
    const editor = body()
    expect(editor).toHaveAttribute('aria-multiline', 'true')
    expect(editor).toHaveAttribute('aria-required', 'true')
    // Named by the field's own label, not a copy of its words.
    const label = document.getElementById(editor.getAttribute('aria-labelledby')!)!
    expect(label.tagName).toBe('LABEL')
    expect(label).toHaveTextContent('Body')
    // It spans the form's width, as a multi-line text does.
    expect(editor.closest('[data-field]')).toHaveClass('sm:col-span-2')
    const toolbar = screen.getByRole('toolbar', { name: 'Formatting of Body' })
    expect(toolbar).toHaveAttribute('aria-controls', editor.id)
    for (const name of ['Bold', 'Italic', 'Underline', 'Strikethrough', 'Heading', 'Subheading', 'Bulleted list', 'Numbered list', 'Quote', 'Link', 'Remove link', 'Undo', 'Redo']) {
      expect(within(toolbar).getByRole('button', { name })).toBeInTheDocument()
    }
  })

  it('formats with the toolbar (aria-pressed follows the selection) and saves the HTML; a blank body is blank', async () => {
    let sent: Record<string, unknown> | undefined
    server.use(
      http.post(api(`${base}/create/`), async ({ request }) => {
        sent = (await request.json()) as Record<string, unknown>
        return HttpResponse.json({ ...stored, ...sent, id: 8 }, { status: 201 })
      }),
      http.get(api(`${base}/all/`), () => HttpResponse.json({ articles: [], page: 1, size: 30, total_pages: 1, total_elements: 0 })),
    )
    const { user } = await renderApp('/apps/article-management/articles/new', { entities: withArticle })
    await user.type(await screen.findByRole('textbox', { name: /^Title/ }), 'Welcome')
    await waitFor(() => expect(body()).toHaveAttribute('contenteditable', 'true'))

    // Written and wiped out: the rules see a blank body, not `<p></p>`.
    act(() => void editorOf(body()).chain().insertContent('Draft').clearContent(true).run())
    await user.click(screen.getByRole('button', { name: 'Save' }))
    expect(await screen.findByText('Body is required')).toBeInTheDocument()
    expect(body()).toHaveAttribute('aria-invalid', 'true')
    expect(sent).toBeUndefined()
    // The keyboard goes where the body is typed, not to the toolbar's first button.
    await waitFor(() => expect(document.activeElement).toBe(body()))

    const bold = screen.getByRole('button', { name: 'Bold' })
    expect(bold).toHaveAttribute('aria-pressed', 'false')
    await user.click(bold)
    await waitFor(() => expect(bold).toHaveAttribute('aria-pressed', 'true'))
    act(() => void editorOf(body()).commands.insertContent('Hello'))
    await user.click(screen.getByRole('button', { name: 'Subheading' }))
    expect(screen.getByRole('button', { name: 'Subheading' })).toHaveAttribute('aria-pressed', 'true')
    expect(screen.getByRole('button', { name: 'Heading' })).toHaveAttribute('aria-pressed', 'false')
    await waitFor(() => expect(body()).not.toHaveAttribute('aria-invalid'))

    // Ctrl+Enter saves from the editor as from any field, and breaks no line.
    body().focus()
    await user.keyboard('{Control>}{Enter}{/Control}')
    await waitFor(() => expect(sent).toEqual({ title: 'Welcome', body: '<h3 dir="auto"><strong>Hello</strong></h3>' }))
  })

  it('undoes and redoes, by the buttons and the keyboard', async () => {
    const { user } = await renderApp('/apps/article-management/articles/new', { entities: withArticle })
    await waitFor(() => expect(body()).toHaveAttribute('contenteditable', 'true'))
    const undo = screen.getByRole('button', { name: 'Undo' })
    expect(undo).toBeDisabled()
    act(() => void editorOf(body()).chain().focus().insertContent('First').run())
    await waitFor(() => expect(undo).toBeEnabled())
    expect(undo).toHaveAttribute('aria-keyshortcuts', 'Control+Z')
    await user.click(undo)
    await waitFor(() => expect(body()).not.toHaveTextContent('First'))
    await user.click(screen.getByRole('button', { name: 'Redo' }))
    await waitFor(() => expect(body()).toHaveTextContent('First'))
    // Ctrl+B toggles bold where the caret is.
    body().focus()
    await user.keyboard('{Control>}b{/Control}')
    await waitFor(() => expect(screen.getByRole('button', { name: 'Bold' })).toHaveAttribute('aria-pressed', 'true'))
    // Ctrl+K asks for a link.
    await user.keyboard('{Control>}k{/Control}')
    expect(await screen.findByRole('dialog', { name: 'Add a link' })).toBeInTheDocument()
    await user.keyboard('{Escape}')
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument())
    // A click on the field's label puts the caret in the editor, as in an input.
    await user.click(screen.getByRole('textbox', { name: /^Title/ }))
    expect(body()).not.toHaveFocus()
    await user.click(screen.getByText('Body'))
    expect(body()).toHaveFocus()
  })

  it('adds a link through its dialog, refuses a script address, and removes it', async () => {
    let saves = 0
    server.use(
      http.post(api(`${base}/create/`), () => {
        saves += 1
        return HttpResponse.json({ ...stored, id: 8 }, { status: 201 })
      }),
    )
    const { user } = await renderApp('/apps/article-management/articles/new', { entities: withArticle })
    await user.type(await screen.findByRole('textbox', { name: /^Title/ }), 'Guide')
    await waitFor(() => expect(body()).toHaveAttribute('contenteditable', 'true'))
    const editor = editorOf(body())
    act(() => void editor.chain().focus().insertContent('Read the guide').setTextSelection({ from: 10, to: 15 }).run())

    await user.click(screen.getByRole('button', { name: 'Link' }))
    let dialog = await screen.findByRole('dialog', { name: 'Add a link' })
    const address = within(dialog).getByRole('textbox', { name: 'Address (URL)' })
    await user.type(address, 'javascript:alert(1)')
    await user.click(within(dialog).getByRole('button', { name: 'Apply' }))
    expect(within(dialog).getByText(/Enter a web address/)).toBeInTheDocument()
    expect(address).toHaveAttribute('aria-invalid', 'true')
    await user.clear(address)
    await user.type(address, 'example.com/guide{Enter}')
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument())
    expect(editor.getHTML()).toContain('<a target="_blank" rel="noopener noreferrer nofollow" href="https://example.com/guide">guide</a>')
    // The Enter in the dialog did not save the record (which could be saved).
    expect(saves).toBe(0)

    act(() => void editor.commands.setTextSelection(12))
    await waitFor(() => expect(screen.getByRole('button', { name: 'Link' })).toHaveAttribute('aria-pressed', 'true'))
    await user.click(screen.getByRole('button', { name: 'Link' }))
    dialog = await screen.findByRole('dialog', { name: 'Edit the link' })
    expect(within(dialog).getByRole('textbox', { name: 'Address (URL)' })).toHaveValue('https://example.com/guide')
    await user.click(within(dialog).getByRole('button', { name: 'Remove link' }))
    await waitFor(() => expect(editor.getHTML()).not.toContain('<a '))
    expect(screen.getByRole('button', { name: 'Remove link' })).toBeDisabled()
  })

  it('opens a stored body without changing it, and takes the stored one again on a reload', async () => {
    let isChangedElsewhere = false
    let sent: Record<string, unknown> | undefined
    server.use(
      http.get(api(`${base}/all/`), () => HttpResponse.json({ articles: [stored], page: 1, size: 30, total_pages: 1, total_elements: 1 })),
      http.get(api(`${base}/7`), () => HttpResponse.json(isChangedElsewhere ? { ...stored, body: '<p>Changed by someone else</p>', updated_at: '2026-01-02T00:00:00Z' } : stored)),
      http.put(api(`${base}/update/7`), async ({ request }) => {
        sent = (await request.json()) as Record<string, unknown>
        isChangedElsewhere = true
        return HttpResponse.json({ detail: 'Someone changed this record after you opened it.' }, { status: 409 })
      }),
    )
    const { user, router } = await renderApp('/apps/article-management/articles/7', { entities: withArticle })
    await waitFor(() => expect(body()).toHaveAttribute('contenteditable', 'true'))
    expect(body().querySelector('strong')).toHaveTextContent('world')
    // Shown as TipTap writes it, yet not changed: leaving asks nothing.
    await user.click(screen.getByRole('link', { name: 'Back to Articles' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/apps/article-management/articles'))
    expect(screen.queryByRole('dialog', { name: 'Leave without saving?' })).not.toBeInTheDocument()

    await act(() => router.navigate({ to: '/apps/article-management/articles/7' }))
    await waitFor(() => expect(body()).toHaveAttribute('contenteditable', 'true'))
    act(() => void editorOf(body()).chain().focus('end').insertContent('!').run())
    await user.click(screen.getByRole('button', { name: 'Save' }))
    await waitFor(() => expect(sent?.body).toBe('<p dir="auto">Hello <strong>world!</strong></p>'))

    await user.click(await screen.findByRole('button', { name: 'Reload the record' }))
    await waitFor(() => expect(body()).toHaveTextContent('Changed by someone else'))
    expect(body()).not.toHaveTextContent('world')
  })

  it('is read-only, toolbar and all, where the form cannot save', async () => {
    signedInAsReader()
    await renderApp('/apps/article-management/articles/7', { entities: withArticle })
    await waitFor(() => expect(body()).toHaveAttribute('contenteditable', 'false'))
    expect(body()).toHaveAttribute('aria-disabled', 'true')
    expect(body().querySelector('strong')).toHaveTextContent('world')
    expect(screen.getByRole('button', { name: 'Bold' })).toBeDisabled()
  })

  it('moves along the toolbar with the arrow keys, one Tab stop, mirrored in Arabic', async () => {
    // The language chosen is kept with the user's settings.
    server.use(http.post(api('/api/auth/user/update'), () => HttpResponse.json({ user: adminUser })))
    const { user } = await renderApp('/apps/article-management/articles/new', { entities: withArticle })
    await waitFor(() => expect(body()).toHaveAttribute('contenteditable', 'true'))
    const toolbar = screen.getByRole('toolbar')
    const tabbable = () => within(toolbar).getAllByRole('button').filter((b) => b.tabIndex === 0)
    expect(tabbable()).toEqual([screen.getByRole('button', { name: 'Bold' })])
    screen.getByRole('button', { name: 'Bold' }).focus()
    await user.keyboard('{ArrowRight}')
    expect(screen.getByRole('button', { name: 'Italic' })).toHaveFocus()
    await user.keyboard('{End}')
    // Undo and redo have nothing to do yet: the last usable button is Link.
    expect(screen.getByRole('button', { name: 'Link' })).toHaveFocus()
    expect(tabbable()).toEqual([screen.getByRole('button', { name: 'Link' })])

    await act(() => changeLanguage('ar'))
    const bold = await screen.findByRole('button', { name: 'غامق' })
    bold.focus()
    await user.keyboard('{ArrowLeft}')
    expect(screen.getByRole('button', { name: 'مائل' })).toHaveFocus()
    expect(body().querySelector('p')).toHaveAttribute('dir', 'auto')
  })
})

describe('link addresses', () => {
  it.each([
    ['example.com', 'https://example.com'],
    [' https://example.com/a?b=1 ', 'https://example.com/a?b=1'],
    ['http://example.com', 'http://example.com'],
    ['info@example.com', 'mailto:info@example.com'],
    ['mailto:info@example.com', 'mailto:info@example.com'],
    ['tel:+8801711000000', 'tel:+8801711000000'],
    ['/about-us', '/about-us'],
    ['#prices', '#prices'],
  ])('takes %j as %j', (typed, href) => expect(linkAddress(typed)).toBe(href))

  it.each(['', 'javascript:alert(1)', 'JavaScript:alert(1)', 'data:text/html,<script>', 'vbscript:x', '//evil.example', 'two words', 'https://', 'localhost'])('refuses %j', (typed) => {
    expect(linkAddress(typed)).toBeNull()
  })
})

/** A clerk who may read articles but not change them. */
function signedInAsReader() {
  const reader = { ...clerkUser, permissions: ['ARTICLE_LIST', 'ARTICLE_DETAILS'] }
  storeSessionOf(reader)
  server.use(accessTokenAnswers(reader))
}
