import { useSyncExternalStore } from 'react'

/**
 * Messages shown over every screen (spec §4: alert banner and notifications, at most
 * five at once). A message is an i18n key with params, rendered when shown so it follows
 * the language, or a server text that is shown as it came.
 */
export type NoticeKind = 'success' | 'error' | 'warning' | 'info'
export type Notice = {
  id: number
  kind: NoticeKind
  key?: string
  params?: Record<string, string | number>
  text?: string
}

export const MAX_NOTICES = 5
export const NOTICE_MS = 6000

let notices: readonly Notice[] = []
let nextId = 1
const listeners = new Set<() => void>()
const timers = new Map<number, ReturnType<typeof setTimeout>>()

function emit(): void {
  for (const listener of listeners) listener()
}

export function dismiss(id: number): void {
  const timer = timers.get(id)
  if (timer) clearTimeout(timer)
  timers.delete(id)
  notices = notices.filter((n) => n.id !== id)
  emit()
}

export function notify(notice: Omit<Notice, 'id'>, durationMs: number = NOTICE_MS): number {
  const id = nextId++
  notices = [...notices, { ...notice, id }].slice(-MAX_NOTICES)
  if (durationMs > 0) timers.set(id, setTimeout(() => dismiss(id), durationMs))
  emit()
  return id
}

export function clearNotices(): void {
  for (const timer of timers.values()) clearTimeout(timer)
  timers.clear()
  notices = []
  emit()
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener)
  return () => listeners.delete(listener)
}

export function useNotices(): readonly Notice[] {
  return useSyncExternalStore(subscribe, () => notices, () => notices)
}
