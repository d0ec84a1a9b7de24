import { z } from 'zod'
import { entities } from '../schema'
import { publicReadRefusal } from './engine/access'
import { refsAsIdsRefusal } from './engine/refs-as-ids'
import { objectStorageShape, storageSettingsOf, type StorageSettings } from './storage/settings'

/**
 * Configuration comes from the environment only and is validated once at start-up,
 * so a typo in a variable stops the server with a message instead of a surprise later.
 */
const listOf = z
  .string()
  .optional()
  .transform((s) => (s ?? '').split(',').map((x) => x.trim()).filter(Boolean))

/** What sessions and the mails about them need; read by the identity module (authSettings). */
const authShape = {
  SESSION_MAX_AGE_HOURS: z.coerce.number().int().min(1).max(24 * 366).default(7 * 24),
  PUBLIC_URL: z
    .url({ protocol: /^https?$/ })
    .optional()
    .transform((v) => v?.replace(/\/+$/, '')),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
}

const envSchema = z.object({
  ...authShape,
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  HOST: z.string().default('0.0.0.0'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .string()
    .optional()
    .refine((v) => v === undefined || v === '' || /^postgres(ql)?:\/\//.test(v) || v === 'memory://', {
      message: "must be a postgres:// or postgresql:// URL, or 'memory://' for a throwaway embedded database",
    })
    .transform((v) => (v === '' ? undefined : v)),
  JWT_SECRET: z.string().min(32, { message: 'must be at least 32 characters' }).optional(),
  CORS_ORIGINS: listOf,
  // Reference entities whose reads answer without a token (README: a risk to weigh).
  PUBLIC_READ: listOf,
  // References listed as raw ids (`entity.field`), for the original client's lists (README).
  LIST_REFS_AS_IDS: listOf,
  ADMIN_EMAIL: z.email().optional(),
  ADMIN_PASSWORD: z.string().min(8, { message: 'must be at least 8 characters' }).optional(),
  SMTP_URL: z
    .string()
    .optional()
    .refine((v) => v === undefined || v === '' || /^smtps?:\/\/./.test(v), { message: 'must be an smtp:// or smtps:// URL' })
    .transform((v) => (v === '' ? undefined : v)),
  MAIL_FROM: z.string().min(3).default('Back-office <no-reply@localhost>'),
  UPLOAD_QUOTA_MB: z.coerce.number().positive().default(50),
  // Read by the list engine (server/engine/list-positions.ts); judged here, so a typo stops the start.
  LIST_EXACT_COUNT_UP_TO: z.coerce.number().int().min(1).max(1e9).optional(),
  LIST_SEEK_FROM: z.coerce.number().int().min(1).max(1e9).optional(),
  // Behind a load balancer every request comes from it: which hops' X-Forwarded-For to believe (README).
  TRUST_PROXY: z
    .string()
    .optional()
    .transform((v, ctx): number | string[] | undefined => {
      const text = (v ?? '').trim()
      if (text === '') return undefined
      if (/^\d+$/.test(text)) return Number(text)
      const list = text.split(',').map((x) => x.trim()).filter(Boolean)
      const bad = list.filter((x) => !/^[0-9a-fA-F.:]+(\/\d{1,3})?$/.test(x))
      if (bad.length > 0) ctx.addIssue({ code: 'custom', message: `must be a number of proxies or a comma-separated list of addresses or CIDR ranges (not ${bad.join(', ')})` })
      return list
    }),
  // Files in an S3-compatible bucket instead of DATA_DIR/media (server/storage/settings.ts).
  ...objectStorageShape,
})

export type Env = z.output<typeof envSchema>

export type Config = Env & {
  /** Demo mode seeds demo data and prefills the login form: anything but production. */
  isDemo: boolean
  /** Embedded PGlite (the default) or a PostgreSQL server. */
  database: { kind: 'pglite'; dataDir: string | undefined } | { kind: 'postgres'; url: string }
  /** Where the app's files are kept: DATA_DIR/media, or the bucket of S3_BUCKET. */
  storage: StorageSettings
}

export class ConfigError extends Error {
  override name = 'ConfigError'
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env)
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  - ${i.path.join('.')}: ${i.message}`)
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`)
  }
  const e = parsed.data
  const isProduction = e.NODE_ENV === 'production'
  if (isProduction && !e.JWT_SECRET) {
    throw new ConfigError('Invalid configuration:\n  - JWT_SECRET: required when NODE_ENV=production (at least 32 random characters)')
  }
  const storage = storageSettingsOf(e)
  const refusals = [
    ...storage.problems,
    ...e.PUBLIC_READ.map((name) => publicReadRefusal(entities, name)).map((r) => r && `PUBLIC_READ: ${r}`),
    ...e.LIST_REFS_AS_IDS.map((pair) => refsAsIdsRefusal(entities, pair)).map((r) => r && `LIST_REFS_AS_IDS: ${r}`),
  ].filter((r): r is string => r !== null)
  if (refusals.length > 0) throw new ConfigError(`Invalid configuration:\n${refusals.map((r) => `  - ${r}`).join('\n')}`)
  const database: Config['database'] =
    e.DATABASE_URL === 'memory://'
      ? { kind: 'pglite', dataDir: undefined }
      : e.DATABASE_URL
        ? { kind: 'postgres', url: e.DATABASE_URL }
        : { kind: 'pglite', dataDir: e.DATA_DIR }
  return { ...e, isDemo: !isProduction, database, storage: storage.settings }
}

export type AuthSettings = {
  /** A session may be renewed until this long after its password sign-in. */
  sessionMaxAgeSeconds: number
  /** Where the browser app is reached: the links in mails (never the request's Host, which a caller chooses). */
  publicUrl: string
}

/** The session and mail-link settings alone (loadConfig has judged the whole environment at start). */
export function authSettings(env: NodeJS.ProcessEnv = process.env): AuthSettings {
  const parsed = z.object(authShape).safeParse(env)
  if (!parsed.success) throw new ConfigError(`Invalid configuration:\n${parsed.error.issues.map((i) => `  - ${i.path.join('.')}: ${i.message}`).join('\n')}`)
  const e = parsed.data
  return { sessionMaxAgeSeconds: e.SESSION_MAX_AGE_HOURS * 3600, publicUrl: e.PUBLIC_URL ?? `http://localhost:${e.PORT}` }
}
