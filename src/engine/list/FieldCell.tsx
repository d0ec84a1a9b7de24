import { useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { type AnyField, readsLeftToRight, thumbnailOf } from '../../../schema/kit'
import { useFormat } from '../../i18n/useFormat'
import { Icon } from '../ui/icons'
import { StatusChip } from '../ui/StatusChip'

/** Cells are right-aligned for numbers and money so digits line up. */
export function isNumericCell(field: AnyField): boolean {
  return field.cell === 'number' || field.cell === 'decimal' || field.cell === 'money'
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)

function refName(value: unknown): string {
  // A contract that lists the referenced row by its label (role menus: the role's name) gives the text itself.
  if (typeof value === 'string') return value
  if (isRecord(value)) {
    const name = value.name
    if (typeof name === 'string' || typeof name === 'number') return String(name)
    if (typeof value.id === 'number') return `#${value.id}`
  }
  return typeof value === 'number' ? `#${value}` : ''
}

/**
 * A list row's value of a column as its cell shows it: a reference the list carries as its raw
 * id (`listAs: 'id'`, a contract's shape) goes with its display name from the row's `_labels`.
 */
export function cellValueOf(field: AnyField, row: Readonly<Record<string, unknown>>, name: string): unknown {
  const value = row[name]
  if (!isRecord(row._labels)) return value
  const label = row._labels[name]
  if (field.kind === 'refs' && Array.isArray(value) && isRecord(label)) {
    return value.map((id) => (typeof id === 'number' && (typeof label[id] === 'string' || typeof label[id] === 'number') ? { id, name: label[id] } : id))
  }
  if (field.kind !== 'ref' || typeof value !== 'number') return value
  return typeof label === 'string' || typeof label === 'number' ? { id: value, name: label } : value
}

const hrefOf = (url: string) => (/^[a-z][a-z0-9+.-]*:/i.test(url) ? url : `https://${url}`)

const linkClass = 'text-indigo-600 hover:underline dark:text-indigo-400'

/** Shown by name up to this many; more are summed up ("80 Permissions") and listed on demand. */
export const REFS_SHOWN = 2

/**
 * A many-valued cell (a role's permissions): a few names as they are; many as their number,
 * a button that shows and hides the names (a disclosure), so a row never grows wide or tall.
 */
function RefsCell({ field, names }: { field: AnyField; names: readonly string[] }) {
  const { t } = useTranslation()
  const [isOpen, setIsOpen] = useState(false)
  const id = useId()
  if (names.length === 0) return <span className="text-slate-300 dark:text-slate-600">—</span>
  if (names.length <= REFS_SHOWN) return <>{names.join(', ')}</>
  const target = field.ref?.target ?? ''
  const [one, other] = [t(`entity.${target}.one`, { defaultValue: target }), t(`entity.${target}.other`, { defaultValue: target })]
  const summary = t('list.refs_summary', { count: names.length, entity: other, one, other })
  return (
    <div className="min-w-40 max-w-80">
      <button
        type="button"
        aria-expanded={isOpen}
        aria-controls={id}
        onClick={(e) => {
          e.stopPropagation()
          setIsOpen((open) => !open)
        }}
        className="inline-flex items-center gap-1 rounded-md bg-slate-100 px-2 py-0.5 text-xs font-medium whitespace-nowrap text-slate-700 hover:bg-slate-200 focus-visible:outline-2 focus-visible:outline-indigo-500 dark:bg-slate-800 dark:text-slate-200 dark:hover:bg-slate-700"
      >
        {summary}
        <Icon name="chevronDown" className={`size-3.5 transition-transform ${isOpen ? 'rotate-180' : ''}`} />
      </button>
      {isOpen && (
        <ul id={id} onClick={(e) => e.stopPropagation()} className="mt-1.5 flex max-h-40 flex-wrap gap-1 overflow-y-auto text-xs">
          {names.map((name, i) => (
            <li key={`${name}-${i}`} className="rounded bg-indigo-50 px-1.5 py-0.5 text-indigo-800 dark:bg-indigo-950 dark:text-indigo-200">
              {name}
            </li>
          ))}
        </ul>
      )}
    </div>
  )
}

/** One list cell, by the field's `cell` kind (registry). */
/**
 * An image in a list: its thumbnail (schema/kit/media.ts), loaded when scrolled into view;
 * the original for an upload older than thumbnails (or one kept outside /media).
 */
function Thumbnail({ url }: { url: string }) {
  const hasThumbnail = url.startsWith('/media/')
  return (
    <img
      src={hasThumbnail ? thumbnailOf(url) : url}
      alt=""
      className="size-9 rounded object-cover ring-1 ring-slate-200 dark:ring-slate-700"
      loading="lazy"
      decoding="async"
      onError={(e) => {
        if (e.currentTarget.src.endsWith('.thumb.webp')) e.currentTarget.src = url
      }}
    />
  )
}

export function FieldCell({ field, value }: { field: AnyField; value: unknown }) {
  const { t } = useTranslation()
  const format = useFormat()
  if (value === null || value === undefined || value === '') return <span className="text-slate-300 dark:text-slate-600">—</span>

  switch (field.cell) {
    case 'ref':
      return <>{refName(value)}</>
    case 'refs':
      return <RefsCell field={field} names={Array.isArray(value) ? value.map(refName) : []} />
    case 'boolean': {
      const isOn = value === true
      // A flag of the clock (overdue): said when it holds, in red; nothing to say otherwise.
      if (field.pastDue) {
        return isOn ? (
          <span className="inline-flex items-center gap-1 rounded-full bg-red-100 px-2 py-0.5 text-xs font-medium text-red-700 dark:bg-red-950 dark:text-red-300">
            <Icon name="warning" className="size-3.5" />
            {t(field.label ?? 'list.true')}
          </span>
        ) : (
          <span className="text-slate-300 dark:text-slate-600">—</span>
        )
      }
      return (
        <span className={isOn ? 'text-emerald-600 dark:text-emerald-400' : 'text-slate-400'} title={t(isOn ? 'list.true' : 'list.false')}>
          <Icon name={isOn ? 'check' : 'x'} className="inline size-5" />
          <span className="sr-only">{t(isOn ? 'list.true' : 'list.false')}</span>
        </span>
      )
    }
    case 'link': {
      const text = String(value)
      const href = field.kind === 'email' ? `mailto:${text}` : hrefOf(text)
      return (
        <a href={href} className={linkClass} target={field.kind === 'email' ? undefined : '_blank'} rel="noreferrer" onClick={(e) => e.stopPropagation()} dir="ltr">
          {text}
        </a>
      )
    }
    case 'number':
      return <>{typeof value === 'number' ? format.integer(value) : String(value)}</>
    case 'decimal':
    case 'money':
      return <>{format.decimal(String(value), field.cell === 'money' ? 2 : (String(value).split('.')[1]?.length ?? 0))}</>
    case 'date':
      return <>{format.date(String(value))}</>
    case 'datetime':
      return <>{format.dateTime(String(value))}</>
    case 'enum':
      return <>{t(`option.${String(value)}`, { defaultValue: String(value) })}</>
    case 'status':
      return <StatusChip value={String(value)} tones={field.tones} />
    case 'image':
      return <Thumbnail url={String(value)} />
    case 'file':
      return (
        <a href={String(value)} className={linkClass} target="_blank" rel="noreferrer" onClick={(e) => e.stopPropagation()}>
          {String(value).split('/').pop()}
        </a>
      )
    case 'html': {
      // The words of formatted text: parsed inert (DOMParser runs no script), never rendered as HTML.
      const text = new DOMParser().parseFromString(String(value), 'text/html').body.textContent ?? ''
      return <>{text.length > 80 ? `${text.slice(0, 77)}…` : text}</>
    }
    case 'json': {
      const text = JSON.stringify(value)
      return <code className="text-xs">{text.length > 60 ? `${text.slice(0, 57)}…` : text}</code>
    }
    default: {
      // A list of names (a voucher's other ledgers) reads as one.
      const text = Array.isArray(value) ? value.map(String).join(', ') : String(value)
      // Isolated so an Arabic row keeps `+880 1711-000000` in order and its neighbours in theirs.
      return readsLeftToRight(field) ? <bdi dir="ltr">{text}</bdi> : <>{text}</>
    }
  }
}
