import { entities, reports } from '../../schema'
import { describeOnOneDatabase } from './helpers/app'
import { permissionMatrix } from './helpers/permission-matrix'

/** Every route of the app × every kind of caller: see helpers/permission-matrix.ts. */
describeOnOneDatabase('permission matrix', (t) => permissionMatrix(t, entities, reports))
