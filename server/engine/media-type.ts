import { extname } from 'node:path'
import { rasterImageTypeOf } from '../../schema/kit/media'

/**
 * What an uploaded file is, judged by its bytes (magic numbers), never by its name or the
 * type the client declared: a page or an SVG renamed `photo.png` and sent as `image/png`
 * is still markup.
 *
 * A small table rather than a library: the `file-type` package is not among the installed
 * dependencies, and the engine takes only a handful of types — the four raster images a
 * browser shows everywhere, ICO for icons, PDF, office files (zip) and plain text.
 * Anything else, markup first, is stored inert (`.bin`, served as a download).
 */
export type SniffedType = {
  /** The type the file is served and checked as. */
  mime: string
  /** The extension it is stored under (with the dot). */
  ext: string
  /** A raster image the thumbnailer can read (PNG, JPEG, GIF, WebP, ICO). */
  isImage: boolean
}

export const INERT: SniffedType = { mime: 'application/octet-stream', ext: '.bin', isImage: false }

const startsWith = (bytes: Uint8Array, signature: readonly number[], at = 0) =>
  bytes.length >= at + signature.length && signature.every((b, i) => bytes[at + i] === b)

const ascii = (text: string) => [...text].map((c) => c.charCodeAt(0))

/** The extension an image is stored under, by its type (rasterImageTypeOf). */
const IMAGE_EXTENSIONS: Readonly<Record<string, string>> = { 'image/png': '.png', 'image/jpeg': '.jpg', 'image/gif': '.gif', 'image/webp': '.webp', 'image/x-icon': '.ico' }

/** Office documents are zip files; their own extension is kept so they open in their program. */
const ZIP = [0x50, 0x4b, 0x03, 0x04]
const ZIP_EXTENSIONS = new Set(['.zip', '.docx', '.xlsx', '.pptx', '.odt', '.ods', '.odp'])
const TEXT_EXTENSIONS = new Set(['.txt', '.csv'])

/** Text a browser could take for a page, a drawing or a script, wherever it appears. */
const MARKUP = /<\s*(?:!doctype|html|head|body|script|svg|iframe|frame|object|embed|meta|link|style|img|a\s|\?xml|xsl|math)|<!--|javascript:/i

/** The types `accept` lists under two names. */
const ALIASES: Record<string, string> = { 'image/vnd.microsoft.icon': 'image/x-icon' }
export const canonicalType = (mime: string) => ALIASES[mime] ?? mime

function isPlainText(bytes: Uint8Array): boolean {
  if (bytes.includes(0)) return false
  try {
    const text = new TextDecoder('utf-8', { fatal: true }).decode(bytes)
    return !MARKUP.test(text)
  } catch {
    return false
  }
}

/** The type of a file from its bytes; `filename` only picks between names of the same type (`.xlsx` or `.zip`). */
export function sniffType(bytes: Uint8Array, filename: string): SniffedType {
  const image = rasterImageTypeOf(bytes)
  if (image) return { mime: image, ext: IMAGE_EXTENSIONS[image]!, isImage: true }
  if (startsWith(bytes, ascii('%PDF-'))) return { mime: 'application/pdf', ext: '.pdf', isImage: false }
  const declared = extname(filename).toLowerCase()
  if (startsWith(bytes, ZIP)) return { mime: 'application/zip', ext: ZIP_EXTENSIONS.has(declared) ? declared : '.zip', isImage: false }
  if (bytes.length > 0 && isPlainText(bytes)) {
    return declared === '.csv' ? { mime: 'text/csv', ext: '.csv', isImage: false } : { mime: 'text/plain', ext: TEXT_EXTENSIONS.has(declared) ? declared : '.txt', isImage: false }
  }
  return INERT
}
