import { createContext, useContext, type ReactNode } from 'react'
import type { AnyEntity } from './entity-api'

/**
 * The entity list the router was built from. Screens look up reference targets here
 * rather than importing the registry, so a router built from another list (a test's
 * throwaway entity) is self-consistent.
 */
const EntitiesContext = createContext<readonly AnyEntity[]>([])

export function EntitiesProvider({ entities, children }: { entities: readonly AnyEntity[]; children: ReactNode }) {
  return <EntitiesContext.Provider value={entities}>{children}</EntitiesContext.Provider>
}

export function useEntities(): readonly AnyEntity[] {
  return useContext(EntitiesContext)
}

export function useEntity(name: string): AnyEntity | undefined {
  return useContext(EntitiesContext).find((e) => e.name === name)
}
