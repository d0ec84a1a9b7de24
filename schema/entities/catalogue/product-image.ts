import { defineEntity, f } from '../../kit'

/**
 * One picture of a product's gallery (api-contract §4.8, `/productimage/`), in its place:
 * `position`, smaller first (a new picture goes last: server/domain/catalogue/product-images.ts).
 * The contract's `all_productimage_by_product_id/{product_id}` lists a product's gallery in
 * that order, so the entity's default order is the gallery's. Deleting the product deletes
 * its pictures.
 */
export const productImage = defineEntity({
  name: 'productimage',
  module: 'catalogue',
  listKey: 'product_images',
  model: 'ProductImage',
  permission: 'PRODUCT_IMAGE',
  labelField: 'product',
  ordering: 'position',
  route: { area: 'productImage-management', list: 'productImages' },
  fields: {
    product: f.ref('product', { required: true, onDelete: 'cascade', search: true }),
    image: f.image({ required: true }),
    position: f.integer({ default: 0, min: 0 }),
  },
  extraRoutes: [{ kind: 'listBy', path: 'all_productimage_by_product_id', field: 'product' }],
  // The product's form shows its pictures: several uploaded at once, dragged into order, removed.
  gallery: { of: 'product', image: 'image', position: 'position' },
  nav: { group: 'e-commerce', icon: 'image', order: 7 },
})
