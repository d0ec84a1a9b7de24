import { defineEntity, f } from '../../kit'

/**
 * A blog post (api-contract §4.4, `/cms_blog/`): its body and questions are formatted text,
 * sanitised by the server before they are stored; its slug is made from the title when left
 * blank (unique, `-2`, `-3`… on a clash). It is shown on the site once published; featured
 * posts lead. Pictures inside the body are uploaded with `image_upload/`
 * (server/domain/cms/blog-routes.ts), judged by their bytes like every upload.
 */
export const blog = defineEntity({
  name: 'cms_blog',
  module: 'cms',
  listKey: 'blogs',
  model: 'Blog',
  labelField: 'title',
  route: { area: 'blog-management', list: 'blogs' },
  fields: {
    title: f.text({ max: 500, required: true, search: true }),
    slug: f.slug({ from: 'title', unique: true, max: 500 }),
    image: f.image(),
    image_alt: f.text({ max: 255, hideInList: true }),
    short_des: f.text({ multiline: true, hideInList: true }),
    description: f.html({ hideInList: true }),
    blog_category: f.ref('cms_blog_category', { onDelete: 'setNull', search: true }),
    blog_country: f.ref('country', { onDelete: 'setNull' }),
    cms_content: f.ref('cms_menu_content', { onDelete: 'setNull', hideInList: true }),
    date: f.date(),
    is_published: f.boolean({ default: false }),
    is_featured: f.boolean({ default: false }),
    faq_content: f.html({ hideInList: true }),
    meta_title: f.text({ max: 255, hideInList: true }),
    meta_description: f.text({ multiline: true, hideInList: true }),
    meta_image: f.image({ hideInList: true }),
    fb_meta_title: f.text({ max: 255, hideInList: true }),
    fb_meta_description: f.text({ multiline: true, hideInList: true }),
    fb_meta_image: f.image({ hideInList: true }),
  },
  listColumns: ['image', 'title', 'slug', 'blog_category', 'date', 'is_published', 'is_featured'],
  filters: ['blog_category', 'blog_country', 'date', 'is_published', 'is_featured'],
  sections: [
    { key: 'post', label: 'section.post', fields: ['title', 'slug', 'blog_category', 'blog_country', 'cms_content', 'date', 'is_published', 'is_featured'] },
    { key: 'body', label: 'section.body', fields: ['image', 'image_alt', 'short_des', 'description', 'faq_content'] },
    { key: 'seo', label: 'section.seo', fields: ['meta_title', 'meta_description', 'meta_image', 'fb_meta_title', 'fb_meta_description', 'fb_meta_image'] },
  ],
  nav: { group: 'blogs-group', icon: 'rss_feed', order: 1, label: 'nav.blogs' },
})
