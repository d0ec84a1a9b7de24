import { z } from 'zod'

/**
 * Configuration comes from the environment only and is validated once at start-up,
 * so a typo in a variable stops the server with a message instead of a surprise later.
 */
const listOf = z
  .string()
  .optional()
  .transform((s) => (s ?? '').split(',').map((x) => x.trim()).filter(Boolean))

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
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
  ADMIN_EMAIL: z.email().optional(),
  ADMIN_PASSWORD: z.string().min(8, { message: 'must be at least 8 characters' }).optional(),
})

export type Env = z.output<typeof envSchema>

export type Config = Env & {
  /** Demo mode seeds demo data and prefills the login form: anything but production. */
  isDemo: boolean
  /** Embedded PGlite (the default) or a PostgreSQL server. */
  database: { kind: 'pglite'; dataDir: string | undefined } | { kind: 'postgres'; url: string }
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
  const database: Config['database'] =
    e.DATABASE_URL === 'memory://'
      ? { kind: 'pglite', dataDir: undefined }
      : e.DATABASE_URL
        ? { kind: 'postgres', url: e.DATABASE_URL }
        : { kind: 'pglite', dataDir: e.DATA_DIR }
  return { ...e, isDemo: !isProduction, database }
}
