import { useTranslation } from 'react-i18next'
import { useFormat } from '../../i18n/useFormat'
import { useEntities } from '../entities-context'
import type { AnyEntity, DeleteEffect, DeleteImpact } from '../entity-api'
import { errorText } from '../errors'
import { useDeleteImpact } from '../queries'
import { ConfirmDialog } from '../ui/ConfirmDialog'
import { Spinner } from '../ui/PageSpinner'
import type { PendingDelete } from './useListController'

/**
 * The confirmation of a delete, for one record or a selection: before anything is done it
 * asks the server what refers to them (`delete_impact/`) and says it with the screens' names —
 * "3 Police Stations" refer to it and it cannot be deleted (only Close is offered), or
 * what the delete will also do: rows deleted with it, links cleared, links removed.
 * Loaded the first time a delete is asked for.
 */
const EFFECT_ORDER: readonly DeleteEffect[] = ['refuse', 'delete', 'clear', 'unlink']

function ImpactList({ impact, isSelection }: { impact: DeleteImpact; isSelection: boolean }) {
  const { t } = useTranslation()
  const format = useFormat()
  const entities = useEntities()
  const suffix = isSelection ? '_selection' : ''
  return (
    <>
      {EFFECT_ORDER.map((effect) => {
        const items = impact.references.filter((r) => r.effect === effect)
        if (items.length === 0) return null
        return (
          <div key={effect} data-effect={effect} className={effect === 'refuse' ? 'rounded-lg bg-red-50 p-3 text-red-900 dark:bg-red-950/50 dark:text-red-100' : ''}>
            <p className="font-medium">{t(`list.impact_${effect}${suffix}`)}</p>
            <ul className="mt-1 list-disc space-y-0.5 ps-5">
              {items.map((r) => {
                const referring = entities.find((e) => e.name === r.entity)
                // Languages differ in the noun after a number (Turkish: "3 Karakol"): each catalogue picks its form.
                const one = t(`entity.${r.entity}.one`, { defaultValue: r.entity })
                const other = t(`entity.${r.entity}.other`, { defaultValue: r.entity })
                // Which of their fields is cleared or unlinked: "1 Branch (District)".
                const field = effect === 'clear' && referring ? t(referring.fieldLabelKey(r.field)) : undefined
                return (
                  <li key={`${r.entity}.${r.field}`}>
                    {t(field ? 'list.impact_item_field' : 'list.impact_item', { count: format.integer(r.count), entity: r.count === 1 ? one : other, one, other, field })}
                  </li>
                )
              })}
            </ul>
          </div>
        )
      })}
    </>
  )
}

export function DeleteDialog({
  entity,
  pending,
  isOpen,
  isBusy,
  onConfirm,
  onCancel,
  words,
  error,
}: {
  entity: AnyEntity
  /** What is asked about (kept while the dialog animates closed). */
  pending: PendingDelete | null
  isOpen: boolean
  isBusy: boolean
  onConfirm: () => void
  onCancel: () => void
  /** A module's own words for its delete (a voucher is cancelled, not deleted). */
  words?: { title: string; confirm: string; cancel: string; text: string }
  /** Why the delete itself failed, when it did. */
  error?: unknown
}) {
  const { t } = useTranslation()
  const target = !isOpen || !pending ? null : pending.kind === 'one' ? pending.row.id : pending.ids
  const impact = useDeleteImpact(entity, target)
  const isSelection = pending?.kind === 'many'
  const count = pending?.kind === 'many' ? pending.ids.length : 1
  const canDelete = impact.data?.canDelete ?? true
  const plural = t(`${entity.labelKey}.other`)
  const one = t(`${entity.labelKey}.one`)
  return (
    <ConfirmDialog
      isOpen={isOpen}
      title={words?.title ?? (isSelection ? t('list.confirm_bulk_title') : t('list.confirm_delete_title', { entity: one }))}
      confirmLabel={words?.confirm ?? t('common.delete')}
      cancelLabel={canDelete ? (words?.cancel ?? t('common.cancel')) : t('common.close')}
      onConfirm={onConfirm}
      onCancel={onCancel}
      isBusy={isBusy}
      isConfirmDisabled={impact.isPending && target !== null}
      canConfirm={canDelete}
    >
      {canDelete && (
        <p>
          {words?.text ??
            // A Trash keeps what is deleted: the question says so rather than "This cannot be undone".
            (isSelection
              ? t(entity.trash ? 'list.confirm_trash_bulk_text' : 'list.confirm_bulk_text', { count, entity: count === 1 ? one : plural })
              : t(entity.trash ? 'list.confirm_trash_text' : 'list.confirm_delete_text', { label: pending?.kind === 'one' ? pending.label : '' }))}
        </p>
      )}
      {error ? <p className="text-red-600 dark:text-red-400">{errorText(t, error)}</p> : null}
      {impact.isPending && target !== null && (
        <p className="flex items-center gap-2 text-slate-500 dark:text-slate-400" role="status">
          <Spinner className="size-4" />
          {t(isSelection ? 'list.impact_checking_selection' : 'list.impact_checking')}
        </p>
      )}
      {/* The check failed (the server will still refuse what it must): say so, and let the user go on. */}
      {impact.isError && <p className="text-amber-700 dark:text-amber-300">{t('list.impact_failed', { reason: errorText(t, impact.error) })}</p>}
      {impact.data && <ImpactList impact={impact.data} isSelection={isSelection} />}
    </ConfirmDialog>
  )
}
