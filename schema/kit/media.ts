/**
 * Where the server keeps the small preview of an uploaded image: beside the original,
 * same name, `.thumb.webp` (at most 320×320, see server/engine/media-thumbnail.ts).
 * Lists show it instead of the full image.
 */
export function thumbnailOf(url: string): string {
  const slash = url.lastIndexOf('/')
  const dot = url.lastIndexOf('.')
  const stem = dot > slash ? url.slice(0, dot) : url
  return `${stem}.thumb.webp`
}

/** The longest side of a thumbnail, in pixels. */
export const THUMBNAIL_SIZE = 320
