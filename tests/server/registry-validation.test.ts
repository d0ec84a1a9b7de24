import { entities } from '../../schema'
import { describeOnOneDatabase } from './helpers/app'
import { validationSuite } from './helpers/validation-suite'

/** Invalid input for every field of every registry entity, generated from the field kinds. */
describeOnOneDatabase('registry validation', (t) => {
  // Line entities are judged within their documents (tests/server/documents.test.ts).
  for (const entity of entities.filter((e) => !e.isLine)) validationSuite(t, entity, entities)
})
