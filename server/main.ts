import { ConfigError, loadConfig } from './config'
import { start } from './start'

/** The server process: configuration from the environment, the start-up sequence, a clean stop on a signal. */
async function main(): Promise<void> {
  const config = loadConfig()
  const { address, stop } = await start(config)
  console.log(`Back-office ready at ${address.replace('0.0.0.0', 'localhost')} (${config.database.kind}${config.isDemo ? ', demo mode' : ''})`)

  let closing = false
  const shutdown = async (signal: string) => {
    if (closing) return
    closing = true
    console.log(`${signal}: shutting down`)
    await stop()
    process.exit(0)
  }
  process.on('SIGINT', () => void shutdown('SIGINT'))
  process.on('SIGTERM', () => void shutdown('SIGTERM'))
}

main().catch((e: unknown) => {
  // Configuration, registry and migration problems carry their own explanation.
  const known = e instanceof ConfigError || (e instanceof Error && ['RegistryError', 'MigrationRefusedError', 'DataDirLockedError'].includes(e.name))
  console.error(known ? (e as Error).message : e)
  process.exit(1)
})
