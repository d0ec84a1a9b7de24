import { IMAGE_SIGNATURE_BYTES, rasterImageTypeOf } from '../../schema/kit'

/**
 * The raster image a chosen file is, read from its first bytes as the server will judge it
 * (schema/kit/media.ts), or null: a drawing or a page named `photo.png` is refused here,
 * before it is shown as a tile or sent, not after Save.
 */
export async function imageTypeOfFile(file: Blob): Promise<string | null> {
  const head = await file.slice(0, IMAGE_SIGNATURE_BYTES).arrayBuffer()
  return rasterImageTypeOf(new Uint8Array(head))
}
