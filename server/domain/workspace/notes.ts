import type { EntityHooks } from '../../engine/hooks'

/**
 * A note's owner is its writer (schema/entities/workspace/note.ts): whoever creates one is
 * its `user`, whatever the body says (the field is read-only to clients), so its owner — what
 * `own` reads — is always its author — what the scope reads. It keeps its owner on update.
 */
export const noteHooks: EntityHooks = {
  beforeValidate({ action, actor, input }) {
    if (action === 'create') input.user = actor?.id ?? null
  },
}
