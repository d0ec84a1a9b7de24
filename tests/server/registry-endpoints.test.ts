import { entities } from '../../schema'
import { describeOnOneDatabase } from './helpers/app'
import { endpointSuite } from './helpers/endpoint-suite'

/**
 * The contract's generic endpoints for every entity of the registry on every database:
 * a new entity is covered by adding it to the registry, with no new test code.
 */
describeOnOneDatabase('registry endpoints', (t) => {
  // Line entities have no routes: they are read and written with their documents.
  for (const entity of entities.filter((e) => !e.isLine)) endpointSuite(t, entity, entities)
})
