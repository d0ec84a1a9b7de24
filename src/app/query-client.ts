import { QueryClient } from '@tanstack/react-query'
import { shouldRetry } from '../engine/queries'

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { retry: shouldRetry, staleTime: 30_000, refetchOnWindowFocus: false },
      mutations: { retry: false },
    },
  })
}

let shared: QueryClient | undefined

/** The app's cache; created with the first signed-in screen, so /login never loads it. */
export function sharedQueryClient(): QueryClient {
  shared ??= createQueryClient()
  return shared
}
