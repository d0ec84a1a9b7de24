import { useEffect, useId, useMemo, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { checkedOf, linesOf, linesTreeOf, nodesOfRows, stateOf, tickCount, toggle, type CheckNode, type CheckState } from '../check-tree'
import { useEntities } from '../entities-context'
import { labelOf } from '../entity-api'
import { errorText } from '../errors'
import { ListSearchBox } from '../list/ListToolbar'
import { Banner } from '../ui/Banner'
import { Icon } from '../ui/icons'
import { Spinner } from '../ui/PageSpinner'
import { useTreeRows } from '../widgets/TreeRefSelect'
import type { WidgetProps } from '../widgets/types'
import { emptyLine, type LineValues } from './form-values'
import { useCheckTree } from './useCheckTree'

/**
 * A document's lines that each name a row of a tree-shaped entity — a role menu's menu
 * items — ticked in that tree instead of entered one line at a time (issue 20: 63 lines of
 * pickers, 4,168 px). The lines stay what is stored and sent.
 *
 * Built as the engine's widget, not the role menu's: what makes it apply is all in the
 * registry — a lines field whose line is one reference to an entity that refers to itself
 * (`linesTreeOf`) — so FormScreen chooses it for any such field, as it chooses the tree
 * picker for a self reference, and a new document of that shape gets it with no screen code.
 * By default its tree is the target's rows under their parents, siblings by name. The one
 * thing the rows cannot say is how a menu reads — its items' order is their position and
 * their words are translation keys — so the identity module lends the engine's tree the
 * menu's own nodes through the form's existing `widgets` extension (`CheckTreeInput`),
 * rather than the registry growing options for one entity.
 */
export function LinesCheckTree(props: WidgetProps) {
  const spec = linesTreeOf(props.field, useEntities())
  if (!spec) throw new Error(`${props.name} is not a lines field of a tree`)
  return <RowsCheckTree {...props} spec={spec} />
}

function RowsCheckTree({ spec, ...props }: WidgetProps & { spec: NonNullable<ReturnType<typeof linesTreeOf>> }) {
  const rows = useTreeRows(spec.target)
  const nodes = useMemo(() => nodesOfRows(rows.data ?? [], spec.parentField, (row) => labelOf(spec.target, row)), [rows.data, spec])
  return <CheckTreeInput {...props} nodes={nodes} isPending={rows.isPending} error={rows.error} />
}

const boxClass: Record<CheckState, string> = {
  checked: 'border-indigo-600 bg-indigo-600 text-white dark:border-indigo-500 dark:bg-indigo-500',
  mixed: 'border-indigo-600 bg-indigo-600 text-white dark:border-indigo-500 dark:bg-indigo-500',
  unchecked: 'border-slate-400 bg-white dark:border-slate-500 dark:bg-slate-900',
}

/** The drawn box of a tick (the tree item carries the state for assistive technology). */
function TickBox({ state }: { state: CheckState }) {
  return (
    <span className={`grid size-4.5 shrink-0 place-items-center rounded border ${boxClass[state]}`} aria-hidden="true">
      {state === 'checked' && <Icon name="check" className="size-3.5 stroke-[3]" />}
      {state === 'mixed' && <span className="h-0.5 w-2.5 rounded-full bg-current" />}
    </span>
  )
}

const textButton =
  'rounded-md px-2 py-1.5 text-sm font-medium text-indigo-600 hover:bg-indigo-50 focus-visible:outline-2 focus-visible:outline-indigo-500 disabled:opacity-50 dark:text-indigo-400 dark:hover:bg-indigo-950'

/** The tree of ticks over given nodes; its value is the document's lines. */
export function CheckTreeInput({ id, field, label, value, onChange, onBlur, isInvalid, describedBy, nodes, isPending = false, error = null }: WidgetProps & { nodes: readonly CheckNode[]; isPending?: boolean; error?: unknown }) {
  const { t } = useTranslation()
  const entities = useEntities()
  const column = linesTreeOf(field, entities)?.column ?? field.lines?.scalar ?? ''
  const lines = useMemo(() => (Array.isArray(value) ? (value as readonly LineValues[]) : []), [value])
  const checked = useMemo(() => checkedOf(lines, column), [lines, column])
  const rootRef = useRef<HTMLDivElement>(null)
  // The form's fieldset is disabled for who may not save: the ticks are shown, not changed.
  const [isDisabled, setIsDisabled] = useState(false)
  useEffect(() => setIsDisabled(rootRef.current?.closest('fieldset:disabled') != null))
  const onToggle = (node: CheckNode) => {
    tree.setFocusedId(node.id)
    if (isDisabled) return
    onChange(linesOf({ tree: nodes, checked: toggle(nodes, checked, node), lines, column, emptyLine: () => emptyLine(field.lines!.entity) }))
  }
  const tree = useCheckTree({ nodes, onToggle })
  const all = tickCount(nodes, checked)

  return (
    <div ref={rootRef} className="min-w-0 space-y-3">
      <div className="flex flex-wrap items-center gap-x-3 gap-y-2">
        <ListSearchBox label={t('lines.tree_filter', { label })} value={tree.filter} onChange={tree.setFilter} />
        <div className="flex items-center gap-1">
          <button type="button" className={textButton} onClick={tree.expandAll}>
            {t('lines.tree_expand_all')}
          </button>
          <button type="button" className={textButton} onClick={tree.collapseAll}>
            {t('lines.tree_collapse_all')}
          </button>
        </div>
        <span className="text-sm text-slate-500 tabular-nums sm:ms-auto dark:text-slate-400" aria-live="polite">
          {t('lines.tree_chosen', all)}
        </span>
      </div>
      {error != null && <Banner kind="error">{errorText(t, error)}</Banner>}
      {isPending && <Spinner className="size-5 text-slate-400" />}
      {!isPending && tree.shown.length === 0 && (
        <p className="rounded-lg border border-dashed border-slate-300 px-4 py-6 text-center text-sm text-slate-500 dark:border-slate-700 dark:text-slate-400">
          {tree.filter.trim() ? t('list.empty_search', { text: tree.filter.trim() }) : t('lines.tree_empty')}
        </p>
      )}
      {tree.shown.length > 0 && (
        <ul
          id={id}
          ref={tree.treeRef}
          role="tree"
          aria-label={label}
          aria-describedby={describedBy}
          aria-invalid={isInvalid || undefined}
          onKeyDown={tree.onKeyDown}
          onBlur={onBlur}
          className={`rounded-lg border p-1 text-sm ${isInvalid ? 'border-red-500' : 'border-slate-200 dark:border-slate-800'}`}
        >
          {tree.shown.map((node) => (
            <TreeNode key={node.id} node={node} depth={0} checked={checked} tree={tree} onToggle={onToggle} isDisabled={isDisabled} />
          ))}
        </ul>
      )}
    </div>
  )
}

type Tree = ReturnType<typeof useCheckTree>

/**
 * One node: a tree item carrying its tick (`aria-checked`, mixed for a group partly
 * ticked). A node with children is shown once, as their parent — its tick is "all of
 * them" and its own entry with them — never again as an item of its own.
 */
function TreeNode({ node, depth, checked, tree, onToggle, isDisabled }: { node: CheckNode; depth: number; checked: ReadonlySet<number>; tree: Tree; onToggle: (node: CheckNode) => void; isDisabled: boolean }) {
  const { t } = useTranslation()
  const labelId = useId()
  const countId = `${labelId}-count`
  const hasChildren = node.children.length > 0
  const isOpen = hasChildren && tree.expanded.has(node.id)
  const state = stateOf(node, checked)
  const counted = tickCount(node.children, checked)
  return (
    <li
      role="treeitem"
      data-node={node.id}
      tabIndex={tree.focusedId === node.id ? 0 : -1}
      aria-checked={state === 'mixed' ? 'mixed' : state === 'checked'}
      aria-expanded={hasChildren ? isOpen : undefined}
      aria-labelledby={labelId}
      aria-describedby={hasChildren ? countId : undefined}
      aria-disabled={isDisabled || undefined}
      onFocus={(e) => e.target === e.currentTarget && tree.setFocusedId(node.id)}
      className="rounded-md outline-none [&:focus-visible>div]:ring-2 [&:focus-visible>div]:ring-indigo-500 [&:focus-visible>div]:ring-inset"
    >
      <div className="flex min-h-10 items-center gap-1 rounded-md pe-2 hover:bg-slate-50 dark:hover:bg-slate-800/60" style={{ paddingInlineStart: `${depth * 1.5}rem` }}>
        {hasChildren ? (
          <span
            aria-hidden="true"
            onClick={() => {
              tree.setFocusedId(node.id)
              tree.setOpen(node.id, !isOpen)
            }}
            className="grid size-8 shrink-0 cursor-pointer place-items-center rounded-md text-slate-400 hover:bg-slate-100 hover:text-slate-700 dark:hover:bg-slate-800 dark:hover:text-slate-200"
          >
            {isOpen ? <Icon name="chevronDown" className="size-4" /> : <Icon name="chevronEnd" className="flip-rtl size-4" />}
          </span>
        ) : (
          <span className="size-8 shrink-0" aria-hidden="true" />
        )}
        <span onClick={() => onToggle(node)} className={`flex min-w-0 flex-1 items-center gap-2.5 py-2 ${isDisabled ? 'cursor-default opacity-70' : 'cursor-pointer'}`}>
          <TickBox state={state} />
          <span id={labelId} className={`min-w-0 break-words ${hasChildren ? 'font-medium text-slate-900 dark:text-slate-100' : 'text-slate-700 dark:text-slate-300'}`}>
            {node.label}
          </span>
        </span>
        {hasChildren && (
          <span id={countId} className="shrink-0 rounded-full bg-slate-100 px-2 py-0.5 text-xs text-slate-600 tabular-nums dark:bg-slate-800 dark:text-slate-300">
            {t('lines.tree_count', counted)}
          </span>
        )}
      </div>
      {isOpen && (
        <ul role="group">
          {node.children.map((child) => (
            <TreeNode key={child.id} node={child} depth={depth + 1} checked={checked} tree={tree} onToggle={onToggle} isDisabled={isDisabled} />
          ))}
        </ul>
      )}
    </li>
  )
}
