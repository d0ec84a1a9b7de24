import { closestCenter, DndContext, KeyboardSensor, PointerSensor, useSensor, useSensors, type Announcements, type DragEndEvent } from '@dnd-kit/core'
import { SortableContext, sortableKeyboardCoordinates, useSortable, verticalListSortingStrategy } from '@dnd-kit/sortable'
import { CSS } from '@dnd-kit/utilities'
import { Popover, PopoverButton, PopoverPanel } from '@headlessui/react'
import { useId } from 'react'
import { useTranslation } from 'react-i18next'
import { densities } from '../../../schema/kit/list-view'
import type { AnyEntity } from '../entity-api'
import { Icon } from '../ui/icons'
import { visibleColumnsOf, withColumnMoved, withColumnShown, type ListLayout } from './column-layout'
import { restrictToVerticalAxis } from './drag-axis'
import { popoverPanelClass, toolButtonClass, ToolLabel } from './tool-button'

/**
 * The list's "Columns" popover: each column the list may show, with a checkbox to show or hide
 * it, dragged into order (pointer, or keyboard: space, arrows, space) or moved a step with the
 * arrows beside it — dragging is never the only way — a reset to the registry's columns, and
 * the rows' density. Widths are dragged on the headers themselves (ColumnResizeHandle).
 */
const stepButton =
  'rounded p-1 text-slate-500 hover:bg-slate-100 hover:text-slate-800 focus-visible:outline-2 focus-visible:outline-indigo-500 disabled:invisible dark:text-slate-400 dark:hover:bg-slate-800 dark:hover:text-slate-100'

export function ColumnChooser({ entity, layout }: { entity: AnyEntity; layout: ListLayout }) {
  const { t, i18n } = useTranslation()
  const isRtl = i18n.dir(i18n.resolvedLanguage ?? i18n.language) === 'rtl'
  const headingId = useId()
  const densityId = useId()
  const { order } = layout.columns
  const shown = visibleColumnsOf(layout.columns)
  const labelOf = (name: string) => t(entity.fieldLabelKey(name))
  const sensors = useSensors(useSensor(PointerSensor, { activationConstraint: { distance: 4 } }), useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }))
  const placeOf = (id: unknown) => order.indexOf(String(id)) + 1
  const announcements: Announcements = {
    onDragStart: ({ active }) => t('columns.picked', { label: labelOf(String(active.id)), place: placeOf(active.id) }),
    onDragOver: ({ over }) => (over ? t('columns.over', { place: placeOf(over.id) }) : undefined),
    onDragEnd: ({ active, over }) => (over ? t('columns.dropped', { label: labelOf(String(active.id)), place: placeOf(over.id) }) : t('columns.cancelled')),
    onDragCancel: () => t('columns.cancelled'),
  }
  const onDragEnd = ({ active, over }: DragEndEvent) => {
    if (over && active.id !== over.id) layout.setColumns((was) => withColumnMoved(was, String(active.id), was.order.indexOf(String(over.id))))
  }

  return (
    <Popover className="relative">
      <PopoverButton className={toolButtonClass}>
        <ToolLabel icon="columns" label="columns.button" />
      </PopoverButton>
      <PopoverPanel anchor={isRtl ? 'bottom start' : 'bottom end'} role="dialog" aria-labelledby={headingId} className={popoverPanelClass}>
        <div className="flex items-center justify-between gap-2 pb-2">
          <h2 id={headingId} className="font-semibold">
            {t('columns.title')}
          </h2>
          <button type="button" onClick={layout.reset} className="rounded px-2 py-1 text-xs font-medium text-indigo-700 hover:bg-indigo-50 focus-visible:outline-2 focus-visible:outline-indigo-500 dark:text-indigo-300 dark:hover:bg-indigo-950">
            {t('columns.reset')}
          </button>
        </div>
        <DndContext sensors={sensors} collisionDetection={closestCenter} modifiers={[restrictToVerticalAxis]} onDragEnd={onDragEnd} accessibility={{ announcements, screenReaderInstructions: { draggable: t('columns.instructions') } }}>
          <SortableContext items={[...order]} strategy={verticalListSortingStrategy}>
            <ol className="max-h-[min(24rem,50dvh)] space-y-0.5 overflow-y-auto" aria-label={t('columns.order')}>
              {order.map((name, index) => (
                <ColumnItem
                  key={name}
                  name={name}
                  label={labelOf(name)}
                  isShown={shown.includes(name)}
                  // The last column shown stays: a list shows something.
                  isLastShown={shown.length === 1 && shown[0] === name}
                  isFirst={index === 0}
                  isLast={index === order.length - 1}
                  onShow={(isShown) => layout.setColumns((was) => withColumnShown(was, name, isShown))}
                  onMove={(step) => layout.setColumns((was) => withColumnMoved(was, name, was.order.indexOf(name) + step))}
                />
              ))}
            </ol>
          </SortableContext>
        </DndContext>
        <fieldset className="mt-3 border-t border-slate-200 pt-3 dark:border-slate-700">
          <legend id={densityId} className="sr-only">
            {t('columns.density')}
          </legend>
          <div className="flex items-center justify-between gap-3">
            <span aria-hidden="true" className="font-medium">
              {t('columns.density')}
            </span>
            <div className="inline-flex rounded-lg border border-slate-300 p-0.5 dark:border-slate-700">
              {densities.map((density) => (
                <label
                  key={density}
                  className="cursor-pointer rounded-md px-2.5 py-1 text-xs font-medium text-slate-600 has-checked:bg-indigo-600 has-checked:text-white has-focus-visible:outline-2 has-focus-visible:outline-indigo-500 dark:text-slate-300"
                >
                  <input type="radio" name={densityId} value={density} checked={layout.density === density} onChange={() => layout.setDensity(density)} className="sr-only" />
                  {t(`columns.density_${density}`)}
                </label>
              ))}
            </div>
          </div>
        </fieldset>
      </PopoverPanel>
    </Popover>
  )
}

function ColumnItem({
  name,
  label,
  isShown,
  isLastShown,
  isFirst,
  isLast,
  onShow,
  onMove,
}: {
  name: string
  label: string
  isShown: boolean
  isLastShown: boolean
  isFirst: boolean
  isLast: boolean
  onShow: (isShown: boolean) => void
  onMove: (step: number) => void
}) {
  const { t } = useTranslation()
  const checkboxId = useId()
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({ id: name })
  return (
    <li
      ref={setNodeRef}
      style={{ transform: CSS.Transform.toString(transform), transition }}
      className={`flex items-center gap-1.5 rounded-md px-1 py-1 ${isDragging ? 'relative z-10 bg-indigo-50 shadow-sm dark:bg-indigo-950' : 'hover:bg-slate-50 dark:hover:bg-slate-800/60'}`}
    >
      <button
        type="button"
        ref={setActivatorNodeRef}
        {...attributes}
        {...listeners}
        aria-label={t('columns.drag', { label })}
        className="cursor-grab touch-none rounded p-1 text-slate-400 hover:text-slate-700 focus-visible:outline-2 focus-visible:outline-indigo-500 active:cursor-grabbing dark:hover:text-slate-200"
      >
        <Icon name="arrowsUpDown" className="size-4" />
      </button>
      <input
        id={checkboxId}
        type="checkbox"
        checked={isShown}
        disabled={isLastShown}
        onChange={(e) => onShow(e.target.checked)}
        className="size-4 rounded border-slate-300 text-indigo-600 accent-indigo-600 focus-visible:outline-2 focus-visible:outline-indigo-500 dark:border-slate-600"
      />
      <label htmlFor={checkboxId} className="min-w-0 flex-1 cursor-pointer truncate">
        {label}
      </label>
      <button type="button" className={stepButton} disabled={isFirst} onClick={() => onMove(-1)} aria-label={t('columns.move_earlier', { label })}>
        <Icon name="arrowUp" className="size-4" />
      </button>
      <button type="button" className={stepButton} disabled={isLast} onClick={() => onMove(1)} aria-label={t('columns.move_later', { label })}>
        <Icon name="arrowDown" className="size-4" />
      </button>
    </li>
  )
}
