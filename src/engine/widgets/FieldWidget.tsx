import type { ComponentType } from 'react'
import type { Widget } from '../../../schema/kit'
import { Checkbox, PasswordInput, Select, TextArea, TextInput } from './BasicWidgets'
import { DateInput } from './DateInput'
import { FileInput } from './FileInput'
import { LazyRichTextInput } from './LazyRichTextInput'
import { LinesSummary } from './LinesSummary'
import { RefSelect, RefsSelect } from './RefSelect'
import { SlugInput } from './SlugInput'
import type { WidgetProps } from './types'

/** The widget of each registry widget kind. */
export const widgets: Record<Widget, ComponentType<WidgetProps>> = {
  text: TextInput,
  email: TextInput,
  phone: TextInput,
  url: TextInput,
  number: TextInput,
  decimal: TextInput,
  money: TextInput,
  date: DateInput,
  datetime: TextInput,
  password: PasswordInput,
  textarea: TextArea,
  json: TextArea,
  checkbox: Checkbox,
  select: Select,
  'ref-select': RefSelect,
  'refs-select': RefsSelect,
  file: FileInput,
  image: FileInput,
  richtext: LazyRichTextInput,
  slug: SlugInput,
  // The generic form draws a document's lines with LinesEditor; elsewhere (a bespoke form) a summary.
  lines: LinesSummary,
}

export function FieldWidget(props: WidgetProps) {
  const Component = widgets[props.field.widget]
  return <Component {...props} />
}
