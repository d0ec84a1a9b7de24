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

const startsWith = (bytes: Uint8Array, signature: readonly number[], at = 0) =>
  bytes.length >= at + signature.length && signature.every((b, i) => bytes[at + i] === b)

const ascii = (text: string) => [...text].map((c) => c.charCodeAt(0))

/** How many leading bytes `rasterImageTypeOf` needs. */
export const IMAGE_SIGNATURE_BYTES = 16

/**
 * The raster image a file is, by its first bytes (magic numbers) — PNG, JPEG, GIF, WebP or
 * ICO — or null: never by its name or the type declared for it (an SVG renamed `photo.png`
 * is still markup). The server judges uploads by it, and the browser before it sends one.
 */
export function rasterImageTypeOf(bytes: Uint8Array): string | null {
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png'
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'image/jpeg'
  if (startsWith(bytes, ascii('GIF87a')) || startsWith(bytes, ascii('GIF89a'))) return 'image/gif'
  if (startsWith(bytes, ascii('RIFF')) && startsWith(bytes, ascii('WEBP'), 8)) return 'image/webp'
  // An icon directory: reserved 0, type 1, at least one image.
  if (startsWith(bytes, [0, 0, 1, 0]) && bytes.length >= 6 && (bytes[4]! | (bytes[5]! << 8)) > 0) return 'image/x-icon'
  return null
}
