import type { EntityHooks } from '../../engine/hooks'
import { refuseCycles } from '../../engine/tree'

/**
 * A group cannot sit under itself or under one of its own descendants: the tree would lose
 * its root, and with it the nature of every account below. The engine's walk judges it in the
 * write's transaction against the stored tree, moves taking turns.
 */
export const groupRules: EntityHooks = refuseCycles('head_group', 'validation.group_cycle')
