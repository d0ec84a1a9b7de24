import { useCallback } from 'react'
import type { AnyField } from '../../schema/kit'
import { useAccess } from './access-context'
import { useEntities } from './entities-context'

/**
 * Whether the user may pick a value of `field`: a reference offers the rows of its target,
 * which a user who may not list them cannot see. The one decision the form, the report's
 * parameters and the profile take alike; anything that is not a reference may be entered.
 * A target the app does not know (yet) is left to the server to judge.
 */
export function useCanPick(): (field: AnyField) => boolean {
  const access = useAccess()
  const entities = useEntities()
  return useCallback(
    (field: AnyField) => {
      const target = field.kind === 'ref' && field.ref ? entities.find((e) => e.name === field.ref!.target) : undefined
      return target === undefined || access.canDo(target, 'LIST')
    },
    [entities, access],
  )
}
