import { createContext, useContext, type ReactNode } from 'react'
import type { Report } from '../../schema/kit/report'
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

/**
 * The reports the router was built from (`defineReport` in the registry), for what lists
 * them without opening one: the navigation built from the registry, the default shortcuts.
 */
const ReportsContext = createContext<readonly Report[]>([])

export function ReportsProvider({ reports, children }: { reports: readonly Report[]; children: ReactNode }) {
  return <ReportsContext.Provider value={reports}>{children}</ReportsContext.Provider>
}

export function useReports(): readonly Report[] {
  return useContext(ReportsContext)
}
