import { useSyncExternalStore } from 'react'

/** Phones (below Tailwind's `sm`): where a bar keeps its main button and folds the rest into a menu. */
const NARROW = '(max-width: 639.98px)'

const subscribe = (onChange: () => void) => {
  const query = globalThis.matchMedia?.(NARROW)
  query?.addEventListener?.('change', onChange)
  return () => query?.removeEventListener?.('change', onChange)
}

/** Whether the screen is phone-sized now (false where the browser cannot tell). */
export function useIsNarrow(): boolean {
  return useSyncExternalStore(subscribe, () => globalThis.matchMedia?.(NARROW).matches ?? false, () => false)
}
