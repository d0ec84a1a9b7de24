import type { FastifyInstance } from 'fastify'
import { sql } from 'kysely'
import { defineEntity, f } from '../../../schema/kit'
import type { ModuleDeps } from '../../engine/modules'
import { registerEntityRoutes } from '../../engine/routes'
import { isUploadOf, MEDIA_FILE_TABLE, readBody } from '../../engine/uploads'
import { messageFor } from '../../i18n'

/** Where the contract mounts the blog categories (api-contract §4.4): not the engine's `/<name>/api/v1/<name>`. */
export const BLOG_CATEGORY_CONTRACT_BASE = '/cms_blog_category/api/v1/blog_category'

/**
 * What `image_upload/` takes: one picture in the part `file`, judged like every image field
 * (by its bytes: PNG, JPEG, GIF or WebP, within 5 MB; an SVG or a page renamed `.png` is
 * refused) and stored with the blogs' files.
 */
const blogImage = defineEntity({
  name: 'cms_blog',
  module: 'cms',
  listKey: 'blog_images',
  route: { area: '', list: '' },
  fields: { file: f.image({ label: 'field.file' }) },
  nav: false,
})

/**
 * The blog's own routes (api-contract §4.4):
 * - `POST cms_blog/…/image_upload/` (multipart `file`) stores a picture for a post's body and
 *   answers the list of its URLs, as the image host the original forwarded to did; without a
 *   file, 400 `{error: "No file provided"}` (the contract's key; `detail` too, as every other
 *   refusal has). The picture belongs to no record: the body that shows it refers to it by its
 *   address, so it stays, counted in its uploader's quota.
 * - the blog categories' generic routes served a second time at the contract's base.
 */
export function registerBlogRoutes(app: FastifyInstance, deps: ModuleDeps): void {
  const blog = deps.registry.find((e) => e.name === 'cms_blog')
  const category = deps.registry.find((e) => e.name === 'cms_blog_category')
  // A test's registry of its own may have no CMS.
  if (!blog || !category) return

  app.post(`${blog.api.base}/image_upload/`, { config: { permission: [blog.permissions.CREATE, blog.permissions.UPDATE] } }, async (request, reply) => {
    const body = await readBody(request, blogImage, deps.mediaDir)
    const url = body.values.file
    // A text part named `file` (a path) is no upload: only a picture the caller uploaded counts.
    if (typeof url !== 'string' || !(await isOwnUpload(deps, url, request.principal?.id ?? null))) {
      await body.cleanup()
      const error = messageFor(request.headers['accept-language'], { key: 'detail.no_file_provided' })
      return reply.code(400).send({ error, detail: error })
    }
    return [url]
  })

  // Always behind a token there: `PUBLIC_READ` opens the engine's own base, whose reads know to leave out who wrote a row.
  const atContractBase = { ...category, api: { base: BLOG_CATEGORY_CONTRACT_BASE, bases: [BLOG_CATEGORY_CONTRACT_BASE], except: {} }, publicActions: [] }
  registerEntityRoutes(app, atContractBase, { db: deps.db, registry: deps.registry, hooks: deps.hooks, mediaDir: deps.mediaDir })
}

/** Whether `url` is a blog picture that `uploader` stored and still holds. */
async function isOwnUpload(deps: ModuleDeps, url: string, uploader: number | null): Promise<boolean> {
  if (!isUploadOf(blogImage, url)) return false
  const r = await sql`select 1 from ${sql.id(MEDIA_FILE_TABLE)} where path = ${url} and uploader is not distinct from ${uploader} and released_at is null`.execute(deps.db)
  return r.rows.length > 0
}
