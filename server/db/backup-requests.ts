import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { randomUUID } from 'node:crypto'
import { join, resolve } from 'node:path'
import { z } from 'zod'
import { BackupError, writeBackup } from './backup'

/**
 * A backup of a running embedded database. Only the server may read PGlite's files while it
 * runs, so `npm run backup` asks it: it leaves a request in DATA_DIR/backups and signals the
 * process that holds the data directory's lock (SIGUSR2); the server writes the backup on its
 * own connection and leaves the answer beside the request. A signal reaches only processes
 * of the same user, who can read the data directory anyway: no password, no open port.
 */
const requestSchema = z.object({ file: z.string().min(1) })
const resultSchema = z.union([z.object({ ok: z.literal(true), file: z.string(), bytes: z.number() }), z.object({ ok: z.literal(false), error: z.string() })])
export type BackupResult = z.infer<typeof resultSchema>

const REQUEST = /^\.request-([0-9a-f-]{36})\.json$/
const requestsDir = (dataDir: string) => join(resolve(dataDir), 'backups')
const resultFile = (dir: string, id: string) => join(dir, `.request-${id}.result.json`)

/** Answers every backup request waiting in DATA_DIR/backups, one after the other. */
export async function answerBackupRequests(input: { dataDir: string; dump: () => Promise<Blob>; mediaDir: string | null }): Promise<number> {
  const dir = requestsDir(input.dataDir)
  if (!existsSync(dir)) return 0
  let answered = 0
  for (const name of readdirSync(dir)) {
    const id = REQUEST.exec(name)?.[1]
    if (!id) continue
    const path = join(dir, name)
    let result: BackupResult
    try {
      const request = requestSchema.parse(JSON.parse(readFileSync(path, 'utf8')))
      result = { ok: true, ...(await writeBackup({ dump: input.dump, mediaDir: input.mediaDir, file: request.file })) }
    } catch (e) {
      result = { ok: false, error: e instanceof Error ? e.message : String(e) }
    }
    rmSync(path, { force: true })
    // Written whole, then renamed: the asking script never reads half an answer.
    writeFileSync(`${resultFile(dir, id)}.partial`, JSON.stringify(result))
    renameSync(`${resultFile(dir, id)}.partial`, resultFile(dir, id))
    answered++
  }
  return answered
}

/** Listens for SIGUSR2 and answers the requests then waiting; the returned function stops listening. */
export function serveBackupRequests(input: Parameters<typeof answerBackupRequests>[0]): () => void {
  let running: Promise<unknown> = Promise.resolve()
  const onSignal = () => {
    running = running.then(() => answerBackupRequests(input)).catch((e: unknown) => console.error(`backup: ${e instanceof Error ? e.message : String(e)}`))
  }
  process.on('SIGUSR2', onSignal)
  return () => void process.off('SIGUSR2', onSignal)
}

/** Asks the server of `pid` for a backup into `file`, and waits for its answer. */
export async function requestBackup(input: { dataDir: string; pid: number; file: string; timeoutMs?: number }): Promise<{ file: string; bytes: number }> {
  const dir = requestsDir(input.dataDir)
  mkdirSync(dir, { recursive: true })
  const id = randomUUID()
  const path = join(dir, `.request-${id}.json`)
  writeFileSync(`${path}.partial`, JSON.stringify({ file: resolve(input.file) }))
  renameSync(`${path}.partial`, path)
  process.kill(input.pid, 'SIGUSR2')
  const until = Date.now() + (input.timeoutMs ?? 10 * 60_000)
  const answer = resultFile(dir, id)
  while (!existsSync(answer)) {
    if (Date.now() > until) {
      rmSync(path, { force: true })
      throw new BackupError(`The server (pid ${input.pid}) did not answer the backup request in time.`)
    }
    await new Promise((r) => setTimeout(r, 100))
  }
  const result = resultSchema.parse(JSON.parse(readFileSync(answer, 'utf8')))
  rmSync(answer, { force: true })
  if (!result.ok) throw new BackupError(`The server could not write the backup: ${result.error}`)
  return { file: result.file, bytes: result.bytes }
}
