import sharp from 'sharp'
import { THUMBNAIL_SIZE } from '../../schema/kit'

/**
 * The preview of an uploaded image: at most 320×320 inside, WebP, turned upright by its
 * EXIF orientation. Decoding is also the last check that the bytes are the image their
 * magic number says (a PNG header on anything else fails here): `undefined` when they
 * cannot be read.
 */
export async function makeThumbnail(bytes: Buffer, mime: string): Promise<Buffer | undefined> {
  try {
    const input = mime === 'image/x-icon' ? largestIconImage(bytes) : { data: bytes }
    if (!input) return undefined
    return await sharp(input.data, { raw: input.raw, limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error' })
      .rotate()
      .resize(THUMBNAIL_SIZE, THUMBNAIL_SIZE, { fit: 'inside', withoutEnlargement: true })
      .webp({ quality: 80 })
      .toBuffer()
  } catch {
    return undefined
  }
}

/** An image larger than this (about 8000×6000) is refused rather than decoded: a small file can claim a huge canvas. */
const MAX_INPUT_PIXELS = 50_000_000

type SharpInput = { data: Buffer; raw?: { width: number; height: number; channels: 4 } }

/**
 * libvips reads no ICO, so the icon's largest image is taken out of its directory: an
 * embedded PNG as it is, a 32- or 24-bit bitmap decoded to RGBA here. Other depths
 * (palette icons of the 1990s) are not read, and the icon is refused.
 */
export function largestIconImage(ico: Buffer): SharpInput | undefined {
  if (ico.length < 6 || ico.readUInt16LE(0) !== 0 || ico.readUInt16LE(2) !== 1) return undefined
  const count = ico.readUInt16LE(4)
  let best: { data: Buffer; area: number } | undefined
  for (let i = 0; i < count; i++) {
    const at = 6 + i * 16
    if (at + 16 > ico.length) return undefined
    const width = ico[at]! || 256
    const height = ico[at + 1]! || 256
    const size = ico.readUInt32LE(at + 8)
    const offset = ico.readUInt32LE(at + 12)
    if (offset + size > ico.length || size === 0) return undefined
    if (!best || width * height > best.area) best = { data: ico.subarray(offset, offset + size), area: width * height }
  }
  if (!best) return undefined
  if (best.data.subarray(0, 8).equals(Buffer.from('89504e470d0a1a0a', 'hex'))) return { data: best.data }
  return decodeIconBitmap(best.data)
}

function decodeIconBitmap(dib: Buffer): SharpInput | undefined {
  if (dib.length < 40 || dib.readUInt32LE(0) < 40) return undefined
  const headerSize = dib.readUInt32LE(0)
  const width = dib.readInt32LE(4)
  // The height counts the colour rows and the transparency mask's rows.
  const height = dib.readInt32LE(8) / 2
  const bitCount = dib.readUInt16LE(14)
  const compression = dib.readUInt32LE(16)
  if (compression !== 0 || (bitCount !== 32 && bitCount !== 24)) return undefined
  if (width <= 0 || width > 256 || height <= 0 || height > 256 || !Number.isInteger(height)) return undefined
  const bytesPerPixel = bitCount / 8
  const stride = Math.ceil((width * bitCount) / 32) * 4
  const maskStride = Math.ceil(width / 32) * 4
  const maskAt = headerSize + stride * height
  const hasMask = dib.length >= maskAt + maskStride * height
  if (dib.length < maskAt) return undefined
  const rgba = Buffer.alloc(width * height * 4)
  let anyAlpha = false
  for (let y = 0; y < height; y++) {
    // Rows are stored bottom-up.
    const row = headerSize + (height - 1 - y) * stride
    for (let x = 0; x < width; x++) {
      const src = row + x * bytesPerPixel
      const dst = (y * width + x) * 4
      rgba[dst] = dib[src + 2]!
      rgba[dst + 1] = dib[src + 1]!
      rgba[dst + 2] = dib[src]!
      const alpha = bitCount === 32 ? dib[src + 3]! : 255
      rgba[dst + 3] = alpha
      if (alpha !== 0) anyAlpha = true
    }
  }
  // Without an alpha channel (or one left at zero), the 1-bit mask says which pixels are transparent.
  if (hasMask && (bitCount === 24 || !anyAlpha)) {
    for (let y = 0; y < height; y++) {
      const row = maskAt + (height - 1 - y) * maskStride
      for (let x = 0; x < width; x++) {
        const isTransparent = (dib[row + (x >> 3)]! >> (7 - (x & 7))) & 1
        rgba[(y * width + x) * 4 + 3] = isTransparent ? 0 : 255
      }
    }
  }
  return { data: rgba, raw: { width, height, channels: 4 } }
}
