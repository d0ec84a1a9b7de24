import { Readable } from 'node:stream'
import { DeleteObjectCommand, GetObjectCommand, HeadBucketCommand, HeadObjectCommand, PutObjectCommand, S3Client, S3ServiceException } from '@aws-sdk/client-s3'
import { contentTypeOf, isStorageKey, type ByteRange, type FileStorage, type StoredFile, type StoredFileInfo } from './port'
import type { ObjectStorageSettings } from './settings'

/**
 * Files in an S3-compatible bucket (AWS S3, MinIO, Ceph, R2…), each at `<prefix>/<key>`: what
 * every server of a deployment shares. `/media/` still streams them through the app (same
 * URLs, headers and access as the folder), so the bucket itself can stay private.
 */
export function s3Storage(settings: ObjectStorageSettings): FileStorage {
  // The SDK warns, once per process, that its releases from 2027 will need a newer Node than
  // the app supports today: nothing an operator can act on, printed into every server's log.
  // Its documented switch; an operator who wants the notice sets it to anything else.
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true'
  const client = new S3Client({
    region: settings.region,
    endpoint: settings.endpoint,
    forcePathStyle: settings.forcePathStyle,
    credentials: settings.credentials,
    requestChecksumCalculation: settings.checksums,
    responseChecksumValidation: settings.checksums,
  })
  const Bucket = settings.bucket
  const objectKey = (key: string) => {
    if (!isStorageKey(key)) throw new Error(`not a storage key: ${key}`)
    return settings.prefix === '' ? key : `${settings.prefix}/${key}`
  }
  const isMissing = (e: unknown) => e instanceof S3ServiceException && (e.name === 'NoSuchKey' || e.name === 'NotFound' || e.$metadata.httpStatusCode === 404)

  const info = (key: string, o: { ContentLength?: number; ContentType?: string; ETag?: string; LastModified?: Date }): StoredFileInfo => ({
    size: o.ContentLength ?? 0,
    contentType: o.ContentType ?? contentTypeOf(key),
    etag: o.ETag ?? '""',
    lastModified: o.LastModified ?? new Date(0),
  })

  const head = async (key: string): Promise<StoredFileInfo | undefined> => {
    if (!isStorageKey(key)) return undefined
    try {
      return info(key, await client.send(new HeadObjectCommand({ Bucket, Key: objectKey(key) })))
    } catch (e) {
      if (isMissing(e)) return undefined
      throw e
    }
  }

  return {
    kind: 's3',
    description: `s3://${Bucket}${settings.prefix === '' ? '' : `/${settings.prefix}`}${settings.endpoint ? ` at ${settings.endpoint}` : ''}`,
    async put(key, body, options) {
      await client.send(new PutObjectCommand({ Bucket, Key: objectKey(key), Body: body, ContentType: options.contentType, ContentLength: body.length }))
    },
    head,
    async get(key, range?: ByteRange): Promise<StoredFile | undefined> {
      if (!isStorageKey(key)) return undefined
      try {
        const o = await client.send(new GetObjectCommand({ Bucket, Key: objectKey(key), Range: range ? `bytes=${range.start}-${range.end}` : undefined }))
        if (!(o.Body instanceof Readable)) throw new Error('the S3 client answered a body that is not a Node stream')
        // A range's answer counts the range; the file's size is after the slash of Content-Range.
        const size = range ? Number(/\/(\d+)$/.exec(o.ContentRange ?? '')?.[1] ?? o.ContentLength) : o.ContentLength
        return { ...info(key, { ...o, ContentLength: size }), body: o.Body }
      } catch (e) {
        if (isMissing(e)) return undefined
        throw e
      }
    },
    async delete(key) {
      if (!isStorageKey(key)) return false
      // S3 answers a delete the same whether or not the object was there: asked first, for the sweeper's count.
      const existed = (await head(key)) !== undefined
      await client.send(new DeleteObjectCommand({ Bucket, Key: objectKey(key) }))
      return existed
    },
    async check() {
      try {
        await client.send(new HeadBucketCommand({ Bucket }))
      } catch (e) {
        const status = e instanceof S3ServiceException ? e.$metadata.httpStatusCode : undefined
        // A HEAD answers without a body: the status is all S3 says.
        const why = status === 404 ? 'there is no such bucket' : status === 403 ? 'the credentials are refused' : status === 301 ? 'the bucket is in another region (S3_REGION)' : e instanceof Error ? e.message || e.name : String(e)
        throw new Error(why)
      }
    },
    async close() {
      client.destroy()
    },
  }
}
