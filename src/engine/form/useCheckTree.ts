import { useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react'
import { filterNodes, parentIds, visibleNodes, type CheckNode, type VisibleNode } from '../check-tree'

/**
 * What a tree of ticks holds besides the ticks: the filter, which nodes are open and which
 * one the keyboard is on (one tab stop for the whole tree; the arrows move within it, as
 * the WAI-ARIA tree pattern has it: ↑↓ move, → opens or goes in, ← closes or goes out —
 * mirrored right to left —, Home/End, Space or Enter ticks).
 */
export function useCheckTree({ nodes, onToggle }: { nodes: readonly CheckNode[]; onToggle: (node: CheckNode) => void }) {
  const [filter, setFilterText] = useState('')
  const [expanded, setExpanded] = useState<ReadonlySet<number>>(() => new Set())
  const [focusedId, setFocusedId] = useState<number | null>(null)
  const treeRef = useRef<HTMLUListElement>(null)
  const shouldFocus = useRef(false)

  const shown = useMemo(() => filterNodes(nodes, filter), [nodes, filter])
  const visible = useMemo(() => visibleNodes(shown, expanded), [shown, expanded])
  // The keyboard's node, or the first one when it is no longer drawn (filtered out, closed).
  const current = visible.find((v) => v.node.id === focusedId) ?? visible[0]

  useEffect(() => {
    if (!shouldFocus.current || !current) return
    shouldFocus.current = false
    treeRef.current?.querySelector<HTMLElement>(`[data-node="${current.node.id}"]`)?.focus()
  })

  /** Typing opens every branch that holds a match, so each is seen in its place. */
  const setFilter = (text: string) => {
    setFilterText(text)
    if (text.trim() !== '') setExpanded((open) => new Set([...open, ...parentIds(filterNodes(nodes, text))]))
  }
  const setOpen = (id: number, isOpen: boolean) =>
    setExpanded((open) => {
      const next = new Set(open)
      if (isOpen) next.add(id)
      else next.delete(id)
      return next
    })
  const moveTo = (target: VisibleNode | undefined) => {
    if (!target) return
    shouldFocus.current = true
    setFocusedId(target.node.id)
  }

  const onKeyDown = (e: KeyboardEvent<HTMLElement>) => {
    if (!current || e.altKey || e.ctrlKey || e.metaKey) return
    const at = visible.indexOf(current)
    const { node } = current
    const isRtl = getComputedStyle(e.currentTarget).direction === 'rtl'
    const key = e.key === 'ArrowRight' ? (isRtl ? 'out' : 'in') : e.key === 'ArrowLeft' ? (isRtl ? 'in' : 'out') : e.key
    const isOpen = expanded.has(node.id)
    switch (key) {
      case 'ArrowDown':
        moveTo(visible[at + 1])
        break
      case 'ArrowUp':
        moveTo(visible[at - 1])
        break
      case 'Home':
        moveTo(visible[0])
        break
      case 'End':
        moveTo(visible[visible.length - 1])
        break
      case 'in':
        if (node.children.length === 0) break
        if (isOpen) moveTo(visible[at + 1])
        else setOpen(node.id, true)
        break
      case 'out':
        if (node.children.length > 0 && isOpen) setOpen(node.id, false)
        else moveTo(visible.find((v) => v.node.id === current.parent))
        break
      case ' ':
      case 'Enter':
        onToggle(node)
        break
      default:
        return
    }
    e.preventDefault()
  }

  return {
    filter,
    setFilter,
    shown,
    visible,
    expanded,
    setOpen,
    expandAll: () => setExpanded(new Set(parentIds(shown))),
    collapseAll: () => setExpanded(new Set()),
    focusedId: current?.node.id ?? null,
    /** A node clicked or ticked with the pointer becomes the keyboard's. */
    setFocusedId,
    treeRef,
    onKeyDown,
  }
}
