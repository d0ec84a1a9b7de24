import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { Action } from '../../../schema/kit'
import { useAccess } from '../../engine/access-context'
import { useEntity } from '../../engine/entities-context'
import { createRecord, deleteRecord, fetchList, updateRecord, type ListParams, type Row } from '../../engine/entity-api'
import { errorText } from '../../engine/errors'
import { entityKeys } from '../../engine/queries'
import { showAlert } from '../../engine/ui/notifications'
import { quickPanelKey } from './useQuickPanelData'

/**
 * The caller's own notes in the quick panel (issue 23; schema/entities/workspace/note.ts),
 * through the note's generic routes: listed pinned first, then the newest; added from a small
 * text box, pinned or unpinned, deleted. The server narrows every call to the caller's notes;
 * the panel offers what their permissions — or the note's `own` access — let them do.
 */
export const NOTES_SHOWN = 30
export const NOTE_MAX_LENGTH = 2000

export const notesListParams: ListParams = { page: 1, size: NOTES_SHOWN, ordering: '-pinned' }

export type QuickPanelNote = { id: number; text: string; isPinned: boolean }

const noteOf = (row: Row): QuickPanelNote => ({ id: row.id, text: typeof row.text === 'string' ? row.text : '', isPinned: row.pinned === true })

export function useQuickPanelNotes() {
  const { t } = useTranslation()
  const queryClient = useQueryClient()
  const note = useEntity('note')
  const access = useAccess()
  const may = (action: Action) => note !== undefined && (access.can(note.permissions[action]) || note.own?.actions.includes(action) === true)
  const isShown = may('LIST')

  const list = useQuery({
    queryKey: entityKeys.list('note', notesListParams),
    queryFn: ({ signal }) => fetchList(note!, notesListParams, signal),
    enabled: isShown,
  })
  const [draft, setDraft] = useState('')

  // The panel's counts include the notes for those who may list them.
  const refresh = () => Promise.all([queryClient.invalidateQueries({ queryKey: entityKeys.all('note') }), queryClient.invalidateQueries({ queryKey: quickPanelKey })])
  const onError = (error: unknown) => showAlert({ kind: 'error', text: errorText(t, error) })

  const add = useMutation({
    mutationFn: (text: string) => createRecord(note!, { text }),
    onSuccess: async () => {
      setDraft('')
      await refresh()
    },
    onError,
  })
  const pin = useMutation({ mutationFn: (n: QuickPanelNote) => updateRecord(note!, n.id, { pinned: !n.isPinned }), onSuccess: refresh, onError })
  const remove = useMutation({ mutationFn: (n: QuickPanelNote) => deleteRecord(note!, n.id), onSuccess: refresh, onError })

  const text = draft.trim()
  return {
    isShown,
    isLoading: list.isPending,
    isError: list.isError,
    notes: (list.data?.rows ?? []).map(noteOf),
    draft,
    setDraft,
    canAdd: may('CREATE'),
    canPin: may('UPDATE'),
    canDelete: may('DELETE'),
    isAddable: text !== '' && text.length <= NOTE_MAX_LENGTH && !add.isPending,
    add: () => {
      if (text !== '' && text.length <= NOTE_MAX_LENGTH) add.mutate(text)
    },
    togglePin: (n: QuickPanelNote) => pin.mutate(n),
    remove: (n: QuickPanelNote) => remove.mutate(n),
    /** The note a pin or a delete is under way for: its buttons wait. */
    busyId: pin.isPending ? pin.variables?.id : remove.isPending ? remove.variables?.id : undefined,
  }
}
