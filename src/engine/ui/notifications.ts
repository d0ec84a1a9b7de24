import { useSyncExternalStore } from 'react'

/**
 * The one feedback API every screen uses (spec §4, §9):
 *
 * - `showAlert`: the alert banner (spec §3 Alert: value, type — success by default —
 *   and a changed flag). One at a time; it hides itself after 3 s and clears the value.
 * - `showSnackbar`: one short message at the top centre; hides itself after 6 s.
 * - `notify`: the notification stack at the bottom end; at most five at once, the oldest
 *   goes first; hides itself after 6 s unless told otherwise (0 keeps it).
 *
 * A message is an i18n key with params, rendered when shown so it follows the language,
 * or a server text that is shown as it came.
 */
export type NoticeKind = 'success' | 'error' | 'warning' | 'info'

export type MessageContent = {
  key?: string
  params?: Record<string, string | number>
  text?: string
}

/** A button in a notification (the Undo of a bulk change): its label's i18n key and what it does; pressing it dismisses the notice. */
export type NoticeAction = { key: string; run: () => void }

export type Notice = MessageContent & { id: number; kind: NoticeKind; action?: NoticeAction }

/** How long a notice with an action stays: long enough to read it and reach the button. */
export const ACTION_NOTICE_MS = 10_000

export type Alert = MessageContent & { id: number; kind: NoticeKind }

export type Snackbar = MessageContent & { id: number; kind: NoticeKind }

export const MAX_NOTICES = 5
export const NOTICE_MS = 6000
export const ALERT_MS = 3000
export const SNACKBAR_MS = 6000

export type FeedbackState = {
  alert: Alert | null
  snackbar: Snackbar | null
  notices: readonly Notice[]
}

let state: FeedbackState = { alert: null, snackbar: null, notices: [] }
let nextId = 1
const listeners = new Set<() => void>()
const timers = new Map<number, ReturnType<typeof setTimeout>>()

function update(next: Partial<FeedbackState>): void {
  state = { ...state, ...next }
  for (const listener of listeners) listener()
}

function stopTimer(id: number): void {
  const timer = timers.get(id)
  if (timer) clearTimeout(timer)
  timers.delete(id)
}

function startTimer(id: number, durationMs: number, onEnd: () => void): void {
  if (durationMs > 0) timers.set(id, setTimeout(onEnd, durationMs))
}

// ---------------------------------------------------------------- notifications

export function dismiss(id: number): void {
  stopTimer(id)
  update({ notices: state.notices.filter((n) => n.id !== id) })
}

export function notify(notice: Omit<Notice, 'id'>, durationMs: number = NOTICE_MS): number {
  const id = nextId++
  const notices = [...state.notices, { ...notice, id }]
  for (const dropped of notices.slice(0, -MAX_NOTICES)) stopTimer(dropped.id)
  startTimer(id, durationMs, () => dismiss(id))
  update({ notices: notices.slice(-MAX_NOTICES) })
  return id
}

// ---------------------------------------------------------------- alert banner

export function hideAlert(): void {
  if (state.alert) stopTimer(state.alert.id)
  update({ alert: null })
}

/** Shows the alert banner (success unless told otherwise) for 3 s; a new one replaces it. */
export function showAlert(alert: MessageContent & { kind?: NoticeKind }, durationMs: number = ALERT_MS): number {
  if (state.alert) stopTimer(state.alert.id)
  const id = nextId++
  startTimer(id, durationMs, () => {
    if (state.alert?.id === id) update({ alert: null })
    timers.delete(id)
  })
  update({ alert: { ...alert, kind: alert.kind ?? 'success', id } })
  return id
}

// ---------------------------------------------------------------- snackbar

export function hideSnackbar(): void {
  if (state.snackbar) stopTimer(state.snackbar.id)
  update({ snackbar: null })
}

/** Shows one message at the top centre for 6 s; a new one replaces it. */
export function showSnackbar(snackbar: MessageContent & { kind?: NoticeKind }, durationMs: number = SNACKBAR_MS): number {
  if (state.snackbar) stopTimer(state.snackbar.id)
  const id = nextId++
  startTimer(id, durationMs, () => {
    if (state.snackbar?.id === id) update({ snackbar: null })
    timers.delete(id)
  })
  update({ snackbar: { ...snackbar, kind: snackbar.kind ?? 'info', id } })
  return id
}

/** The same three calls as one object, for screens that prefer `feedback.alert(…)`. */
export const feedback = { alert: showAlert, snackbar: showSnackbar, notify } as const

// ---------------------------------------------------------------- state

/** Removes everything shown (tests; the end of a session). */
export function clearNotices(): void {
  for (const timer of timers.values()) clearTimeout(timer)
  timers.clear()
  update({ alert: null, snackbar: null, notices: [] })
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener)
  return () => listeners.delete(listener)
}

export function useFeedback(): FeedbackState {
  return useSyncExternalStore(subscribe, () => state, () => state)
}

export function useNotices(): readonly Notice[] {
  return useFeedback().notices
}

export function hasFeedback(value: FeedbackState): boolean {
  return value.alert !== null || value.snackbar !== null || value.notices.length > 0
}
