import { useEffect, useSyncExternalStore } from 'react'

/**
 * A request to print a document, kept until its printed form is ready: Print, and Save &
 * print after a new record moved to its own address, ask here; the printed form (loaded with
 * its company and amount in words) prints once it has all it shows, rather than a moment
 * after the request with whatever had arrived by then.
 */
type PrintRequest = { readonly entity: string; readonly id: number }

let pending: PrintRequest | null = null
const listeners = new Set<() => void>()
const subscribe = (listener: () => void) => {
  listeners.add(listener)
  return () => listeners.delete(listener)
}

export function requestPrint(entity: string, id: number): void {
  pending = { entity, id }
  for (const listener of listeners) listener()
}

/** Prints the document `entity` `id` when it is asked for and `isReady`. */
export function usePrintRequest(entity: string, id: number, isReady: boolean): void {
  const request = useSyncExternalStore(subscribe, () => pending)
  useEffect(() => {
    if (!isReady || request?.entity !== entity || request.id !== id) return
    pending = null
    globalThis.print?.()
  }, [request, isReady, entity, id])
}
