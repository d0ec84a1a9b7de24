import { useVirtualizer } from '@tanstack/react-virtual'
import type { ReactNode, RefObject } from 'react'

/**
 * Rows drawn beyond the visible ones, above and below, so a quick scroll does not show a gap:
 * a wheel notch moves about two rows, so six cover a brisk scroll; every one more is drawn on
 * each frame of a fast one (with ten, a jump drew 33 rows a frame at 1280×800; with six, 25).
 */
const OVERSCAN = 6

/**
 * The body of a long table ("All" rows, up to 10,000): only the rows in view (and a few more)
 * are in the page, between two spacer rows as tall as the rows above and below them — the
 * table stays a table (its header sticky, its columns those of the header), the scrollbar
 * the whole list's. Rows are measured as drawn; `estimateSize` is the density's height.
 * `renderRow` gives a memoised row (ListTableRow): a scroll step calls it for every row in the
 * window, and only the rows that entered it are drawn.
 */
export function VirtualRows({
  count,
  scrollRef,
  estimateSize,
  columns,
  renderRow,
}: {
  count: number
  scrollRef: RefObject<HTMLDivElement | null>
  estimateSize: number
  columns: number
  renderRow: (index: number, measure: (el: HTMLTableRowElement | null) => void) => ReactNode
}) {
  const virtualizer = useVirtualizer({
    count,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => estimateSize,
    overscan: OVERSCAN,
    // A row as drawn (taller with a picture in it), from the resize observer's entry when it has one (no layout
    // forced); one not laid out (hidden, or no layout at all) as estimated.
    measureElement: (el, entry) => Math.round(entry?.borderBoxSize?.[0]?.blockSize ?? 0) || (el as HTMLElement).offsetHeight || estimateSize,
    // Before the box is measured (and where nothing is laid out), a screenful is drawn.
    initialRect: { width: 0, height: estimateSize * 20 },
  })
  const items = virtualizer.getVirtualItems()
  const before = items[0]?.start ?? 0
  const after = Math.max(0, virtualizer.getTotalSize() - (items.at(-1)?.end ?? 0))
  return (
    <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
      {before > 0 && <Spacer height={before} columns={columns} />}
      {items.map((item) => renderRow(item.index, virtualizer.measureElement))}
      {after > 0 && <Spacer height={after} columns={columns} />}
    </tbody>
  )
}

function Spacer({ height, columns }: { height: number; columns: number }) {
  return (
    <tr aria-hidden="true" data-spacer="">
      <td colSpan={columns} style={{ height, padding: 0, border: 0 }} />
    </tr>
  )
}
