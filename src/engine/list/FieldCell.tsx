import { useId, useState, useSyncExternalStore } from 'react'
import { type AnyField, readsLeftToRight, thumbnailOf } from '../../../schema/kit'
import { i18n, isLanguage, type Language } from '../../i18n'
import { formattersFor, type Formatters } from '../../i18n/useFormat'
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

/**
 * The words and formats of a cell in the interface's language. A list draws hundreds of cells
 * as it scrolls: react-i18next's hook and a cell's own Intl formatters cost more than the cell
 * itself, so cells share one set of formatters per language and one subscription to what
 * changes their words (the language, a catalogue loaded later — the app's `bindI18nStore`).
 */
const formattersByLanguage = new Map<Language, Formatters>()
function formattersOf(language: Language): Formatters {
  let formatters = formattersByLanguage.get(language)
  if (!formatters) {
    formatters = formattersFor(language)
    formattersByLanguage.set(language, formatters)
  }
  return formatters
}

let wordsRevision = 0
const wordsListeners = new Set<() => void>()
let isBoundToI18n = false
function subscribeToWords(listener: () => void): () => void {
  if (!isBoundToI18n) {
    isBoundToI18n = true
    const changed = () => {
      wordsRevision++
      for (const l of wordsListeners) l()
    }
    i18n.on('languageChanged', changed)
    i18n.store.on('added', changed)
  }
  wordsListeners.add(listener)
  return () => wordsListeners.delete(listener)
}
const wordsRevisionNow = () => wordsRevision
const translate: typeof i18n.t = i18n.t.bind(i18n)

function useCellWords(): { t: typeof i18n.t; format: Formatters } {
  useSyncExternalStore(subscribeToWords, wordsRevisionNow, wordsRevisionNow)
  const lng = i18n.resolvedLanguage ?? i18n.language
  return { t: translate, format: formattersOf(isLanguage(lng) ? lng : 'en') }
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
  const { t } = useCellWords()
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

const emptyCell = <span className="text-slate-300 dark:text-slate-600">—</span>

function BooleanCell({ field, isOn }: { field: AnyField; isOn: boolean }) {
  const { t } = useCellWords()
  // A flag of the clock (overdue): said when it holds, in red; nothing to say otherwise.
  if (field.pastDue) {
    return isOn ? (
      <span className="inline-flex items-center gap-1 rounded-full bg-red-100 px-2 py-0.5 text-xs font-medium text-red-700 dark:bg-red-950 dark:text-red-300">
        <Icon name="warning" className="size-3.5" />
        {t(field.label ?? 'list.true')}
      </span>
    ) : (
      emptyCell
    )
  }
  return (
    <span className={isOn ? 'text-emerald-600 dark:text-emerald-400' : 'text-slate-400'} title={t(isOn ? 'list.true' : 'list.false')}>
      <Icon name={isOn ? 'check' : 'x'} className="inline size-5" />
      <span className="sr-only">{t(isOn ? 'list.true' : 'list.false')}</span>
    </span>
  )
}

/** A number, an amount or a date, as the interface's language writes it. */
function FormattedCell({ field, value }: { field: AnyField; value: unknown }) {
  const { format } = useCellWords()
  switch (field.cell) {
    case 'number':
      return <>{typeof value === 'number' ? format.integer(value) : String(value)}</>
    case 'date':
      return <>{format.date(String(value))}</>
    case 'datetime':
      return <>{format.dateTime(String(value))}</>
    default:
      return <>{format.decimal(String(value), field.cell === 'money' ? 2 : (String(value).split('.')[1]?.length ?? 0))}</>
  }
}

function OptionCell({ value }: { value: string }) {
  const { t } = useCellWords()
  return <>{t(`option.${value}`, { defaultValue: value })}</>
}

/**
 * One list cell, by the field's `cell` kind (registry). Plain values (text, a reference's name,
 * a link) take no hook at all; only the cells with words or formats subscribe to the language.
 */
export function FieldCell({ field, value }: { field: AnyField; value: unknown }) {
  if (value === null || value === undefined || value === '') return emptyCell

  switch (field.cell) {
    case 'ref':
      return <>{refName(value)}</>
    case 'refs':
      return <RefsCell field={field} names={Array.isArray(value) ? value.map(refName) : []} />
    case 'boolean':
      return <BooleanCell field={field} isOn={value === true} />
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
    case 'decimal':
    case 'money':
    case 'date':
    case 'datetime':
      return <FormattedCell field={field} value={value} />
    case 'enum':
      return <OptionCell value={String(value)} />
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
