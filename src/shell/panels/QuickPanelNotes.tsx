import { useId } from 'react'
import { useTranslation } from 'react-i18next'
import { Icon } from '../../engine/ui/icons'
import { NOTE_MAX_LENGTH, useQuickPanelNotes } from './useQuickPanelNotes'

const heading = 'flex items-center gap-2 text-xs font-semibold uppercase tracking-wider text-slate-500 dark:text-slate-400'
const iconButton =
  'rounded p-1 text-slate-500 hover:bg-slate-100 hover:text-slate-800 focus-visible:outline focus-visible:outline-2 focus-visible:outline-indigo-500 disabled:opacity-50 dark:text-slate-400 dark:hover:bg-slate-800 dark:hover:text-slate-100'

/** The caller's own notes (useQuickPanelNotes): a box to add one, then theirs, pinned first. */
export function QuickPanelNotes() {
  const { t } = useTranslation()
  const notes = useQuickPanelNotes()
  const titleId = useId()
  if (!notes.isShown) return null

  return (
    <section aria-labelledby={titleId} data-testid="quick-panel-notes">
      <h3 id={titleId} className={heading}>
        <Icon name="document" className="size-4" />
        {t('quick_panel.notes')}
      </h3>
      {notes.canAdd && (
        <form
          className="mt-2 space-y-2"
          onSubmit={(event) => {
            event.preventDefault()
            notes.add()
          }}
        >
          <textarea
            aria-label={t('quick_panel.new_note')}
            placeholder={t('quick_panel.new_note_placeholder')}
            value={notes.draft}
            maxLength={NOTE_MAX_LENGTH}
            rows={2}
            onChange={(event) => notes.setDraft(event.target.value)}
            className="block w-full resize-y rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm dark:border-slate-700 dark:bg-slate-900"
          />
          <button
            type="submit"
            disabled={!notes.isAddable}
            className="inline-flex items-center gap-1 rounded-md bg-indigo-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-indigo-700 disabled:opacity-50"
          >
            <Icon name="plus" className="size-4" />
            {t('quick_panel.add_note')}
          </button>
        </form>
      )}
      {notes.isLoading ? null : notes.isError ? (
        <p role="alert" className="mt-2 text-sm text-red-700 dark:text-red-300">
          {t('quick_panel.notes_unavailable')}
        </p>
      ) : notes.notes.length === 0 ? (
        <p className="mt-2 text-sm text-slate-500 dark:text-slate-400">{t('quick_panel.no_notes')}</p>
      ) : (
        <ul className="mt-3 space-y-2">
          {notes.notes.map((note) => (
            <li
              key={note.id}
              data-pinned={note.isPinned}
              className="flex items-start gap-2 rounded-lg border border-slate-200 px-3 py-2 text-sm data-[pinned=true]:border-amber-300 data-[pinned=true]:bg-amber-50 dark:border-slate-800 dark:data-[pinned=true]:border-amber-700 dark:data-[pinned=true]:bg-amber-950"
            >
              <p className="min-w-0 flex-1 whitespace-pre-wrap break-words">{note.text}</p>
              {notes.canPin && (
                <button
                  type="button"
                  className={iconButton}
                  aria-pressed={note.isPinned}
                  aria-label={t(note.isPinned ? 'quick_panel.unpin_note' : 'quick_panel.pin_note')}
                  title={t(note.isPinned ? 'quick_panel.unpin_note' : 'quick_panel.pin_note')}
                  disabled={notes.busyId === note.id}
                  onClick={() => notes.togglePin(note)}
                >
                  <Icon name="star" className={note.isPinned ? 'size-4 fill-amber-400 text-amber-500' : 'size-4'} />
                </button>
              )}
              {notes.canDelete && (
                <button
                  type="button"
                  className={iconButton}
                  aria-label={t('quick_panel.delete_note')}
                  title={t('quick_panel.delete_note')}
                  disabled={notes.busyId === note.id}
                  onClick={() => notes.remove(note)}
                >
                  <Icon name="trash" className="size-4" />
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}
