import { Extension } from '@tiptap/core'
import { EditorContent, useEditor, type Editor } from '@tiptap/react'
import StarterKit from '@tiptap/starter-kit'
import { useEffect, useLayoutEffect, useMemo, useRef, useState, type RefObject } from 'react'
import { LinkDialog } from './LinkDialog'
import { RichTextToolbar } from './RichTextToolbar'
import { borderClass, type WidgetProps } from './types'

/**
 * Formatted text (`f.html()`: a content's body, a blog post) edited in TipTap. The form holds
 * the HTML (the server sanitises it before storing); an empty editor is `''`, not `<p></p>`,
 * so that a blank body is blank to the rules and the server alike. Loaded only by forms that
 * have such a field (LazyRichTextInput), so TipTap never weighs on the other screens.
 */

/** The typographic look of the content, in the app's palette (Tailwind has no prose styles here). */
const contentClass = [
  'min-h-40 max-h-[32rem] overflow-y-auto px-3 py-2 text-sm leading-relaxed text-slate-900 outline-none dark:text-slate-100',
  '[&_p]:my-2 [&_h2]:mt-4 [&_h2]:mb-2 [&_h2]:text-lg [&_h2]:font-semibold [&_h3]:mt-3 [&_h3]:mb-1.5 [&_h3]:text-base [&_h3]:font-semibold',
  '[&_ul]:my-2 [&_ul]:list-disc [&_ul]:ps-6 [&_ol]:my-2 [&_ol]:list-decimal [&_ol]:ps-6 [&_li_p]:my-0.5',
  '[&_blockquote]:my-2 [&_blockquote]:border-s-4 [&_blockquote]:border-slate-300 [&_blockquote]:ps-3 [&_blockquote]:text-slate-600 dark:[&_blockquote]:border-slate-600 dark:[&_blockquote]:text-slate-300',
  '[&_a]:text-indigo-600 [&_a]:underline dark:[&_a]:text-indigo-400 [&_code]:rounded [&_code]:bg-slate-100 [&_code]:px-1 dark:[&_code]:bg-slate-800',
].join(' ')

/** TipTap keeps an empty paragraph after a closing heading or list for the caret to go to: not part of the text. */
const TRAILING_EMPTY_PARAGRAPHS = /(<p(?: dir="auto")?><\/p>)+$/
const htmlOf = (editor: Editor) => (editor.isEmpty ? '' : editor.getHTML().replace(TRAILING_EMPTY_PARAGRAPHS, ''))

export default function RichTextInput({ id, field, label, value, onChange, onBlur, isInvalid, describedBy }: WidgetProps) {
  const text = typeof value === 'string' ? value : ''
  const rootRef = useRef<HTMLDivElement>(null)
  const [isLinkOpen, setIsLinkOpen] = useState(false)
  const [isEditable, setIsEditable] = useState(true)
  const labelId = useFieldLabel(rootRef, id)
  // The editor's callbacks are registered once: they read the latest props through refs.
  const latest = useRef({ onChange, onBlur, openLink: () => setIsLinkOpen(true) })
  latest.current = { onChange, onBlur, openLink: () => setIsLinkOpen(true) }
  /** The HTML the form holds as far as the editor knows: a different value comes from outside (a reload, a reset). */
  const held = useRef(text)
  // The editor starts from the value it opens with; later ones arrive through the effect below.
  const [initialContent] = useState(text)

  const extensions = useMemo(
    () => [
      StarterKit.configure({
        // Headings below the page's own title and the form's sections.
        heading: { levels: [2, 3] },
        codeBlock: false,
        horizontalRule: false,
        link: { openOnClick: false, autolink: true, defaultProtocol: 'https' },
      }),
      Extension.create({
        name: 'formKeys',
        addKeyboardShortcuts: () => ({
          'Mod-k': () => {
            latest.current.openLink()
            return true
          },
          // Ctrl+Enter saves the form from any field (FormScreen); here it is not a line break.
          'Mod-Enter': () => true,
        }),
      }),
    ],
    [],
  )
  const attributes = useMemo(
    () => ({
      id,
      role: 'textbox',
      'aria-multiline': 'true',
      ...(labelId ? { 'aria-labelledby': labelId } : { 'aria-label': label }),
      ...(describedBy ? { 'aria-describedby': describedBy } : {}),
      ...(isInvalid ? { 'aria-invalid': 'true' } : {}),
      ...(field.isRequired ? { 'aria-required': 'true' } : {}),
      ...(isEditable ? {} : { 'aria-disabled': 'true' }),
      spellcheck: 'true',
      class: `${contentClass} ${isEditable ? '' : 'cursor-not-allowed text-slate-500 dark:text-slate-400'}`,
    }),
    [id, labelId, label, describedBy, isInvalid, field.isRequired, isEditable],
  )
  const editorProps = useMemo(() => ({ attributes }), [attributes])

  const editor = useEditor({
    extensions,
    content: initialContent,
    // Every paragraph takes the direction of its own words (`dir="auto"`): an Arabic one beside an English one.
    textDirection: 'auto',
    editorProps,
    onUpdate: ({ editor }) => {
      const html = htmlOf(editor)
      if (html === held.current) return
      held.current = html
      latest.current.onChange(html)
    },
    onBlur: () => latest.current.onBlur(),
  })

  // A value the editor did not make (the stored record after a save or a reload) replaces its content.
  useEffect(() => {
    if (text === held.current) return
    held.current = text
    editor.commands.setContent(text, { emitUpdate: false })
  }, [editor, text])

  // A form the user may not save disables its fields with a <fieldset disabled>, which a
  // contenteditable does not follow: the editor asks on every render.
  useLayoutEffect(() => {
    const isDisabled = rootRef.current?.closest('fieldset[disabled]') != null
    if (isDisabled === !isEditable) return
    setIsEditable(!isDisabled)
    // No update: becoming read-only changes nothing the form holds.
    editor.setEditable(!isDisabled, false)
  })

  return (
    <div
      ref={rootRef}
      data-richtext=""
      className={`overflow-hidden rounded-lg border shadow-xs transition focus-within:border-indigo-500 focus-within:ring-3 focus-within:ring-indigo-500/20 ${borderClass(isInvalid)} ${isEditable ? 'bg-white dark:bg-slate-900' : 'bg-slate-50 dark:bg-slate-800'}`}
    >
      <RichTextToolbar editor={editor} label={label} controls={id} onLink={() => setIsLinkOpen(true)} />
      <EditorContent editor={editor} />
      <LinkDialog
        isOpen={isLinkOpen}
        href={(editor.getAttributes('link').href as string | undefined) ?? ''}
        onApply={(href) => {
          setIsLinkOpen(false)
          const chain = editor.chain().focus().extendMarkRange('link')
          // With nothing selected, the address itself becomes the linked text.
          if (editor.state.selection.empty && !editor.isActive('link')) chain.insertContent({ type: 'text', text: href, marks: [{ type: 'link', attrs: { href } }] }).run()
          else chain.setLink({ href }).run()
        }}
        onRemove={() => {
          setIsLinkOpen(false)
          editor.chain().focus().extendMarkRange('link').unsetLink().run()
        }}
        onCancel={() => {
          setIsLinkOpen(false)
          editor.commands.focus()
        }}
      />
    </div>
  )
}

/**
 * The id of the field's own label (FieldRow's `<label for>`), given one if it has none: a
 * contenteditable is not an input a `<label for>` can name, `aria-labelledby` can. A click
 * on the label puts the caret in the editor, as it would in an input.
 */
function useFieldLabel(rootRef: RefObject<HTMLDivElement | null>, id: string): string | null {
  const [labelId, setLabelId] = useState<string | null>(null)
  useLayoutEffect(() => {
    const document = rootRef.current?.ownerDocument
    const label = Array.from(document?.getElementsByTagName('label') ?? []).find((l) => l.htmlFor === id)
    if (!label) return
    if (!label.id) label.id = `${id}-label`
    setLabelId(label.id)
    const focusEditor = () => (document?.getElementById(id) as HTMLElement | null)?.focus()
    label.addEventListener('click', focusEditor)
    return () => label.removeEventListener('click', focusEditor)
  }, [rootRef, id])
  return labelId
}
