import { arrayMove } from '@dnd-kit/sortable'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useCallback, useEffect, useMemo, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { IMAGE_TYPES } from '../../../schema/kit/fields'
import type { AnyEntity, Row } from '../entity-api'
import { errorText } from '../errors'
import { imageTypeOfFile } from '../file-bytes'
import { isApiError } from '../api'
import { entityKeys, shouldRetry } from '../queries'
import { fetchGallery, gallerySpecOf, removePicture, reorderGallery, uploadPicture } from './gallery-api'

/**
 * The headless gallery of one owner (a product's pictures), as the owner's form shows it.
 * Stored (the owner exists): each picture added is uploaded at once, in the order chosen,
 * each removal and new order saved at once. Staged (a new owner): pictures wait in the
 * browser, in order, and `uploadStaged` sends them once the owner is saved.
 */
export type GalleryItem = {
  key: string
  /** What the tile shows: the stored picture, or a local preview of a chosen file. */
  src: string
  name: string
  /** The stored picture's id. */
  rowId?: number
  file?: File
  state: 'stored' | 'staged' | 'uploading' | 'failed'
  error?: string
}

export type GalleryProblem = { key: string; text: string }

const galleryKey = (entity: AnyEntity, ownerId: number | null) => [...entityKeys.all(entity.name), 'gallery', ownerId] as const
const preview = (file: File) => (typeof URL.createObjectURL === 'function' ? URL.createObjectURL(file) : '')
let nextKey = 0
const newKey = () => `local-${++nextKey}`

export function useGallery(entity: AnyEntity, ownerId: number | null) {
  const { t } = useTranslation()
  const queryClient = useQueryClient()
  const spec = gallerySpecOf(entity)
  const imageField = entity.fields[spec.image]!
  const stored = useQuery({
    queryKey: galleryKey(entity, ownerId),
    queryFn: ({ signal }) => fetchGallery(entity, ownerId!, signal),
    enabled: ownerId !== null,
    retry: shouldRetry,
  })
  const [local, setLocal] = useState<GalleryItem[]>([])
  const [problems, setProblems] = useState<GalleryProblem[]>([])
  const localRef = useRef(local)
  localRef.current = local
  // Previews live as long as their tile.
  useEffect(() => () => localRef.current.forEach((item) => item.file && item.src && URL.revokeObjectURL(item.src)), [])

  const storedItems: GalleryItem[] = useMemo(
    () => (stored.data ?? []).map((row) => ({ key: `row-${row.id}`, src: String(row[spec.image] ?? ''), name: String(row[spec.image] ?? '').split('/').pop() ?? '', rowId: row.id, state: 'stored' as const })),
    [stored.data, spec.image],
  )
  const items = useMemo(() => [...storedItems, ...local], [storedItems, local])

  /** A chosen file the server would refuse anyway, judged first — by its bytes, as the server judges it: no tile, no upload for nothing. */
  const refusalOf = useCallback(
    async (file: File): Promise<string | undefined> => {
      const accepted: readonly string[] = imageField.accept ?? IMAGE_TYPES
      const type = await imageTypeOfFile(file)
      if (type === null || !accepted.includes(type)) return t('gallery.not_image', { name: file.name })
      if (imageField.maxBytes && file.size > imageField.maxBytes) return t('gallery.too_big', { name: file.name, size: `${Math.round(imageField.maxBytes / 1024 / 1024)} MB` })
      return undefined
    },
    [imageField, t],
  )

  const setStored = (rows: Row[]) => queryClient.setQueryData(galleryKey(entity, ownerId), rows)
  const refresh = () => queryClient.invalidateQueries({ queryKey: entityKeys.all(entity.name) })

  /** Uploads one file now; on failure its tile stays, marked, with the server's words. */
  const upload = async (item: GalleryItem, owner: number): Promise<string | undefined> => {
    try {
      await uploadPicture(entity, owner, item.file!)
      return undefined
    } catch (error) {
      return isApiError(error) && error.fieldErrors ? Object.values(error.fieldErrors).flat().join(' ') : errorText(t, error)
    }
  }

  const add = async (files: readonly File[]) => {
    const refused: GalleryProblem[] = []
    const chosen: GalleryItem[] = []
    for (const file of files) {
      const refusal = await refusalOf(file)
      if (refusal) refused.push({ key: newKey(), text: refusal })
      else chosen.push({ key: newKey(), src: preview(file), name: file.name, file, state: ownerId === null ? 'staged' : 'uploading' })
    }
    setProblems((now) => [...now, ...refused])
    setLocal((now) => [...now, ...chosen])
    if (ownerId === null) return
    // One after another: each goes last, so the gallery keeps the order the files were chosen in.
    for (const item of chosen) {
      const error = await upload(item, ownerId)
      if (error) {
        setLocal((now) => now.map((x) => (x.key === item.key ? { ...x, state: 'failed', error } : x)))
        continue
      }
      await queryClient.fetchQuery({ queryKey: galleryKey(entity, ownerId), queryFn: ({ signal }) => fetchGallery(entity, ownerId, signal), staleTime: 0 })
      setLocal((now) => now.filter((x) => x.key !== item.key))
      if (item.src) URL.revokeObjectURL(item.src)
    }
    await refresh()
  }

  const dropLocal = (key: string) =>
    setLocal((now) => {
      const item = now.find((x) => x.key === key)
      if (item?.src && item.file) URL.revokeObjectURL(item.src)
      return now.filter((x) => x.key !== key)
    })

  const remove = useMutation({
    mutationFn: (rowId: number) => removePicture(entity, rowId),
    onSuccess: refresh,
    onError: (error) => setProblems((now) => [...now, { key: newKey(), text: errorText(t, error) }]),
  })

  const reorder = useMutation({
    mutationFn: (ids: readonly number[]) => reorderGallery(entity, ownerId!, ids),
    onMutate: (ids) => {
      const before = stored.data ?? []
      const byId = new Map(before.map((row) => [row.id, row]))
      setStored(ids.map((id) => byId.get(id)!).filter(Boolean))
      return { before }
    },
    onSuccess: (rows) => setStored(rows),
    onError: (error, _ids, context) => {
      if (context) setStored(context.before)
      setProblems((now) => [...now, { key: newKey(), text: errorText(t, error) }])
    },
    onSettled: refresh,
  })

  /** Moves the tile at `from` to `to`: saved at once when stored, kept in the browser when staged. */
  const move = (from: number, to: number) => {
    if (from === to || to < 0 || to >= items.length) return
    if (ownerId === null) {
      setLocal((now) => arrayMove(now, from, to))
      return
    }
    // Only stored pictures have a place yet: uploads in flight stay after them.
    if (from >= storedItems.length || to >= storedItems.length) return
    reorder.mutate(arrayMove(storedItems, from, to).map((item) => item.rowId!))
  }

  /** Sends the staged pictures in their order to the owner just saved; answers the ones that failed. */
  const uploadStaged = async (owner: number): Promise<string[]> => {
    const failed: string[] = []
    for (const item of localRef.current.filter((x) => x.state === 'staged')) {
      const error = await upload(item, owner)
      if (error) failed.push(`${item.name} (${error})`)
    }
    await refresh()
    return failed
  }

  return {
    entity,
    items,
    /** How many tiles can be reordered (stored pictures, or every staged one). */
    sortableCount: ownerId === null ? local.length : storedItems.length,
    isLoading: ownerId !== null && stored.isPending,
    loadError: stored.isError ? errorText(t, stored.error) : undefined,
    problems,
    dismissProblem: (key: string) => setProblems((now) => now.filter((p) => p.key !== key)),
    add,
    move,
    dropLocal,
    remove: (rowId: number) => remove.mutateAsync(rowId),
    isRemoving: remove.isPending,
    uploadStaged,
    hasStaged: local.some((x) => x.state === 'staged'),
  }
}

export type GalleryController = ReturnType<typeof useGallery>
