import { describe, expect, it } from 'vitest'
import { entities } from '../../schema'
import { defineEntity, f, type Entity, type Fields } from '../../schema/kit'
import { ValidationError } from '../../server/engine/errors'
import { sanitizeHtml, sanitizeMarkup } from '../../server/engine/html-markup'
import { describeEachDatabase } from './helpers/app'
import { createReferences, createRow, sampleInput } from './helpers/samples'

/**
 * Formatted text (`f.html()`) is sanitised by the server before it is stored (issue 12): for
 * every such field of the registry — found by walking it, not by naming entities — stored
 * HTML with a script, an event handler or a `javascript:` link comes back inert, on create and
 * on update, while the formatting an editor makes is kept.
 */
type AnyEntity = Entity<string, Fields>

const ATTACKS = [
  '<p>Hello <strong>world</strong></p><script>alert("x")</script>',
  '<p>Look</p><img src="https://example.com/a.png" onerror="alert(1)" alt="a">',
  '<p><a href="javascript:alert(1)">click</a> <a href="JaVaScRiPt:alert(2)">again</a> <a href="jav&#x61;script:alert(3)">encoded</a></p>',
  '<p onclick="steal()" style="background:url(javascript:alert(1))">styled</p><iframe src="https://evil.example"></iframe>',
  '<svg onload="alert(1)"><script>alert(2)</script></svg><a href="data:text/html,<script>alert(1)</script>">data</a>',
].join('')

/** What may never come back from a stored formatted text. */
function expectInert(value: unknown, what: string): void {
  expect(typeof value, what).toBe('string')
  const html = String(value)
  expect(html, what).not.toMatch(/<script|<iframe|<svg|<style/i)
  expect(html, what).not.toMatch(/\son\w+\s*=/i)
  expect(html, what).not.toMatch(/javascript:|jav&#x61;script|data:text/i)
  expect(html, what).not.toMatch(/style=/i)
  // The words and the formatting stay.
  expect(html, what).toContain('<p>Hello <strong>world</strong></p>')
  expect(html, what).toContain('<img src="https://example.com/a.png" alt="a" />')
  expect(html, what).toContain('click')
}

// What a record stores and answers: an input-only message (a ticket's first, kept as its thread's first line) has its own test.
const htmlFieldsOf = (e: AnyEntity) => e.fieldNames.filter((n) => e.fields[n]!.markup === 'html' && !e.fields[n]!.isTransient)
/** The lines fields of a document whose line entity has formatted text. */
const linesWithHtml = (e: AnyEntity) => e.linesFieldNames.filter((n) => htmlFieldsOf(e.fields[n]!.lines!.entity).length > 0)
const withHtml = entities.filter((e) => !e.isLine && (htmlFieldsOf(e).length > 0 || linesWithHtml(e).length > 0))

/** The body with every formatted-text field (its lines' too) set to `value`. */
function withAttacks(e: AnyEntity, input: Record<string, unknown>, value: string): Record<string, unknown> {
  const out: Record<string, unknown> = { ...input }
  for (const n of htmlFieldsOf(e)) out[n] = value
  for (const n of linesWithHtml(e)) {
    const line = e.fields[n]!.lines!.entity
    if (!Array.isArray(out[n])) continue
    out[n] = (out[n] as Array<Record<string, unknown>>).map((l) => ({ ...l, ...Object.fromEntries(htmlFieldsOf(line).map((h) => [h, value])) }))
  }
  return out
}

function expectAllInert(e: AnyEntity, row: Record<string, any>, what: string): void {
  for (const n of htmlFieldsOf(e)) expectInert(row[n], `${what} ${e.name}.${n}`)
  for (const n of linesWithHtml(e)) {
    const line = e.fields[n]!.lines!.entity
    for (const l of row[n] as Array<Record<string, unknown>>) for (const h of htmlFieldsOf(line)) expectInert(l[h], `${what} ${e.name}.${n}.${h}`)
  }
}

describe('the HTML policy', () => {
  it('keeps what the editor makes and drops what runs', () => {
    const kept = '<h2>T</h2><h3>a</h3><h4>b</h4><p><strong>s</strong> <em>e</em> <u>u</u> <s>x</s> <code>c</code><br /></p><ul><li>1</li></ul><ol><li>2</li></ol><blockquote>q</blockquote><pre>p</pre><hr />'
    expect(sanitizeHtml(kept)).toBe(kept)
    expect(sanitizeHtml('<a href="https://example.com" title="t">x</a> <a href="mailto:a@example.com">m</a> <a href="/tours/x">r</a>')).toBe(
      '<a href="https://example.com" title="t">x</a> <a href="mailto:a@example.com">m</a> <a href="/tours/x">r</a>',
    )
    expect(sanitizeHtml('<img src="/media/cms_blog/a.png" alt="A" />')).toBe('<img src="/media/cms_blog/a.png" alt="A" />')
  })

  it('keeps a block’s direction as the editor marks it (dir auto, ltr, rtl) and nothing else in that attribute', () => {
    expect(sanitizeHtml('<p dir="auto">سلام</p><h2 dir="RTL">a</h2><li dir="ltr">b</li>')).toBe('<p dir="auto">سلام</p><h2 dir="rtl">a</h2><li dir="ltr">b</li>')
    expect(sanitizeHtml('<p dir="javascript:x">a</p><strong dir="rtl">b</strong>')).toBe('<p>a</p><strong>b</strong>')
  })

  it('names things as the editor does and guards links that open another tab', () => {
    expect(sanitizeHtml('<h1>Big</h1><b>b</b><i>i</i><del>d</del><h6>small</h6>')).toBe('<h2>Big</h2><strong>b</strong><em>i</em><s>d</s><h4>small</h4>')
    expect(sanitizeHtml('<a href="https://example.com" target="_blank">x</a>')).toBe('<a href="https://example.com" target="_blank" rel="noopener noreferrer">x</a>')
  })

  it('leaves no script, frame, handler, style or unsafe address, and no text of what it dropped', () => {
    expect(sanitizeHtml('<script>alert(1)</script><style>p{}</style><iframe>inside</iframe><p>ok</p>')).toBe('<p>ok</p>')
    expect(sanitizeHtml('<p onmouseover="x()" style="color:red" class="c">t</p>')).toBe('<p>t</p>')
    expect(sanitizeHtml('<a href="  javascript:alert(1)">a</a><a href="java\nscript:alert(1)">b</a><a href="vbscript:x">c</a>')).toBe('<a>a</a><a>b</a><a>c</a>')
    // A picture without a safe address is nothing to show; protocol-relative addresses are refused too.
    expect(sanitizeHtml('<img src="data:image/png;base64,AAAA"><img src="javascript:alert(1)"><img src="//evil.example/x.png"><p>t</p>')).toBe('<p>t</p>')
  })

  it('changes nothing the second time (an update judges the stored text again) and keeps every script\'s letters as they are', () => {
    for (const html of [ATTACKS, '<p>a &amp; b &lt; c</p>', '<p>Çağrı “quoted” — مرحبا بالعالم</p>', 'plain words & more', '<ul><li><a href="https://x.example/?a=1&b=2">x</a></li></ul>']) {
      const once = sanitizeHtml(html)
      expect(sanitizeHtml(once), html).toBe(once)
    }
    expect(sanitizeHtml('<p>Çağrı “quoted” — مرحبا بالعالم</p>')).toBe('<p>Çağrı “quoted” — مرحبا بالعالم</p>')
  })

  it('stores text that was nothing but what it drops as blank, and refuses it where the field is required', () => {
    const note = defineEntity({ name: 'note', module: 'test', listKey: 'notes', route: { area: 'a', list: 'notes' }, fields: { body: f.html({ required: true }), extra: f.html() } })
    expect(sanitizeMarkup(note, { body: '<p>b</p>', extra: '<script>x</script>' })).toEqual({ body: '<p>b</p>', extra: null })
    expect(() => sanitizeMarkup(note, { body: '<script>x</script>' })).toThrow(ValidationError)
    try {
      sanitizeMarkup(note, { body: '<iframe></iframe>' })
    } catch (e) {
      expect((e as ValidationError).fields).toEqual({ body: [{ key: 'validation.required', params: { label: 'field.body' } }] })
    }
  })
})

describeEachDatabase('html sanitising', (t) => {
  it('has formatted text in the registry to judge', () => {
    expect(withHtml.length).toBeGreaterThan(0)
  })

  for (const entity of withHtml) {
    const fields = [...htmlFieldsOf(entity), ...linesWithHtml(entity)].join(', ')
    it(`${entity.name}: ${fields} come back inert on create, read, list${entity.routes.update === false ? '' : ' and update'}`, async () => {
      const refIds = await createReferences(t.current, entity, entities)
      const created = await createRow(t.current, entity, withAttacks(entity, sampleInput(entity, refIds), ATTACKS))
      expectAllInert(entity, created, 'create')
      const read = await t.current.call({ method: 'GET', url: `${entity.api.base}/${created.id}` })
      expectAllInert(entity, read.body, 'read')
      const listed = (await t.current.call({ method: 'GET', url: `${entity.api.base}/without_pagination/all/` })).body[entity.listKey] as Array<Record<string, any>>
      const row = listed.find((r) => r.id === created.id)!
      for (const n of htmlFieldsOf(entity)) if (n in row) expectInert(row[n], `list ${entity.name}.${n}`)

      // An update that sends only clean text keeps it as it is; one with attacks is cleaned again (where records change: not a ticket's thread).
      if (entity.routes.update === false) return
      const clean = await t.current.call({ method: 'PATCH', url: `${entity.api.base}/update/${created.id}`, payload: Object.fromEntries(htmlFieldsOf(entity).map((n) => [n, '<p>Plain <em>text</em></p>'])) })
      expect(clean.status, clean.raw).toBe(200)
      for (const n of htmlFieldsOf(entity)) expect(clean.body[n], n).toBe('<p>Plain <em>text</em></p>')
      const updated = await t.current.call({ method: 'PUT', url: `${entity.api.base}/update/${created.id}`, payload: withAttacks(entity, {}, ATTACKS) })
      expect(updated.status, updated.raw).toBe(200)
      expectAllInert(entity, updated.body, 'update')
      expectAllInert(entity, (await t.current.call({ method: 'GET', url: `${entity.api.base}/${created.id}` })).body, 'read after update')
    })
  }
})
