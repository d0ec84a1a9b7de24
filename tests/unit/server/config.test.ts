import { describe, expect, it } from 'vitest'
import { ConfigError, loadConfig } from '../../../server/config'

/** Start-up configuration from the environment (README: environment variables). */
const SECRET = 'x'.repeat(32)

describe('loadConfig', () => {
  it('defaults to port 3000, ./data and the embedded database in demo mode', () => {
    const config = loadConfig({})
    expect(config).toMatchObject({ PORT: 3000, DATA_DIR: './data', NODE_ENV: 'development', isDemo: true, database: { kind: 'pglite', dataDir: './data' } })
  })

  it('uses PostgreSQL when DATABASE_URL is a postgres URL, and memory for memory://', () => {
    expect(loadConfig({ DATABASE_URL: 'postgres://u:p@db:5432/app' }).database).toEqual({ kind: 'postgres', url: 'postgres://u:p@db:5432/app' })
    expect(loadConfig({ DATABASE_URL: 'postgresql://db/app' }).database.kind).toBe('postgres')
    expect(loadConfig({ DATABASE_URL: 'memory://' }).database).toEqual({ kind: 'pglite', dataDir: undefined })
    expect(loadConfig({ DATABASE_URL: '' }).database).toEqual({ kind: 'pglite', dataDir: './data' })
  })

  it('refuses a DATABASE_URL that is not a PostgreSQL URL, saying what is expected', () => {
    expect(() => loadConfig({ DATABASE_URL: 'mysql://db/app' })).toThrow(ConfigError)
    expect(() => loadConfig({ DATABASE_URL: 'mysql://db/app' })).toThrow(
      "Invalid configuration:\n  - DATABASE_URL: must be a postgres:// or postgresql:// URL, or 'memory://' for a throwaway embedded database",
    )
  })

  it('reads TRUST_PROXY as a number of proxies or their addresses, and refuses anything else by name', () => {
    expect(loadConfig({}).TRUST_PROXY).toBeUndefined()
    expect(loadConfig({ TRUST_PROXY: '1' }).TRUST_PROXY).toBe(1)
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 127.0.0.1,::1' }).TRUST_PROXY).toEqual(['10.0.0.0/8', '127.0.0.1', '::1'])
    expect(() => loadConfig({ TRUST_PROXY: 'yes please' })).toThrow('TRUST_PROXY: must be a number of proxies or a comma-separated list of addresses or CIDR ranges (not yes please)')
  })

  it('refuses to start in production without JWT_SECRET', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(/JWT_SECRET: required when NODE_ENV=production/)
    const config = loadConfig({ NODE_ENV: 'production', JWT_SECRET: SECRET })
    expect(config.isDemo).toBe(false)
  })

  it.each([
    [{ PORT: 'eighty' }, 'PORT'],
    [{ PORT: '70000' }, 'PORT'],
    [{ JWT_SECRET: 'short' }, 'JWT_SECRET: must be at least 32 characters'],
    [{ ADMIN_EMAIL: 'admin' }, 'ADMIN_EMAIL'],
    [{ ADMIN_PASSWORD: 'short' }, 'ADMIN_PASSWORD: must be at least 8 characters'],
    [{ NODE_ENV: 'staging' }, 'NODE_ENV'],
  ])('refuses %j, naming %s', (env, message) => {
    expect(() => loadConfig(env)).toThrow(message)
  })

  it('reads CORS_ORIGINS as a comma-separated list', () => {
    expect(loadConfig({ CORS_ORIGINS: 'https://a.example, https://b.example,' }).CORS_ORIGINS).toEqual(['https://a.example', 'https://b.example'])
    expect(loadConfig({}).CORS_ORIGINS).toEqual([])
  })
})
