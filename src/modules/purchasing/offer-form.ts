import type { FormExtension } from '../../engine/form/extension'
import { OfferPictures } from './OfferPictures'

/** A vendor's offer: its form as the registry draws it, and the pictures of its items under it. */
export const offerFormExtension: FormExtension = { panels: [OfferPictures] }
