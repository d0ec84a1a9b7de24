import { useTranslation } from 'react-i18next'
import type { AnyField } from '../../../schema/kit'
import { useFormat } from '../../i18n/useFormat'
import { Icon } from '../ui/icons'

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

const hrefOf = (url: string) => (/^[a-z][a-z0-9+.-]*:/i.test(url) ? url : `https://${url}`)

const linkClass = 'text-indigo-600 hover:underline dark:text-indigo-400'

/** One list cell, by the field's `cell` kind (registry). */
export function FieldCell({ field, value }: { field: AnyField; value: unknown }) {
  const { t } = useTranslation()
  const format = useFormat()
  if (value === null || value === undefined || value === '') return <span className="text-slate-300 dark:text-slate-600">—</span>

  switch (field.cell) {
    case 'ref':
      return <>{refName(value)}</>
    case 'refs':
      return <>{Array.isArray(value) ? value.map(refName).join(', ') : ''}</>
    case 'boolean': {
      const isOn = value === true
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
    case 'image':
      return <img src={String(value)} alt="" className="size-9 rounded object-cover ring-1 ring-slate-200 dark:ring-slate-700" loading="lazy" />
    case 'file':
      return (
        <a href={String(value)} className={linkClass} target="_blank" rel="noreferrer" onClick={(e) => e.stopPropagation()}>
          {String(value).split('/').pop()}
        </a>
      )
    case 'json': {
      const text = JSON.stringify(value)
      return <code className="text-xs">{text.length > 60 ? `${text.slice(0, 57)}…` : text}</code>
    }
    default:
      return <>{String(value)}</>
  }
}
