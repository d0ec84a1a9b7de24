import { useRef, type KeyboardEvent, type PointerEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { MAX_COLUMN_WIDTH, MIN_COLUMN_WIDTH } from '../../../schema/kit/list-view'
import { clampWidth } from './column-layout'

/** How far one arrow key moves a column's edge; with Shift, a longer step. */
export const RESIZE_STEP = 16
const LONG_STEP = 64

/**
 * The edge of a column's header that sets its width: dragged (mouse, pen, touch), or focused
 * and moved with the arrow keys — the direction the edge moves on screen, in a right-to-left
 * page too — Home back to the column's own width; a double click too. A window splitter
 * (`role="separator"` with its value), at the header's end edge.
 */
export function ColumnResizeHandle({
  label,
  isNamed,
  width,
  measure,
  onResize,
  onReset,
}: {
  label: string
  /**
   * A named, focusable splitter while the keyboard is in its header (its sort button was
   * tabbed to): otherwise an unnamed edge for the pointer alone, so that the list's headers
   * are named by their headings and nothing on the list answers to a field's label (as the
   * form's inputs do) while a form opened from it loads.
   */
  isNamed: boolean
  /** The width now, in pixels (as laid out, until someone sets one). */
  width: number
  /** The header's width as drawn, where a drag starts from. */
  measure: () => number
  onResize: (width: number) => void
  onReset: () => void
}) {
  const { t, i18n } = useTranslation()
  const isRtl = i18n.dir(i18n.resolvedLanguage ?? i18n.language) === 'rtl'
  const drag = useRef<{ x: number; width: number } | null>(null)
  // The end edge is the left one in a right-to-left page: a drag to the left widens it.
  const direction = isRtl ? -1 : 1

  const onPointerDown = (e: PointerEvent<HTMLDivElement>) => {
    if (e.button !== 0) return
    e.preventDefault()
    e.stopPropagation()
    e.currentTarget.setPointerCapture?.(e.pointerId)
    drag.current = { x: e.clientX, width: measure() }
  }
  const onPointerMove = (e: PointerEvent<HTMLDivElement>) => {
    const start = drag.current
    if (start) onResize(clampWidth(start.width + (e.clientX - start.x) * direction))
  }
  const onPointerUp = (e: PointerEvent<HTMLDivElement>) => {
    drag.current = null
    e.currentTarget.releasePointerCapture?.(e.pointerId)
  }
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const step = e.shiftKey ? LONG_STEP : RESIZE_STEP
    const by = e.key === 'ArrowRight' ? step * direction : e.key === 'ArrowLeft' ? -step * direction : e.key === 'ArrowUp' ? step : e.key === 'ArrowDown' ? -step : 0
    if (e.key === 'Home') onReset()
    else if (by !== 0) onResize(clampWidth(measure() + by))
    else return
    e.preventDefault()
    e.stopPropagation()
  }

  return (
    <div
      {...(isNamed
        ? {
            role: 'separator',
            'aria-orientation': 'vertical' as const,
            'aria-label': t('columns.resize', { label }),
            'aria-valuenow': Math.round(width),
            'aria-valuemin': MIN_COLUMN_WIDTH,
            'aria-valuemax': MAX_COLUMN_WIDTH,
            tabIndex: 0,
          }
        : { 'aria-hidden': true, tabIndex: -1 })}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={onPointerUp}
      onPointerCancel={onPointerUp}
      onKeyDown={onKeyDown}
      onDoubleClick={onReset}
      onClick={(e) => e.stopPropagation()}
      className="group/resize absolute inset-y-0 end-0 z-10 flex w-3 translate-x-1/2 cursor-col-resize touch-none justify-center outline-none rtl:-translate-x-1/2 focus-visible:bg-indigo-500/20"
    >
      <span className="h-full w-0.5 bg-transparent group-hover/resize:bg-indigo-400 group-focus-visible/resize:bg-indigo-600" />
    </div>
  )
}
