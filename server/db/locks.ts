/**
 * The application's advisory lock ids: one scheme, 7240xx, so that no two uses meet by
 * chance (724_002 permissions and menus, 724_009 uploads, 724_010 the chart of accounts,
 * 724_011 slugs, 724_012 payment methods, 724_013 trees — named where they are used).
 */

/** The whole start-up of a server, held on a session of its own (startup-lock.ts). */
export const START_UP_LOCK = 724_000
/**
 * The migration transaction: a caller that migrates alone (tests, the bench) while a server
 * starts. A different id from the start-up's, which the same server holds on another session.
 */
export const MIGRATE_LOCK = 724_001
