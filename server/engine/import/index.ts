export { registerImportRoutes } from './routes'
export { isImportable, importableFieldNames, type ImportField, type ColumnMapping } from './fields'
export { importModes, type ImportMode, type ImportResult, type RowError } from './run'
