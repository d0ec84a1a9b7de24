/**
 * Where the keyboard goes on a form: its first field when it opens to create a record, the
 * first field in error after a save that failed — the browser's own checks or the server's
 * field map alike. Fields are found in the document, so "first" is the order the form shows
 * them in (sections, then a document's lines, row by row). A field row marks itself
 * `data-field`, and `data-invalid` while its message shows (FieldRow, the lines' cells).
 */
const FOCUSABLE = ':is(input:not([type=hidden]), select, textarea, button):not(:disabled)'

// A rich-text field's place to type is its editable area, not the first button of its toolbar.
const EDITABLE = '[contenteditable="true"]'

function firstFocusable(row: Element): HTMLElement | null {
  if (row.matches(FOCUSABLE)) return row as HTMLElement
  return row.querySelector<HTMLElement>(EDITABLE) ?? row.querySelector<HTMLElement>(FOCUSABLE)
}

function bringIntoView(target: HTMLElement): void {
  const isReduced = globalThis.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? true
  // jsdom has no scrolling: the call is optional there.
  target.scrollIntoView?.({ block: 'center', inline: 'nearest', behavior: isReduced ? 'auto' : 'smooth' })
  target.focus({ preventScroll: true })
}

/** Focuses the first field in error; false when none is drawn yet. */
export function focusFirstInvalid(form: HTMLElement | null): boolean {
  const rows = form?.querySelectorAll('[data-invalid]') ?? []
  for (const row of rows) {
    const target = firstFocusable(row)
    if (target) {
      bringIntoView(target)
      return true
    }
  }
  return false
}

/** How long a failed save waits for its messages to be drawn before it gives up on moving the focus. */
export const FOCUS_WAIT_MS = 3000

/**
 * Focuses the first field in error as soon as one is drawn: at once when its message is
 * already there, else when it appears (a busy machine may draw it several frames later,
 * and a frame's wait was not always enough). Gives up after FOCUS_WAIT_MS, or when the
 * person has put the focus somewhere else meanwhile. Returns what stops the wait.
 */
export function focusFirstInvalidWhenDrawn(form: HTMLElement | null): () => void {
  if (!form || focusFirstInvalid(form)) return () => {}
  const focusedAtSave = document.activeElement
  const observer = new MutationObserver(() => {
    if (document.activeElement !== focusedAtSave) return stop()
    if (focusFirstInvalid(form)) stop()
  })
  const timer = setTimeout(() => stop(), FOCUS_WAIT_MS)
  function stop() {
    observer.disconnect()
    clearTimeout(timer)
  }
  observer.observe(form, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-invalid'] })
  return stop
}

/** Focuses the form's first field (a new record): without scrolling the page's title away. */
export function focusFirstField(form: HTMLElement | null): void {
  const row = form?.querySelector('[data-field]')
  const target = row ? firstFocusable(row) : null
  target?.focus({ preventScroll: true })
}
