import { resolve } from 'node:path'
import { localStorage } from './local'
import type { FileStorage } from './port'
import { s3Storage } from './s3'
import type { StorageSettings } from './settings'

export { contentTypeOf, isStorageKey, type ByteRange, type FileStorage, type StoredFile, type StoredFileInfo } from './port'
export { localStorage } from './local'
export { s3Storage } from './s3'
export { objectStorageShape, storageSettingsOf, type ObjectStorageSettings, type StorageSettings } from './settings'

/**
 * The storage of an app's files, by the app's media folder: the app and its engine name their
 * media by that folder (`mediaDir`, in every route's deps), and this answers where its files
 * really are — a bucket bound to it at start (`bindMediaStorage`), else the folder itself.
 * One lookup for every reader and writer (uploads, the sweeper, `/media/`), so there is no
 * second path to the files.
 */
const bound = new Map<string, FileStorage>()
const local = new Map<string, FileStorage>()

export function mediaStorage(mediaDir: string): FileStorage {
  const key = resolve(mediaDir)
  const storage = bound.get(key) ?? local.get(key)
  if (storage) return storage
  const made = localStorage(key)
  local.set(key, made)
  return made
}

/**
 * Keeps the files of the app at `mediaDir` where `settings` say (S3 when configured): called
 * once before the app is built. The app closes it with itself (`releaseMediaStorage`).
 */
export function bindMediaStorage(mediaDir: string, settings: StorageSettings | FileStorage): FileStorage {
  const storage = 'put' in settings ? settings : settings.kind === 's3' ? s3Storage(settings) : localStorage(mediaDir)
  bound.set(resolve(mediaDir), storage)
  return storage
}

/** Forgets and closes the storage bound to `mediaDir` (the app serving it is closing). */
export async function releaseMediaStorage(mediaDir: string): Promise<void> {
  const key = resolve(mediaDir)
  const storage = bound.get(key)
  bound.delete(key)
  local.delete(key)
  await storage?.close()
}
