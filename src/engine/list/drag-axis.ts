import type { Modifier } from '@dnd-kit/core'

/** A dragged item of a vertical list moves up and down only (a column in the chooser). */
export const restrictToVerticalAxis: Modifier = ({ transform }) => ({ ...transform, x: 0 })
