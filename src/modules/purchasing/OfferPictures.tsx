import { useQuery } from '@tanstack/react-query'
import { useTranslation } from 'react-i18next'
import { thumbnailOf } from '../../../schema/kit'
import { apiRequest } from '../../engine/api'
import type { AnyEntity, Row } from '../../engine/entity-api'
import { entityKeys } from '../../engine/queries'
import { QueryPanel } from '../../engine/ui/QueryPanel'

type Item = { id: number; name: string; quantity: number; purchase_request_item_images: Array<{ id: number; image: string }> }

/**
 * The pictures the vendor sent with each offered item (the contract's
 * `purchase_request_with_items_images/{id}`), item by item, each opening the picture itself —
 * what the spec's items page (`purchase-request/items/{purchaseId}`) shows.
 */
export function OfferPictures({ entity, row }: { entity: AnyEntity; row: Row }) {
  const { t } = useTranslation()
  const items = useQuery({
    queryKey: [...entityKeys.all(entity.name), 'pictures', row.id],
    queryFn: async ({ signal }) => {
      const body = (await apiRequest(`${entity.api.base}/purchase_request_with_items_images/${row.id}`, { signal })) as { purchase_request_items?: Item[] }
      return body.purchase_request_items ?? []
    },
  })
  return (
    <QueryPanel id="offer-pictures" title={t('entity.purchase_req_item_image.other')} query={items}>
      {(offered) => (
        <ul className="divide-y divide-slate-100 dark:divide-slate-800">
          {offered.map((item) => (
            <li key={item.id} className="px-6 py-4">
              <p className="text-sm font-medium">{item.name}</p>
              {item.purchase_request_item_images.length === 0 ? (
                <p className="mt-1 text-sm text-slate-500 dark:text-slate-400">{t('form.related_none')}</p>
              ) : (
                <ul className="mt-2 flex flex-wrap gap-2">
                  {item.purchase_request_item_images.map((picture, i) => (
                    <li key={picture.id}>
                      <a href={picture.image} target="_blank" rel="noreferrer" className="block rounded-md focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-500">
                        <img src={thumbnailOf(picture.image)} alt={`${item.name} ${i + 1}`} className="size-20 rounded-md border border-slate-200 object-cover dark:border-slate-700" loading="lazy" />
                      </a>
                    </li>
                  ))}
                </ul>
              )}
            </li>
          ))}
        </ul>
      )}
    </QueryPanel>
  )
}
