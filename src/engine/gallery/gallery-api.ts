import { apiRequest } from '../api'
import { createRecord, deleteRecord, type AnyEntity, type Row } from '../entity-api'

/** The gallery spec of an entity that keeps another's pictures (EntityConfig.gallery). */
export type GallerySpec = NonNullable<AnyEntity['gallery']>

export const gallerySpecOf = (entity: AnyEntity): GallerySpec => {
  if (!entity.gallery) throw new Error(`${entity.name} is not a gallery`)
  return entity.gallery
}

/** The galleries whose pictures belong to rows of `owner` (a product's images). */
export const galleriesOf = (entities: readonly AnyEntity[], owner: AnyEntity): AnyEntity[] =>
  entities.filter((e) => e.gallery && e.fields[e.gallery.of]?.ref?.target === owner.name)

const rowsOf = (body: unknown, key: string): Row[] => {
  const rows = typeof body === 'object' && body !== null ? (body as Record<string, unknown>)[key] : undefined
  return Array.isArray(rows) ? rows.filter((r): r is Row => typeof r === 'object' && r !== null && typeof (r as Row).id === 'number') : []
}

/** Every picture of one owner, in their order (a gallery is small: its first hundred, one page). */
export async function fetchGallery(entity: AnyEntity, ownerId: number, signal?: AbortSignal): Promise<Row[]> {
  const { of, position } = gallerySpecOf(entity)
  const body = await apiRequest(`${entity.api.base}/search/`, { searchParams: { [of]: ownerId, ordering: position, page: 1, size: 100 }, signal })
  return rowsOf(body, entity.listKey)
}

/** One picture, uploaded: it goes last. */
export async function uploadPicture(entity: AnyEntity, ownerId: number, file: File): Promise<Row> {
  const { of, image } = gallerySpecOf(entity)
  const form = new FormData()
  form.set(of, String(ownerId))
  form.set(image, file, file.name)
  return createRecord(entity, form)
}

export const removePicture = (entity: AnyEntity, id: number) => deleteRecord(entity, id)

/** The owner's pictures in a new order; answers the gallery as stored. */
export async function reorderGallery(entity: AnyEntity, ownerId: number, ids: readonly number[]): Promise<Row[]> {
  const body = await apiRequest(`${entity.api.base}/reorder/`, { method: 'post', json: { [gallerySpecOf(entity).of]: ownerId, ids } })
  return rowsOf(body, entity.listKey)
}
