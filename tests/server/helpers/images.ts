import { crc32, deflateSync } from 'node:zlib'
import type { FilePart } from './multipart'

/**
 * Real images for upload tests: the server decodes every image it stores (to make its
 * thumbnail), so a PNG signature in front of filler bytes no longer passes.
 */

const SIGNATURE = Buffer.from('89504e470d0a1a0a', 'hex')

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8)
  head.writeUInt32BE(data.length, 0)
  head.write(type, 4, 'ascii')
  const crc = Buffer.alloc(4)
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0)
  return Buffer.concat([head, data, crc])
}

let sequence = 0

/**
 * A small RGB PNG (`width`×`height`, one colour, a new one each call so no two are the same
 * file), built without sharp so fixtures can be made synchronously. `bytes` pads it with a
 * text chunk to exactly that size (a quota test counts bytes).
 */
export function tinyPng(o: { width?: number; height?: number; bytes?: number } = {}): Buffer {
  const width = o.width ?? 2
  const height = o.height ?? 2
  const ihdr = Buffer.alloc(13)
  ihdr.writeUInt32BE(width, 0)
  ihdr.writeUInt32BE(height, 4)
  ihdr[8] = 8 // bit depth
  ihdr[9] = 2 // RGB
  const n = ++sequence
  const row = Buffer.concat([Buffer.from([0]), Buffer.alloc(width * 3).map((_, i) => [n % 251, (n * 7) % 251, (n * 13) % 251][i % 3]!)])
  const pixels = Buffer.concat(Array.from({ length: height }, () => row))
  const parts = [SIGNATURE, chunk('IHDR', ihdr), chunk('IDAT', deflateSync(pixels))]
  const end = chunk('IEND', Buffer.alloc(0))
  const size = parts.reduce((s, p) => s + p.length, 0) + end.length
  if (o.bytes !== undefined) {
    const filler = o.bytes - size - 12 - 'pad\0'.length
    if (filler < 0) throw new Error(`a PNG of ${width}×${height} takes more than ${o.bytes} bytes`)
    parts.push(chunk('tEXt', Buffer.concat([Buffer.from('pad\0', 'latin1'), Buffer.alloc(filler, 'x')])))
  }
  return Buffer.concat([...parts, end])
}

/** A PNG upload for a multipart body. */
export const pngPart = (name: string, o: { filename?: string; bytes?: number } = {}): FilePart => ({
  name,
  filename: o.filename ?? `${name}.png`,
  type: 'image/png',
  data: tinyPng({ bytes: o.bytes }),
})
