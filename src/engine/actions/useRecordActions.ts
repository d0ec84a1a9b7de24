import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { EntityAction } from '../../../schema/kit'
import { useAccess } from '../access-context'
import { runEntityAction, type AnyEntity, type Row } from '../entity-api'
import { entityKeys } from '../queries'
import { showAlert } from '../ui/notifications'

/**
 * The custom actions of a record (registry `actions`), headless: those the user may run
 * (their permission) and that apply to the row as it stands (`isAvailable`), the step each
 * needs before it runs (its input, its confirmation, or none), and the run itself, after
 * which every view of the entity is read again.
 */
export type ActionStep = { action: EntityAction; step: 'input' | 'confirm' } | null

export function useRecordActions(entity: AnyEntity, row: Row, onDone?: (after: Row) => void) {
  const { t } = useTranslation()
  const access = useAccess()
  const queryClient = useQueryClient()
  const [pending, setPending] = useState<ActionStep>(null)
  const available = Object.values(entity.actions).filter((a) => access.canDo(entity, a.name) && (a.isAvailable?.(row) ?? true))

  const run = useMutation({
    mutationFn: ({ action, input }: { action: EntityAction; input: Record<string, unknown> }) => runEntityAction(entity, row.id, action.name, input),
    onSuccess: async (after, { action }) => {
      setPending(null)
      if (after && typeof after.id === 'number') {
        queryClient.setQueryData(entityKeys.record(entity.name, after.id), after)
        onDone?.(after)
      }
      showAlert({ kind: 'success', key: 'action.done', params: { action: t(action.labelKey), entity: t(`${entity.labelKey}.one`) } })
      await queryClient.invalidateQueries({ queryKey: entityKeys.all(entity.name) })
    },
  })

  return {
    available,
    pending,
    /** Starts an action: asks for its input or a confirmation first when it declares them. */
    start: (action: EntityAction) => {
      run.reset()
      if (action.inputNames.length > 0) setPending({ action, step: 'input' })
      else if (action.confirmKey) setPending({ action, step: 'confirm' })
      else run.mutate({ action, input: {} })
    },
    confirm: (input: Record<string, unknown> = {}) => {
      if (pending) run.mutate({ action: pending.action, input })
    },
    cancel: () => {
      setPending(null)
      run.reset()
    },
    isRunning: run.isPending,
    error: run.error,
  }
}
