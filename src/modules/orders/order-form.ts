import type { FormExtension } from '../../engine/form/extension'
import { ProductStockSelect } from './ProductStockSelect'

/** An order on the generic form: its lines' products found with the stock they have. */
export const orderFormExtension: FormExtension = { widgets: { 'order_items.product': ProductStockSelect } }
