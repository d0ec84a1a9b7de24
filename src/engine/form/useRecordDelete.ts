import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useNavigate } from '@tanstack/react-router'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { deleteRecord, type AnyEntity, type Row } from '../entity-api'
import { listReturn } from '../list/list-return'
import { entityKeys } from '../queries'
import { offerUndoDelete } from '../trash/trash-api'
import { showAlert } from '../ui/notifications'

/**
 * Deleting the record a form shows: asked first (the list's confirmation, which says what
 * refers to it), then done, said in the server's words, and back to the list — with an Undo
 * when the record went to the Trash.
 */
export function useRecordDelete(entity: AnyEntity, row: Row | null, beforeLeave: () => void, doneKey?: string) {
  const { t } = useTranslation()
  const queryClient = useQueryClient()
  const navigate = useNavigate()
  const [isAsking, setIsAsking] = useState(false)
  const remove = useMutation({
    mutationFn: () => deleteRecord(entity, row!.id),
    onSuccess: async ({ detail, batch }) => {
      setIsAsking(false)
      const refresh = () => queryClient.invalidateQueries({ queryKey: entityKeys.all(entity.name) })
      // What went to the Trash says so, with an Undo, on the list the form returns to.
      if (entity.trash && batch) offerUndoDelete(entity, batch, 1, { onRestored: refresh })
      else showAlert({ kind: 'success', text: doneKey ? t(doneKey) : (detail ?? t('list.deleted', { entity: t(`${entity.labelKey}.one`) })) })
      beforeLeave()
      await refresh()
      await navigate(listReturn(entity))
    },
  })
  return {
    isAsking,
    ask: () => {
      remove.reset()
      setIsAsking(true)
    },
    cancel: () => setIsAsking(false),
    confirm: () => remove.mutate(),
    isDeleting: remove.isPending,
    error: remove.error,
  }
}
