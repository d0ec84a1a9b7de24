import type { Widget } from '../kit/widget'
import { ecommerceWidgets } from './ecommerce'
import { supportWidgets } from './support'

/** The dashboards' widgets: the server serves their data, the screens draw them (a small module: the dashboard chunk imports it alone). */
export const dashboardWidgets: readonly Widget[] = [...ecommerceWidgets, ...supportWidgets]
