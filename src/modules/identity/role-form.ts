import type { FormExtension } from '../../engine/form/extension'
import { PermissionPicker } from './PermissionPicker'

/** The role form: its permissions grouped by entity, each group with "select all". */
export const roleFormExtension: FormExtension = {
  widgets: { permissions: PermissionPicker },
}
