import { z } from 'zod'

/**
 * Object storage settings, from the environment (config.ts validates them with the rest).
 * With `S3_BUCKET` set the app's files live in that bucket; without it, in `DATA_DIR/media`.
 */
const optionalText = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === '' ? undefined : v.trim()))

const flag = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === '' ? undefined : v.trim().toLowerCase()))
  .refine((v) => v === undefined || ['true', 'false', '1', '0'].includes(v), { message: "must be 'true' or 'false'" })
  .transform((v) => (v === undefined ? undefined : v === 'true' || v === '1'))

export const objectStorageShape = {
  S3_BUCKET: optionalText.refine((v) => v === undefined || /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(v), {
    message: 'must be a bucket name: 3 to 63 lower-case letters, digits, dots and hyphens',
  }),
  S3_ENDPOINT: optionalText.refine((v) => v === undefined || /^https?:\/\/[^/\s]+\/?$/.test(v), {
    message: 'must be the http:// or https:// address of the S3-compatible server (no path), e.g. https://s3.example.com:9000',
  }),
  S3_REGION: optionalText.refine((v) => v === undefined || /^[a-z0-9-]{1,40}$/.test(v), { message: 'must be a region name such as us-east-1' }),
  S3_ACCESS_KEY_ID: optionalText,
  S3_SECRET_ACCESS_KEY: optionalText,
  S3_FORCE_PATH_STYLE: flag,
  S3_PREFIX: optionalText.refine((v) => v === undefined || v.replace(/^\/+|\/+$/g, '').split('/').every((s) => s !== '' && s !== '.' && s !== '..' && !/[\\\0]/.test(s)), {
    message: "must be a folder path inside the bucket, such as 'backoffice' or 'shop/media' (no '..', no empty segment)",
  }),
  S3_CHECKSUMS: optionalText.refine((v) => v === undefined || ['when_required', 'when_supported'].includes(v.toLowerCase()), {
    message: "must be 'when_required' or 'when_supported'",
  }),
}

type ObjectStorageEnv = { [K in keyof typeof objectStorageShape]: z.output<(typeof objectStorageShape)[K]> }

export type ObjectStorageSettings = {
  bucket: string
  /** An S3-compatible server's address; absent: AWS S3 of `region`. */
  endpoint: string | undefined
  region: string
  /** Absent: the SDK's default chain (AWS_* variables, a profile, an instance role). */
  credentials: { accessKeyId: string; secretAccessKey: string } | undefined
  /** `bucket` in the path (`https://host/bucket/key`) rather than the host name. */
  forcePathStyle: boolean
  /** Keys are stored under this folder of the bucket (`prefix/brand/….png`); '' for the bucket's root. */
  prefix: string
  /** The SDK's newer checksums: only where an operation requires one, or wherever supported. */
  checksums: 'WHEN_REQUIRED' | 'WHEN_SUPPORTED'
}

export type StorageSettings = { kind: 'local' } | ({ kind: 's3' } & ObjectStorageSettings)

/**
 * The storage the environment names, or what is wrong with it (each line names its variable).
 * An S3 variable without `S3_BUCKET` is refused rather than ignored: files would silently stay
 * on one server's disk.
 */
export function storageSettingsOf(env: ObjectStorageEnv): { settings: StorageSettings; problems: string[] } {
  const problems: string[] = []
  const { S3_BUCKET: bucket, S3_ENDPOINT: endpoint, S3_ACCESS_KEY_ID: accessKeyId, S3_SECRET_ACCESS_KEY: secretAccessKey } = env
  if (!bucket) {
    const given = (Object.keys(objectStorageShape) as Array<keyof ObjectStorageEnv>).filter((k) => k !== 'S3_BUCKET' && env[k] !== undefined)
    if (given.length > 0) problems.push(`S3_BUCKET: required when ${given.join(', ')} ${given.length === 1 ? 'is' : 'are'} set (the bucket the files are kept in)`)
    return { settings: { kind: 'local' }, problems }
  }
  if ((accessKeyId === undefined) !== (secretAccessKey === undefined)) {
    problems.push(`${accessKeyId === undefined ? 'S3_ACCESS_KEY_ID' : 'S3_SECRET_ACCESS_KEY'}: required with ${accessKeyId === undefined ? 'S3_SECRET_ACCESS_KEY' : 'S3_ACCESS_KEY_ID'} (or set neither, for the SDK's own credentials)`)
  }
  // Another S3-compatible server (MinIO, Ceph, a test's) is most often reached by path and knows
  // only the checksums S3 always had; AWS itself takes the SDK's defaults.
  const isAws = endpoint === undefined
  return {
    settings: {
      kind: 's3',
      bucket,
      endpoint: endpoint?.replace(/\/+$/, ''),
      region: env.S3_REGION ?? 'us-east-1',
      credentials: accessKeyId !== undefined && secretAccessKey !== undefined ? { accessKeyId, secretAccessKey } : undefined,
      forcePathStyle: env.S3_FORCE_PATH_STYLE ?? !isAws,
      prefix: (env.S3_PREFIX ?? '').replace(/^\/+|\/+$/g, ''),
      checksums: env.S3_CHECKSUMS ? (env.S3_CHECKSUMS.toUpperCase() as ObjectStorageSettings['checksums']) : isAws ? 'WHEN_SUPPORTED' : 'WHEN_REQUIRED',
    },
    problems,
  }
}
