import { entities } from '../../schema'
import { describeEachDatabase } from './helpers/app'
import { validationSuite } from './helpers/validation-suite'

/** Invalid input for every field of every registry entity, generated from the field kinds. */
describeEachDatabase('registry validation', (t) => {
  for (const entity of entities) validationSuite(t, entity, entities)
})
