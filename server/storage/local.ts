import { access, mkdir, open, stat, unlink, writeFile } from 'node:fs/promises'
import { constants, type Stats } from 'node:fs'
import { dirname, join, relative, resolve, sep } from 'node:path'
import { contentTypeOf, isStorageKey, type ByteRange, type FileStorage, type StoredFile, type StoredFileInfo } from './port'

/**
 * Files in a folder (`DATA_DIR/media`), each at its key (`<root>/<folder>/<name>`): where
 * uploads always were. Its validators are @fastify/send's, which served this folder before
 * (a weak ETag of size and modification time), so a browser's cached copies stay valid.
 */
export function localStorage(root: string): FileStorage {
  const base = resolve(root)

  /** The key's place under the root — never outside it, whatever the key says. */
  const pathOf = (key: string): string | undefined => {
    if (!isStorageKey(key)) return undefined
    const file = resolve(base, ...key.split('/'))
    return file === join(base, ...key.split('/')) && relative(base, file) === key.split('/').join(sep) ? file : undefined
  }

  const infoOf = (key: string, s: Stats): StoredFileInfo => ({
    size: s.size,
    contentType: contentTypeOf(key),
    etag: `W/"${s.size.toString(16)}-${s.mtime.getTime().toString(16)}"`,
    lastModified: s.mtime,
  })

  const isMissing = (e: unknown) => ['ENOENT', 'ENOTDIR', 'ENAMETOOLONG', 'EISDIR'].includes((e as NodeJS.ErrnoException).code ?? '')

  return {
    kind: 'local',
    description: base,
    async put(key, body) {
      const file = pathOf(key)
      if (!file) throw new Error(`not a storage key: ${key}`)
      await mkdir(dirname(file), { recursive: true })
      await writeFile(file, body)
    },
    async head(key) {
      const file = pathOf(key)
      if (!file) return undefined
      try {
        const s = await stat(file)
        return s.isFile() ? infoOf(key, s) : undefined
      } catch (e) {
        if (isMissing(e)) return undefined
        throw e
      }
    },
    async get(key, range?: ByteRange): Promise<StoredFile | undefined> {
      const file = pathOf(key)
      if (!file) return undefined
      // Opened first, then measured: a file removed meanwhile is either sent whole or not found.
      const handle = await open(file, 'r').catch((e: unknown) => {
        if (isMissing(e)) return undefined
        throw e
      })
      if (!handle) return undefined
      try {
        const s = await handle.stat()
        if (!s.isFile()) {
          await handle.close()
          return undefined
        }
        const body = handle.createReadStream(range ? { start: range.start, end: range.end } : {})
        return { ...infoOf(key, s), body }
      } catch (e) {
        await handle.close()
        throw e
      }
    },
    async delete(key) {
      const file = pathOf(key)
      if (!file) return false
      try {
        await unlink(file)
        return true
      } catch (e) {
        if (isMissing(e)) return false
        throw e
      }
    },
    async check() {
      await mkdir(base, { recursive: true })
      await access(base, constants.W_OK)
    },
    async close() {},
  }
}
