import { Link } from '@tanstack/react-router'
import { useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { AnyField } from '../../../schema/kit'
import type { AnyEntity } from '../entity-api'
import { useEntities, useReports } from '../entities-context'
import { FieldCell } from '../list/FieldCell'
import { Icon } from '../ui/icons'
import { useFormat } from '../../i18n/useFormat'
import { groupAction, placeOf, relativeParts, splitRowChanges, type HistoryEntry, type HistoryGroup } from './history-model'

/**
 * One save in a record's history: who, when (how long ago, and the exact time), what they did
 * and from which screen; then what changed — each field's value before and after, as the
 * list cells show values (a reference by its name, a secret only as changed, long text
 * folded) — and under it the lines it touched ("Line 2 · Cups: Quantity 3 → 5").
 */
const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)
const isBlank = (v: unknown) => v === null || v === undefined || v === '' || (Array.isArray(v) && v.length === 0)

/** Text longer than this is folded, with a button to show it whole. */
const LONG_TEXT = 120
/** A new or removed record's values are folded when there are more than this many. */
const OPEN_VALUES = 6

function LongText({ text }: { text: string }) {
  const { t } = useTranslation()
  const [isOpen, setIsOpen] = useState(false)
  if (text.length <= LONG_TEXT) return <span className="break-words whitespace-pre-wrap">{text}</span>
  return (
    <span className="break-words whitespace-pre-wrap">
      {isOpen ? text : `${text.slice(0, LONG_TEXT - 1)}…`}{' '}
      <button type="button" aria-expanded={isOpen} onClick={() => setIsOpen((open) => !open)} className="text-xs font-medium text-indigo-600 hover:underline dark:text-indigo-400">
        {t(isOpen ? 'history.show_less' : 'history.show_more')}
      </button>
    </span>
  )
}

/** Formatted text as its words: parsed inert (DOMParser runs no script), never rendered as HTML. */
const wordsOf = (html: string) => new DOMParser().parseFromString(html, 'text/html').body.textContent ?? ''

/** A value as its field's list cell shows it; a reference with the name the server found for it. */
export function HistoryValue({ field, value, label }: { field: AnyField | undefined; value: unknown; label: unknown }) {
  if (isBlank(value)) return <span className="text-slate-400 dark:text-slate-500">—</span>
  if (!field) return <LongText text={typeof value === 'object' ? JSON.stringify(value) : String(value)} />
  if (field.kind === 'ref') return <FieldCell field={field} value={{ id: value, name: typeof label === 'string' ? label : `#${String(value)}` }} />
  if (field.kind === 'refs' && Array.isArray(value)) {
    const names = Array.isArray(label) ? label : []
    return <FieldCell field={field} value={value.map((id, i) => ({ id, name: typeof names[i] === 'string' ? names[i] : `#${String(id)}` }))} />
  }
  if (field.kind === 'lines') return <span className="tabular-nums">{String(value)}</span>
  if (field.cell === 'html') return <LongText text={wordsOf(String(value))} />
  if (field.cell === 'text' && typeof value === 'string') return <LongText text={value} />
  return <FieldCell field={field} value={value} />
}

/** Changes a person reads: not what an action was given (said apart) nor the engine's own stamps. */
const shownChanges = (entry: HistoryEntry, hideLines: boolean, entity: AnyEntity | undefined) =>
  Object.keys(entry.changes).filter((name) => !name.startsWith('_') && name !== 'updated_at' && !(hideLines && entity?.fields[name]?.kind === 'lines'))

/** How a table says values: a change as before and after; a record made or removed as the values it had. */
type DiffMode = 'change' | 'made' | 'removed'
const modeOf = (action: string): DiffMode => (action === 'create' ? 'made' : action === 'delete' ? 'removed' : 'change')

function DiffTable({ entity, entry, names, caption, mode = 'change' }: { entity: AnyEntity | undefined; entry: HistoryEntry; names: readonly string[]; caption: string; mode?: DiffMode }) {
  const { t } = useTranslation()
  const fieldLabel = (name: string) => t(entity?.fieldLabelKey(name) ?? `field.${name}`, { defaultValue: name })
  return (
    <table className="w-full table-fixed text-start text-sm">
      <caption className="sr-only">{caption}</caption>
      <thead className="text-xs text-slate-500 dark:text-slate-400">
        <tr>
          <th scope="col" className="w-1/4 py-1 pe-3 text-start font-medium">
            {t('history.field')}
          </th>
          {mode === 'change' ? (
            <>
              <th scope="col" className="py-1 pe-3 text-start font-medium">
                {t('history.before')}
              </th>
              <th scope="col" className="py-1 text-start font-medium">
                {t('history.after')}
              </th>
            </>
          ) : (
            <th scope="col" className="py-1 text-start font-medium">
              {t('history.value')}
            </th>
          )}
        </tr>
      </thead>
      <tbody className="divide-y divide-slate-100 align-top dark:divide-slate-800">
        {names.map((name) => {
          const field = entity?.fields[name]
          const [before, after] = entry.changes[name] ?? [null, null]
          const [beforeLabel, afterLabel] = entry.labels[name] ?? [null, null]
          const isMasked = entry.masked.includes(name)
          return (
            <tr key={name}>
              <th scope="row" className="py-1.5 pe-3 text-start font-medium break-words text-slate-700 dark:text-slate-200">
                {fieldLabel(name)}
              </th>
              {isMasked ? (
                <td colSpan={mode === 'change' ? 2 : 1} className="py-1.5 text-slate-600 italic dark:text-slate-300">
                  <span className="inline-flex items-center gap-1">
                    <Icon name="lock" className="size-3.5" />
                    {t('history.secret_changed')}
                  </span>
                </td>
              ) : mode === 'change' ? (
                <>
                  <td className="py-1.5 pe-3 break-words text-slate-500 line-through decoration-slate-300 dark:text-slate-400 dark:decoration-slate-600">
                    <HistoryValue field={field} value={before} label={beforeLabel} />
                  </td>
                  <td className="py-1.5 break-words text-slate-900 dark:text-slate-100">
                    <HistoryValue field={field} value={after} label={afterLabel} />
                  </td>
                </>
              ) : (
                <td className="py-1.5 break-words text-slate-900 dark:text-slate-100">
                  {mode === 'made' ? <HistoryValue field={field} value={after} label={afterLabel} /> : <HistoryValue field={field} value={before} label={beforeLabel} />}
                </td>
              )}
            </tr>
          )
        })}
      </tbody>
    </table>
  )
}

/** A new or removed record's values: many are folded behind a button, so a long form does not flood its history. */
function Values({ entity, entry, names, caption }: { entity: AnyEntity | undefined; entry: HistoryEntry; names: readonly string[]; caption: string }) {
  const { t } = useTranslation()
  const id = useId()
  const isFolded = names.length > OPEN_VALUES
  const [isOpen, setIsOpen] = useState(!isFolded)
  if (names.length === 0) return null
  return (
    <div>
      {isFolded && (
        <button type="button" aria-expanded={isOpen} aria-controls={id} onClick={() => setIsOpen((open) => !open)} className="inline-flex items-center gap-1 text-xs font-medium text-indigo-600 hover:underline dark:text-indigo-400">
          {t(isOpen ? 'history.hide_values' : 'history.show_values', { count: names.length })}
          <Icon name="chevronDown" className={`size-3.5 transition-transform ${isOpen ? 'rotate-180' : ''}`} />
        </button>
      )}
      {isOpen && (
        <div id={id} className="mt-1">
          <DiffTable entity={entity} entry={entry} names={names} caption={caption} mode={modeOf(entry.action)} />
        </div>
      )}
    </div>
  )
}

/** What a change shows: an update its fields; a record made or removed, the values it had that were not empty. */
function changedNames(entry: HistoryEntry, entity: AnyEntity | undefined, hideLines: boolean) {
  const names = shownChanges(entry, hideLines, entity)
  if (entry.action === 'create' || entry.action === 'delete') return names.filter((n) => !isBlank(entry.changes[n]?.[0]) || !isBlank(entry.changes[n]?.[1]))
  return names
}

function ActionGiven({ entity, entry }: { entity: AnyEntity | undefined; entry: HistoryEntry }) {
  const { t } = useTranslation()
  const input = entry.changes._input
  const given = input && isRecord(input[1]) ? Object.entries(input[1]) : []
  const action = entity?.actions[entry.action]
  const shown = given.filter(([, v]) => !isBlank(v))
  if (shown.length === 0) return null
  return (
    <p className="flex flex-wrap gap-x-3 text-sm text-slate-600 dark:text-slate-300">
      {shown.map(([k, v]) => {
        const label = entry.labels[`_input.${k}`]?.[1]
        return (
          <span key={k}>
            {t(action?.input[k]?.label ?? `field.${k}`)}: <HistoryValue field={action?.input[k]} value={v} label={label} />
          </span>
        )
      })}
    </p>
  )
}

export function useVerb() {
  const { t } = useTranslation()
  return (entity: AnyEntity | undefined, action: string) =>
    ['create', 'update', 'delete'].includes(action) ? t(`history.${action}d`) : t(entity?.actions[action]?.labelKey ?? `action.${action}`, { defaultValue: action })
}

/** Where it was made: the screen's title when the path is one of the app's, else the route. */
function Place({ source }: { source: string }) {
  const { t } = useTranslation()
  const entities = useEntities()
  const reports = useReports()
  const place = placeOf(source, entities, reports)
  const one = (entity: AnyEntity) => t(`${entity.labelKey}.one`)
  const text =
    place.kind === 'list'
      ? t(place.entity.listTitleKey)
      : place.kind === 'form'
        ? t(place.isNew ? 'form.new_title' : 'form.edit_title', { entity: one(place.entity) })
        : place.kind === 'report'
          ? t(place.report.labelKey)
          : null
  return (
    <span className="inline-flex min-w-0 items-center gap-1" title={source}>
      <Icon name="arrowTopEnd" className="flip-rtl size-3.5 shrink-0" />
      {text ?? (
        <bdi dir="ltr" className="truncate font-mono text-xs">
          {place.kind === 'other' ? place.text : source}
        </bdi>
      )}
    </span>
  )
}

function When({ at }: { at: string }) {
  const { i18n } = useTranslation()
  const format = useFormat()
  const { value, unit } = relativeParts(at, Date.now())
  const relative = new Intl.RelativeTimeFormat(i18n.resolvedLanguage ?? i18n.language, { numeric: 'auto' }).format(value, unit)
  const exact = format.dateTime(at)
  return (
    <time dateTime={at} title={exact} className="tabular-nums">
      {relative} <span className="text-slate-400 dark:text-slate-500">· {exact}</span>
    </time>
  )
}

function LineEntry({ entity: rowEntity, document, entry }: { entity: AnyEntity | undefined; document: AnyEntity; entry: HistoryEntry }) {
  const { t } = useTranslation()
  const line = entry.line!
  // A line's fields as its document's lines field declares them (a row of a voucher: the line's ledger and amounts).
  const entity = document.fields[line.field]?.lines?.entity ?? rowEntity
  const names = changedNames(entry, entity, false)
  const where = line.position !== null ? t('history.line', { n: line.position }) : t('history.line_gone')
  const many = document.linesFieldNames.length > 1 ? `${t(document.fieldLabelKey(line.field))} · ` : ''
  const verb = entry.action === 'create' ? t('history.line_created') : entry.action === 'delete' ? t('history.line_deleted') : t('history.updated')
  const title = `${many}${where}${line.label ? ` · ${line.label}` : ''}`
  return (
    <li className="space-y-1 border-s-2 border-slate-200 ps-3 dark:border-slate-700">
      <p className="flex flex-wrap items-baseline gap-x-2 text-sm">
        <span className="font-medium text-slate-800 dark:text-slate-100">{title}</span>
        <span className="text-xs text-slate-500 dark:text-slate-400">
          {verb}
          {line.from !== undefined && ` · ${t('history.line_moved', { from: line.from })}`}
        </span>
      </p>
      {entry.action === 'update' ? (
        names.length > 0 && <DiffTable entity={entity} entry={entry} names={names} caption={title} />
      ) : (
        <Values entity={entity} entry={entry} names={names} caption={title} />
      )}
    </li>
  )
}

/** A row of another record (a payment of an order) by its kind and name, linking to its form while it stands. */
function OtherRecord({ entity, entry }: { entity: AnyEntity | undefined; entry: HistoryEntry }) {
  const { t } = useTranslation()
  const name = entry.label ?? `#${entry.entity_id}`
  return (
    <span>
      {t(`${entity?.labelKey ?? `entity.${entry.entity}`}.one`)}{' '}
      {entity && !entity.isLine && entry.action !== 'delete' ? (
        <Link to={`${entity.ui.formPath}/${entry.entity_id}`} className="font-mono text-xs text-indigo-600 hover:underline dark:text-indigo-400">
          {name}
        </Link>
      ) : (
        <span className="font-mono text-xs">{name}</span>
      )}
    </span>
  )
}

export function HistoryGroupItem({ entity, group }: { entity: AnyEntity; group: HistoryGroup }) {
  const { t } = useTranslation()
  const entities = useEntities()
  const verb = useVerb()
  const { header, lines } = splitRowChanges(entity, group)
  const first = header ?? lines[0]!
  const entityOf = (name: string) => (name === entity.name ? entity : entities.find((e) => e.name === name))
  const own = header ? entityOf(header.entity) : undefined
  const isOther = header !== null && (header.part !== undefined ? header.part === 'related' : header.entity !== entity.name && header.line === null && !sameTable(entity, own))
  const action = groupAction(group)
  const names = header ? changedNames(header, own, lines.length > 0) : []
  const caption = `${verb(own ?? entity, action)} · ${first.actor ?? t('history.system')}`
  return (
    <li className="space-y-2 px-4 py-3 sm:px-6" data-entry={first.id}>
      <div className="flex flex-wrap items-baseline gap-x-3 gap-y-1 text-sm">
        <span className="font-semibold text-slate-900 dark:text-slate-100">{first.actor ?? t('history.system')}</span>
        <span className="font-medium text-slate-700 dark:text-slate-200">
          {isOther && (
            <>
              <OtherRecord entity={own} entry={header} /> —{' '}
            </>
          )}
          {verb(own ?? entity, action)}
        </span>
        {first.batch && <span className="rounded-full bg-amber-100 px-2 py-0.5 text-xs font-medium text-amber-800 dark:bg-amber-950 dark:text-amber-200">{t('history.bulk')}</span>}
        <span className="text-xs text-slate-500 dark:text-slate-400">
          <When at={first.at} />
        </span>
        {first.source && (
          <span className="min-w-0 text-xs text-slate-500 dark:text-slate-400">
            <Place source={first.source} />
          </span>
        )}
      </div>
      {header && <ActionGiven entity={own} entry={header} />}
      {header &&
        names.length > 0 &&
        (modeOf(action) === 'change' ? (
          <DiffTable entity={own} entry={header} names={names} caption={caption} />
        ) : (
          <Values entity={own} entry={header} names={names} caption={caption} />
        ))}
      {lines.length > 0 && (
        <ul className="space-y-2" aria-label={t('history.lines')}>
          {lines.map((line) => (
            <LineEntry key={line.id} entity={entityOf(line.entity)} document={entity} entry={line} />
          ))}
        </ul>
      )}
    </li>
  )
}

/** Another entity of the same table (a user's row changed on the employee form): the record's own. */
function sameTable(entity: AnyEntity, other: AnyEntity | undefined): boolean {
  if (!other) return false
  const root = (e: AnyEntity) => e.parent?.name ?? e.name
  return root(entity) === root(other)
}
