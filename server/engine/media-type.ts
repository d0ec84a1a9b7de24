import { extname } from 'node:path'

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

const SIGNATURES: ReadonlyArray<{ test: (bytes: Uint8Array) => boolean; type: SniffedType }> = [
  { test: (b) => startsWith(b, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), type: { mime: 'image/png', ext: '.png', isImage: true } },
  { test: (b) => startsWith(b, [0xff, 0xd8, 0xff]), type: { mime: 'image/jpeg', ext: '.jpg', isImage: true } },
  { test: (b) => startsWith(b, ascii('GIF87a')) || startsWith(b, ascii('GIF89a')), type: { mime: 'image/gif', ext: '.gif', isImage: true } },
  { test: (b) => startsWith(b, ascii('RIFF')) && startsWith(b, ascii('WEBP'), 8), type: { mime: 'image/webp', ext: '.webp', isImage: true } },
  // An icon directory: reserved 0, type 1, at least one image.
  { test: (b) => startsWith(b, [0, 0, 1, 0]) && b.length >= 6 && (b[4]! | (b[5]! << 8)) > 0, type: { mime: 'image/x-icon', ext: '.ico', isImage: true } },
  { test: (b) => startsWith(b, ascii('%PDF-')), type: { mime: 'application/pdf', ext: '.pdf', isImage: false } },
]

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
  const known = SIGNATURES.find((s) => s.test(bytes))
  if (known) return known.type
  const declared = extname(filename).toLowerCase()
  if (startsWith(bytes, ZIP)) return { mime: 'application/zip', ext: ZIP_EXTENSIONS.has(declared) ? declared : '.zip', isImage: false }
  if (bytes.length > 0 && isPlainText(bytes)) {
    return declared === '.csv' ? { mime: 'text/csv', ext: '.csv', isImage: false } : { mime: 'text/plain', ext: TEXT_EXTENSIONS.has(declared) ? declared : '.txt', isImage: false }
  }
  return INERT
}
