import { useEditorState, type Editor } from '@tiptap/react'
import { Fragment, useState, type KeyboardEvent, type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'

/**
 * The rich-text editor's toolbar: one button per format (aria-pressed while the selection
 * has it), the link dialog, undo and redo. A toolbar is one stop of the Tab key; the arrow
 * keys, Home and End move along it (WAI-ARIA's toolbar pattern), left and right swapped in a
 * right-to-left page.
 */
type Tool = {
  key: string
  labelKey: string
  icon: ReactNode
  /** The shortcut as `aria-keyshortcuts` writes it, with `Mod` for Control (Command on a Mac). */
  shortcut?: string
  /** A format the selection has or not: the button is a toggle. */
  isActive?: (editor: Editor) => boolean
  canRun?: (editor: Editor) => boolean
  run: (editor: Editor) => void
  /** Opens a dialog rather than acting at once. */
  hasPopup?: boolean
  separatorBefore?: boolean
}

/** `isMirrored`: drawn the other way round in a right-to-left page (undo points back, list marks stand at the start). */
const svg = (d: string, isMirrored = false) => (
  <svg viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={1.75} strokeLinecap="round" strokeLinejoin="round" className={`size-4.5 ${isMirrored ? 'flip-rtl' : ''}`} aria-hidden="true">
    <path d={d} />
  </svg>
)
const glyph = (text: string, className = '') => (
  <span className={`inline-flex size-4.5 items-center justify-center text-[0.95rem] leading-none ${className}`} aria-hidden="true">
    {text}
  </span>
)

const tools = (onLink: () => void): Tool[] => [
  { key: 'bold', labelKey: 'richtext.bold', icon: glyph('B', 'font-bold'), shortcut: 'Mod+B', isActive: (e) => e.isActive('bold'), run: (e) => e.chain().focus().toggleBold().run() },
  { key: 'italic', labelKey: 'richtext.italic', icon: glyph('I', 'font-serif italic'), shortcut: 'Mod+I', isActive: (e) => e.isActive('italic'), run: (e) => e.chain().focus().toggleItalic().run() },
  { key: 'underline', labelKey: 'richtext.underline', icon: glyph('U', 'underline underline-offset-2'), shortcut: 'Mod+U', isActive: (e) => e.isActive('underline'), run: (e) => e.chain().focus().toggleUnderline().run() },
  { key: 'strike', labelKey: 'richtext.strike', icon: glyph('S', 'line-through'), shortcut: 'Mod+Shift+S', isActive: (e) => e.isActive('strike'), run: (e) => e.chain().focus().toggleStrike().run() },
  { key: 'h2', labelKey: 'richtext.heading', icon: glyph('H2', 'text-xs font-semibold'), shortcut: 'Mod+Alt+2', isActive: (e) => e.isActive('heading', { level: 2 }), run: (e) => e.chain().focus().toggleHeading({ level: 2 }).run(), separatorBefore: true },
  { key: 'h3', labelKey: 'richtext.subheading', icon: glyph('H3', 'text-xs font-semibold'), shortcut: 'Mod+Alt+3', isActive: (e) => e.isActive('heading', { level: 3 }), run: (e) => e.chain().focus().toggleHeading({ level: 3 }).run() },
  { key: 'bullet_list', labelKey: 'richtext.bullet_list', icon: svg('M8.25 6.75h12M8.25 12h12m-12 5.25h12M3.75 6.75h.007v.008H3.75V6.75ZM3.75 12h.007v.008H3.75V12Zm0 5.25h.007v.008H3.75v-.008Z', true), shortcut: 'Mod+Shift+8', isActive: (e) => e.isActive('bulletList'), run: (e) => e.chain().focus().toggleBulletList().run(), separatorBefore: true },
  { key: 'ordered_list', labelKey: 'richtext.ordered_list', icon: svg('M9 6.75h11.25M9 12h11.25M9 17.25h11.25M4.5 4.5v4.5m-1 0h2M3.5 12.75c0-.75 2-1.5 2 0 0 .75-2 1.5-2 2.25h2M3.5 16.5h2v3h-2m.5-1.5h1.5'), shortcut: 'Mod+Shift+7', isActive: (e) => e.isActive('orderedList'), run: (e) => e.chain().focus().toggleOrderedList().run() },
  { key: 'blockquote', labelKey: 'richtext.blockquote', icon: svg('M4.5 12.75V17.25h4.5v-4.5H6c0-2.25.75-3.75 3-4.5M15 12.75v4.5h4.5v-4.5h-3c0-2.25.75-3.75 3-4.5'), shortcut: 'Mod+Shift+B', isActive: (e) => e.isActive('blockquote'), run: (e) => e.chain().focus().toggleBlockquote().run() },
  { key: 'link', labelKey: 'richtext.link', icon: svg('M13.19 8.688a4.5 4.5 0 0 1 1.242 7.244l-4.5 4.5a4.5 4.5 0 0 1-6.364-6.364l1.757-1.757m13.35-.622 1.757-1.757a4.5 4.5 0 0 0-6.364-6.364l-4.5 4.5a4.5 4.5 0 0 0 1.242 7.244'), shortcut: 'Mod+K', isActive: (e) => e.isActive('link'), run: onLink, hasPopup: true, separatorBefore: true },
  { key: 'unlink', labelKey: 'richtext.unlink', icon: svg('M13.181 8.68a4.503 4.503 0 0 1 1.903 6.405m-9.768-2.782L3.56 14.06a4.5 4.5 0 0 0 6.364 6.365l3.129-3.129m5.614-5.615 1.757-1.757a4.5 4.5 0 0 0-6.364-6.365l-4.5 4.5c-.258.26-.479.541-.661.84m1.903 6.405a4.495 4.495 0 0 1-1.242-.88 4.483 4.483 0 0 1-1.062-1.683m6.587 2.345 5.907 5.907m-5.907-5.907L8.898 8.898M2.991 2.99 8.898 8.9'), canRun: (e) => e.isActive('link'), run: (e) => e.chain().focus().extendMarkRange('link').unsetLink().run() },
  { key: 'undo', labelKey: 'richtext.undo', icon: svg('M9 15 3 9m0 0 6-6M3 9h12a6 6 0 0 1 0 12h-3', true), shortcut: 'Mod+Z', canRun: (e) => e.can().undo(), run: (e) => e.chain().focus().undo().run(), separatorBefore: true },
  { key: 'redo', labelKey: 'richtext.redo', icon: svg('m15 15 6-6m0 0-6-6m6 6H9a6 6 0 0 0 0 12h3', true), shortcut: 'Mod+Shift+Z', canRun: (e) => e.can().redo(), run: (e) => e.chain().focus().redo().run() },
]

const isApple = () => typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.userAgent)

const buttonClass =
  'inline-flex size-8 shrink-0 items-center justify-center rounded-md text-slate-600 hover:bg-slate-100 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-indigo-500 disabled:opacity-40 disabled:hover:bg-transparent aria-pressed:bg-indigo-50 aria-pressed:text-indigo-700 dark:text-slate-300 dark:hover:bg-slate-800 dark:hover:text-white dark:aria-pressed:bg-indigo-950 dark:aria-pressed:text-indigo-300'

export function RichTextToolbar({ editor, label, controls, onLink }: { editor: Editor; label: string; controls: string; onLink: () => void }) {
  const { t, i18n } = useTranslation()
  const list = tools(onLink)
  // Re-rendered when what the selection has (or what can be undone) changes, not on every keystroke.
  // A form the user may not save disables the buttons itself (its fieldset).
  const state = useEditorState({
    editor,
    selector: ({ editor: e }) => Object.fromEntries(list.map((tool) => [tool.key, { isActive: tool.isActive?.(e) ?? false, canRun: tool.canRun?.(e) ?? true }])),
  })
  const [current, setCurrent] = useState(list[0]!.key)
  const usable = list.filter((tool) => state[tool.key]?.canRun)
  // The one button Tab stops at: the last one used, or the first usable one.
  const tabStop = usable.some((tool) => tool.key === current) ? current : usable[0]?.key
  const isMac = isApple()
  const keyName = (shortcut: string) => shortcut.replace('Mod', isMac ? 'Meta' : 'Control')
  // As the keys are printed on the keyboard: ⌘ ⇧ ⌥ on a Mac, Ctrl+Shift+… elsewhere.
  const keyLabel = (shortcut: string) =>
    isMac ? shortcut.replace('Mod+', '⌘').replace('Shift+', '⇧').replace('Alt+', '⌥') : shortcut.replace('Mod', 'Ctrl')
  const isRtl = i18n.dir(i18n.resolvedLanguage ?? i18n.language) === 'rtl'

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const at = usable.findIndex((tool) => tool.key === (event.target as HTMLElement).dataset.tool)
    if (at < 0) return
    const step = { ArrowRight: isRtl ? -1 : 1, ArrowLeft: isRtl ? 1 : -1 }[event.key]
    const next = event.key === 'Home' ? 0 : event.key === 'End' ? usable.length - 1 : step === undefined ? null : (at + step + usable.length) % usable.length
    if (next === null) return
    event.preventDefault()
    const key = usable[next]!.key
    setCurrent(key)
    event.currentTarget.querySelector<HTMLButtonElement>(`[data-tool="${key}"]`)?.focus()
  }

  return (
    <div
      role="toolbar"
      aria-label={t('richtext.toolbar', { label })}
      aria-controls={controls}
      onKeyDown={onKeyDown}
      className="flex flex-wrap items-center gap-0.5 border-b border-slate-200 bg-slate-50 px-1.5 py-1 dark:border-slate-700 dark:bg-slate-800/60"
    >
      {list.map((tool) => {
        const name = t(tool.labelKey)
        return (
          <Fragment key={tool.key}>
            {tool.separatorBefore && <span className="mx-1 h-5 w-px bg-slate-200 dark:bg-slate-700" aria-hidden="true" />}
            <button
              type="button"
              data-tool={tool.key}
              tabIndex={tool.key === tabStop ? 0 : -1}
              aria-label={name}
              title={tool.shortcut ? `${name} (${keyLabel(tool.shortcut)})` : name}
              aria-keyshortcuts={tool.shortcut ? keyName(tool.shortcut) : undefined}
              aria-pressed={tool.isActive ? (state[tool.key]?.isActive ?? false) : undefined}
              aria-haspopup={tool.hasPopup ? 'dialog' : undefined}
              disabled={!state[tool.key]?.canRun}
              // A pointer press leaves the caret where it is: the words typed next land in the editor, formatted.
              onMouseDown={(e) => e.preventDefault()}
              onClick={() => {
                setCurrent(tool.key)
                tool.run(editor)
              }}
              className={buttonClass}
            >
              {tool.icon}
            </button>
          </Fragment>
        )
      })}
    </div>
  )
}
