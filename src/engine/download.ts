import { ApiError, NETWORK_ERROR_STATUS } from './api-error'
import { openApiResponse, saveFile } from './api-response'

/**
 * A file the server streams (an export), fetched with the session's token and language and
 * read as it comes, so the screen can say how far it is: the bytes received, for a CSV the
 * rows so far (its line ends, less the header), and the rows to come (`X-Total-Count`).
 * Abortable; when whole, saved under the name the server gave (`Content-Disposition`).
 * Failures are the HTTP client's: an ApiError with the server's words (errors.ts says them).
 */
export type DownloadProgress = {
  readonly receivedBytes: number
  /** Rows received so far; null when they cannot be counted (a workbook is a zip). */
  readonly rows: number | null
  /** Rows the file will hold, as the server announced them; null when it did not. */
  readonly totalRows: number | null
}

export type DownloadRequest = {
  /** The path below the origin (`/city/api/v1/city/export/`). */
  readonly path: string
  readonly searchParams?: Readonly<Record<string, string | number | undefined>>
  /** Counts rows by line ends (a CSV). */
  readonly countsRows?: boolean
  readonly signal?: AbortSignal
  readonly onProgress?: (progress: DownloadProgress) => void
  /** The name to save under when the answer gives none. */
  readonly fallbackName: string
}

export type Download = { readonly fileName: string; readonly receivedBytes: number; readonly rows: number | null }

/** The file name of a `Content-Disposition` header (`filename*=UTF-8''…` first), or undefined. */
export function fileNameOf(header: string | null): string | undefined {
  if (!header) return undefined
  const encoded = /filename\*\s*=\s*UTF-8''([^;]+)/i.exec(header)
  if (encoded) {
    try {
      return decodeURIComponent(encoded[1]!.trim())
    } catch {
      // A malformed escape: the plain name below, if any.
    }
  }
  const plain = /filename\s*=\s*"([^"]*)"|filename\s*=\s*([^;\s]+)/i.exec(header)
  const name = plain?.[1] ?? plain?.[2]
  // Only the last path segment: a name never chooses a folder.
  return name ? name.split(/[/\\]/).pop() || undefined : undefined
}

const LINE_FEED = 10

/** Fetches the file, reporting progress, and saves it. Rejects with an ApiError, or an AbortError when aborted. */
export async function downloadFile(request: DownloadRequest): Promise<Download> {
  const response = await openApiResponse(request.path, { searchParams: request.searchParams, signal: request.signal })

  const announced = Number(response.headers.get('X-Total-Count'))
  const totalRows = response.headers.has('X-Total-Count') && Number.isSafeInteger(announced) && announced >= 0 ? announced : null
  const chunks: Uint8Array[] = []
  let receivedBytes = 0
  let lineEnds = 0
  // A quoted cell may hold line ends of its own: never more rows than announced.
  const rowsSoFar = () => (request.countsRows ? Math.min(Math.max(0, lineEnds - 1), totalRows ?? Number.POSITIVE_INFINITY) : null)
  request.onProgress?.({ receivedBytes, rows: rowsSoFar(), totalRows })
  if (response.body) {
    const reader = response.body.getReader()
    try {
      for (;;) {
        const { done, value } = await reader.read()
        if (done) break
        chunks.push(value)
        receivedBytes += value.byteLength
        if (request.countsRows) for (let at = value.indexOf(LINE_FEED); at !== -1; at = value.indexOf(LINE_FEED, at + 1)) lineEnds++
        request.onProgress?.({ receivedBytes, rows: rowsSoFar(), totalRows })
      }
    } catch (error) {
      if (request.signal?.aborted) throw new DOMException('The download was cancelled.', 'AbortError')
      // The connection broke off mid-file: what came is not the file.
      throw new ApiError({ status: NETWORK_ERROR_STATUS, detail: error instanceof Error ? error.message : undefined })
    } finally {
      reader.releaseLock()
    }
  }
  if (request.signal?.aborted) throw new DOMException('The download was cancelled.', 'AbortError')
  const fileName = fileNameOf(response.headers.get('Content-Disposition')) ?? request.fallbackName
  const type = response.headers.get('Content-Type') ?? 'application/octet-stream'
  saveFile(new Blob(chunks as BlobPart[], { type }), fileName)
  return { fileName, receivedBytes, rows: rowsSoFar() }
}
