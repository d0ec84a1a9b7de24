import sanitize from 'sanitize-html'
import type { Entity, Fields, Message } from '../../schema/kit'
import { ValidationError } from './errors'
import type { Values } from './validate'

/**
 * Formatted text (`f.html()`, `markup: 'html'`) is sanitised before it is stored, whoever
 * sends it: what comes back can be put into a page as it is. The policy keeps what the
 * rich-text editor makes — paragraphs, headings, emphasis, links, lists, quotes, code, rules,
 * pictures — and nothing that runs: no script, style or frame (their content is dropped, not
 * shown as text), no event handler or style attribute, no link or picture whose address is
 * not http(s), mail or a relative path (`javascript:` and `data:` addresses lose the
 * attribute, leaving the words inert). Server only: the schema is bundled for the browser.
 */
const DIRECTED = ['p', 'h2', 'h3', 'h4', 'li', 'blockquote', 'ul', 'ol', 'pre']
const DIRECTIONS = new Set(['auto', 'ltr', 'rtl'])
/** A block keeps its direction only when it is one of the three the attribute knows. */
const keepDirection = (tagName: string, attribs: sanitize.Attributes): sanitize.Tag => {
  const { dir, ...rest } = attribs
  return { tagName, attribs: dir !== undefined && DIRECTIONS.has(dir.toLowerCase()) ? { ...rest, dir: dir.toLowerCase() } : rest }
}

const POLICY: sanitize.IOptions = {
  allowedTags: ['p', 'br', 'hr', 'h2', 'h3', 'h4', 'strong', 'em', 'u', 's', 'a', 'ul', 'ol', 'li', 'blockquote', 'code', 'pre', 'img'],
  // `dir`: the editor marks each block `dir="auto"`, so an Arabic paragraph reads right to left in an English page.
  allowedAttributes: { a: ['href', 'title', 'target', 'rel'], img: ['src', 'alt', 'title'], ...Object.fromEntries(DIRECTED.map((tag) => [tag, ['dir']])) },
  allowedSchemes: ['http', 'https', 'mailto', 'tel'],
  allowedSchemesByTag: { img: ['http', 'https'] },
  allowProtocolRelative: false,
  // What older editors and pasted pages call the same things (the editor's own headings start at h2: the page has the h1).
  transformTags: {
    h1: 'h2',
    h5: 'h4',
    h6: 'h4',
    b: 'strong',
    i: 'em',
    strike: 's',
    del: 's',
    // A link opening another tab must not hand that page a hold on this one (window.opener).
    a: (tagName, attribs) => ({ tagName, attribs: attribs.target === '_blank' ? { ...attribs, rel: 'noopener noreferrer' } : attribs }),
    ...Object.fromEntries(DIRECTED.map((tag) => [tag, keepDirection])),
  },
  // A picture left without an address (it had a `javascript:` or `data:` one) is nothing to show.
  exclusiveFilter: (frame) => frame.tag === 'img' && !frame.attribs.src,
  nonTextTags: ['script', 'style', 'textarea', 'option', 'noscript', 'iframe', 'object', 'embed', 'template', 'svg', 'math'],
  disallowedTagsMode: 'discard',
}

/** Formatted text made safe to show: see POLICY. */
export function sanitizeHtml(html: string): string {
  return sanitize(html, POLICY).trim()
}

const isMarkup = (entity: Entity<string, Fields>, name: string) => entity.fields[name]?.markup === 'html'

/**
 * The values with every formatted-text field sanitised — a document's lines' too. Text that
 * was nothing but what the policy drops (a lone script) is blank afterwards: null, or refused
 * as missing when the field is required.
 */
export function sanitizeMarkup(entity: Entity<string, Fields>, values: Values, prefix = ''): Values {
  const errors: Record<string, Message[]> = {}
  for (const name of entity.fieldNames) {
    const value = values[name]
    const field = entity.fields[name]!
    if (field.kind === 'lines' && Array.isArray(value)) {
      values[name] = value.map((line: Values, i) => sanitizeMarkup(field.lines!.entity, { ...line }, `${prefix}${name}.${i}.`))
      continue
    }
    if (!isMarkup(entity, name) || typeof value !== 'string') continue
    const clean = sanitizeHtml(value)
    if (clean !== '') values[name] = clean
    else if (field.isRequired) errors[`${prefix}${name}`] = [{ key: 'validation.required', params: { label: entity.fieldLabelKey(name) } }]
    else values[name] = null
  }
  if (Object.keys(errors).length > 0) throw new ValidationError(errors)
  return values
}
