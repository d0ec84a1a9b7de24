import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { CreateBucketCommand, GetObjectCommand, HeadObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3'
import S3rver from 's3rver'
import type { ObjectStorageSettings } from '../../../server/storage'

/**
 * A real S3-compatible server (s3rver: S3's HTTP API over a temporary folder) on a free port,
 * with an empty bucket: what object-storage tests store into, and read back with the SDK
 * directly to see what the app left in the bucket.
 */
export type S3TestServer = {
  settings: ObjectStorageSettings
  /** The keys in the bucket under `prefix` (the settings' prefix excluded from each). */
  keys: () => Promise<string[]>
  has: (key: string) => Promise<boolean>
  bytesOf: (key: string) => Promise<Buffer>
  close: () => Promise<void>
}

export async function startS3Server(options: { bucket?: string; prefix?: string } = {}): Promise<S3TestServer> {
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true'
  const directory = mkdtempSync(join(tmpdir(), 's3rver-'))
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory })
  const { port } = await server.run()
  const settings: ObjectStorageSettings = {
    bucket: options.bucket ?? 'media',
    endpoint: `http://127.0.0.1:${port}`,
    region: 'us-east-1',
    // s3rver takes its own fixed keys.
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
    forcePathStyle: true,
    prefix: options.prefix ?? '',
    checksums: 'WHEN_REQUIRED',
  }
  const client = new S3Client({
    region: settings.region,
    endpoint: settings.endpoint,
    forcePathStyle: true,
    credentials: settings.credentials,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  })
  await client.send(new CreateBucketCommand({ Bucket: settings.bucket }))
  const full = (key: string) => (settings.prefix ? `${settings.prefix}/${key}` : key)
  return {
    settings,
    keys: async () => {
      const listed = await client.send(new ListObjectsV2Command({ Bucket: settings.bucket, Prefix: settings.prefix ? `${settings.prefix}/` : undefined }))
      return (listed.Contents ?? []).map((o) => o.Key!.slice(settings.prefix ? settings.prefix.length + 1 : 0)).sort()
    },
    has: async (key) =>
      client.send(new HeadObjectCommand({ Bucket: settings.bucket, Key: full(key) })).then(
        () => true,
        (e: { $metadata?: { httpStatusCode?: number } }) => {
          if (e.$metadata?.httpStatusCode === 404) return false
          throw e
        },
      ),
    bytesOf: async (key) => {
      const o = await client.send(new GetObjectCommand({ Bucket: settings.bucket, Key: full(key) }))
      return Buffer.from(await o.Body!.transformToByteArray())
    },
    close: async () => {
      client.destroy()
      await server.close()
      rmSync(directory, { recursive: true, force: true })
    },
  }
}
