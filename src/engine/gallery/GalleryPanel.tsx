import { closestCenter, DndContext, KeyboardSensor, PointerSensor, useSensor, useSensors, type Announcements, type DragEndEvent } from '@dnd-kit/core'
import { rectSortingStrategy, SortableContext, sortableKeyboardCoordinates, useSortable } from '@dnd-kit/sortable'
import { CSS } from '@dnd-kit/utilities'
import { useId, useState, type DragEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { thumbnailOf } from '../../../schema/kit/media'
import { useAccess } from '../access-context'
import { Banner } from '../ui/Banner'
import { ConfirmDialog } from '../ui/ConfirmDialog'
import { Icon } from '../ui/icons'
import type { GalleryController, GalleryItem } from './useGallery'

/**
 * A gallery on its owner's form: pictures as tiles in their order. Several are added at
 * once (chosen or dropped), dragged into order (pointer, or keyboard: space, arrows, space),
 * or moved with the arrows beside each — dragging is never the only way — and removed.
 */
export function GalleryPanel({ gallery, isDisabled = false }: { gallery: GalleryController; isDisabled?: boolean }) {
  const { t } = useTranslation()
  const access = useAccess()
  const { entity } = gallery
  const headingId = useId()
  const inputId = useId()
  const [removing, setRemoving] = useState<GalleryItem | null>(null)
  const [isDropTarget, setIsDropTarget] = useState(false)
  const canAdd = !isDisabled && access.can(entity.permissions.CREATE)
  const canMove = !isDisabled && access.can(entity.permissions.UPDATE)
  const canRemove = !isDisabled && access.can(entity.permissions.DELETE)
  const sensors = useSensors(useSensor(PointerSensor, { activationConstraint: { distance: 6 } }), useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }))
  const sortable = gallery.items.slice(0, gallery.sortableCount)
  const placeOf = (key: unknown) => sortable.findIndex((item) => item.key === key) + 1
  const announcements: Announcements = {
    onDragStart: ({ active }) => t('gallery.picked', { n: placeOf(active.id) }),
    onDragOver: ({ over }) => (over ? t('gallery.over', { place: placeOf(over.id) }) : undefined),
    onDragEnd: ({ over }) => (over ? t('gallery.dropped', { place: placeOf(over.id) }) : t('gallery.cancelled')),
    onDragCancel: () => t('gallery.cancelled'),
  }
  const onDragEnd = ({ active, over }: DragEndEvent) => {
    if (!over) return
    gallery.move(placeOf(active.id) - 1, placeOf(over.id) - 1)
  }
  const onDrop = (e: DragEvent) => {
    e.preventDefault()
    setIsDropTarget(false)
    if (canAdd && e.dataTransfer.files.length > 0) void gallery.add([...e.dataTransfer.files])
  }

  return (
    <section aria-labelledby={headingId} className="space-y-3 pt-6">
      <div>
        <h2 id={headingId} className="text-base font-semibold text-slate-900 dark:text-slate-100">
          {t(entity.listTitleKey)}
        </h2>
        <p className="mt-1 text-sm text-slate-500 dark:text-slate-400">{t(gallery.hasStaged ? 'gallery.staged_note' : 'gallery.hint')}</p>
      </div>
      {gallery.loadError && <Banner kind="error">{gallery.loadError}</Banner>}
      {gallery.problems.map((problem) => (
        <Banner key={problem.key} kind="error">
          <span>{problem.text}</span>{' '}
          <button type="button" className="font-semibold underline underline-offset-2" onClick={() => gallery.dismissProblem(problem.key)}>
            {t('gallery.dismiss')}
          </button>
        </Banner>
      ))}
      <DndContext sensors={sensors} collisionDetection={closestCenter} onDragEnd={onDragEnd} accessibility={{ announcements, screenReaderInstructions: { draggable: t('gallery.instructions') } }}>
        <SortableContext items={sortable.map((item) => item.key)} strategy={rectSortingStrategy}>
          <ol className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-5" aria-busy={gallery.isLoading || undefined}>
            {gallery.items.map((item, index) => (
              <Tile
                key={item.key}
                item={item}
                place={index + 1}
                isSortable={canMove && index < gallery.sortableCount}
                isFirst={index === 0}
                isLast={index === gallery.sortableCount - 1}
                canRemove={canRemove || item.state !== 'stored'}
                onMove={(to) => gallery.move(index, to)}
                onRemove={() => (item.rowId !== undefined ? setRemoving(item) : gallery.dropLocal(item.key))}
              />
            ))}
            {canAdd && (
              <li>
                <label
                  htmlFor={inputId}
                  onDragOver={(e) => {
                    e.preventDefault()
                    setIsDropTarget(true)
                  }}
                  onDragLeave={() => setIsDropTarget(false)}
                  onDrop={onDrop}
                  className={`flex aspect-square cursor-pointer flex-col items-center justify-center gap-1 rounded-lg border-2 border-dashed p-2 text-center text-sm font-medium focus-within:ring-3 focus-within:ring-indigo-500/30 ${isDropTarget ? 'border-indigo-500 bg-indigo-50 text-indigo-700 dark:bg-indigo-950 dark:text-indigo-300' : 'border-slate-300 text-slate-600 hover:border-indigo-400 hover:text-indigo-700 dark:border-slate-700 dark:text-slate-300'}`}
                >
                  <Icon name="camera" className="size-6" />
                  <span>{t('gallery.add')}</span>
                  <span className="text-xs font-normal text-slate-500 dark:text-slate-400">{t('gallery.drop')}</span>
                  <input
                    id={inputId}
                    type="file"
                    multiple
                    className="sr-only"
                    accept={(entity.fields[entity.gallery!.image]!.accept ?? ['image/png', 'image/jpeg', 'image/gif', 'image/webp']).join(',')}
                    onChange={(e) => {
                      const files = [...(e.target.files ?? [])]
                      // The same files may be chosen again after a refusal.
                      e.target.value = ''
                      if (files.length > 0) void gallery.add(files)
                    }}
                  />
                </label>
              </li>
            )}
          </ol>
        </SortableContext>
      </DndContext>
      {!gallery.isLoading && gallery.items.length === 0 && !canAdd && <p className="text-sm text-slate-500 dark:text-slate-400">{t('gallery.empty')}</p>}
      <ConfirmDialog
        isOpen={removing !== null}
        title={t('gallery.remove_title')}
        confirmLabel={t('gallery.remove_confirm')}
        cancelLabel={t('gallery.keep')}
        tone="danger"
        isBusy={gallery.isRemoving}
        onCancel={() => setRemoving(null)}
        onConfirm={() => {
          const rowId = removing?.rowId
          if (rowId === undefined) return
          void gallery.remove(rowId).finally(() => setRemoving(null))
        }}
      >
        {t('gallery.remove_text')}
      </ConfirmDialog>
    </section>
  )
}

function Tile({
  item,
  place,
  isSortable,
  isFirst,
  isLast,
  canRemove,
  onMove,
  onRemove,
}: {
  item: GalleryItem
  place: number
  isSortable: boolean
  isFirst: boolean
  isLast: boolean
  canRemove: boolean
  onMove: (to: number) => void
  onRemove: () => void
}) {
  const { t } = useTranslation()
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({ id: item.key, disabled: !isSortable })
  const src = item.state === 'stored' ? thumbnailOf(item.src) : item.src
  const iconButton = 'rounded-md bg-white/90 p-1 text-slate-700 shadow-sm hover:bg-white hover:text-slate-900 disabled:opacity-40 dark:bg-slate-900/90 dark:text-slate-200'
  return (
    <li
      ref={setNodeRef}
      style={{ transform: CSS.Transform.toString(transform), transition }}
      aria-label={t('gallery.picture', { n: place })}
      className={`group relative aspect-square overflow-hidden rounded-lg border bg-slate-50 dark:bg-slate-800 ${isDragging ? 'z-10 border-indigo-500 shadow-lg' : 'border-slate-200 dark:border-slate-700'}`}
    >
      {src ? (
        <img
          src={src}
          alt={t('gallery.picture', { n: place })}
          loading="lazy"
          decoding="async"
          className={`size-full object-cover ${item.state === 'uploading' ? 'opacity-50' : ''}`}
          onError={(e) => {
            // A picture stored before thumbnails existed has none: the original then.
            if (item.state === 'stored' && e.currentTarget.src.endsWith('.thumb.webp')) e.currentTarget.src = item.src
          }}
        />
      ) : (
        <span className="flex size-full items-center justify-center text-xs text-slate-500">{item.name}</span>
      )}
      <span className="absolute start-1.5 top-1.5 rounded bg-slate-900/70 px-1.5 text-xs font-medium text-white">{place}</span>
      {item.state === 'uploading' && (
        <span role="status" className="absolute inset-x-0 bottom-0 bg-slate-900/70 px-2 py-1 text-xs text-white">
          {t('gallery.uploading', { name: item.name })}
        </span>
      )}
      {item.state === 'failed' && (
        <span role="alert" className="absolute inset-x-0 bottom-0 bg-red-700/90 px-2 py-1 text-xs text-white">
          {item.error}
        </span>
      )}
      <div className="absolute end-1.5 top-1.5 flex gap-1">
        {isSortable && (
          <button type="button" ref={setActivatorNodeRef} {...attributes} {...listeners} aria-label={t('gallery.drag', { n: place })} className={`${iconButton} cursor-grab touch-none active:cursor-grabbing`}>
            <Icon name="dotsVertical" className="size-4" />
          </button>
        )}
        {canRemove && item.state !== 'uploading' && (
          <button type="button" onClick={onRemove} aria-label={t('gallery.remove', { n: place })} className={iconButton}>
            <Icon name="trash" className="size-4" />
          </button>
        )}
      </div>
      {isSortable && (
        <div className="absolute inset-x-1.5 bottom-1.5 flex justify-between">
          <button type="button" onClick={() => onMove(place - 2)} disabled={isFirst} aria-label={t('gallery.move_earlier', { n: place })} className={iconButton}>
            <Icon name="chevronStart" className="flip-rtl size-4" />
          </button>
          <button type="button" onClick={() => onMove(place)} disabled={isLast} aria-label={t('gallery.move_later', { n: place })} className={iconButton}>
            <Icon name="chevronEnd" className="flip-rtl size-4" />
          </button>
        </div>
      )}
    </li>
  )
}
