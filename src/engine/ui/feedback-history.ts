import { useSyncExternalStore } from 'react'
import type { FeedbackState, MessageContent, NoticeKind } from './notifications'

/**
 * What the feedback API showed in this session, newest first (the Inbox, `/apps/mail`):
 * every alert, snackbar and notification once, with when it came. Recorded by the shell
 * while it is on screen and forgotten when the session ends.
 */
export type FeedbackChannel = 'alert' | 'snackbar' | 'notification'

export type HistoryEntry = MessageContent & { id: number; kind: NoticeKind; channel: FeedbackChannel; at: number }

/** Enough for a working day; the oldest go first. */
export const MAX_HISTORY = 200

let entries: readonly HistoryEntry[] = []
const listeners = new Set<() => void>()

function emit(): void {
  for (const listener of listeners) listener()
}

/** Adds what the state shows that is not recorded yet. */
export function recordFeedback(state: FeedbackState, now: number = Date.now()): void {
  const known = new Set(entries.map((e) => e.id))
  const shown: { item: MessageContent & { id: number; kind: NoticeKind }; channel: FeedbackChannel }[] = [
    ...(state.alert ? [{ item: state.alert, channel: 'alert' as const }] : []),
    ...(state.snackbar ? [{ item: state.snackbar, channel: 'snackbar' as const }] : []),
    ...state.notices.map((item) => ({ item, channel: 'notification' as const })),
  ]
  const added = shown
    .filter(({ item }) => !known.has(item.id))
    .sort((a, b) => b.item.id - a.item.id)
    .map(({ item, channel }): HistoryEntry => ({ id: item.id, kind: item.kind, key: item.key, params: item.params, text: item.text, channel, at: now }))
  if (added.length === 0) return
  entries = [...added, ...entries].slice(0, MAX_HISTORY)
  emit()
}

export function clearFeedbackHistory(): void {
  if (entries.length === 0) return
  entries = []
  emit()
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener)
  return () => listeners.delete(listener)
}

export function useFeedbackHistory(): readonly HistoryEntry[] {
  return useSyncExternalStore(subscribe, () => entries, () => entries)
}
