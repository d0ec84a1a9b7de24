import { fireEvent, render } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { registry } from '../../schema'
import { FieldCell } from '../../src/engine/list/FieldCell'

/** Lists show an image's thumbnail (issue 11), lazily, and the original for an upload made before thumbnails. */
describe('image cells', () => {
  const field = registry.user.fields.image

  it('shows the thumbnail beside the upload, loaded when scrolled into view', () => {
    const { container } = render(<FieldCell field={field} value="/media/user/ada.png" />)
    const img = container.querySelector('img')!
    expect(img).toHaveAttribute('src', '/media/user/ada.thumb.webp')
    expect(img).toHaveAttribute('loading', 'lazy')
  })

  it('falls back to the original when there is no thumbnail, and leaves an image kept elsewhere as it is', () => {
    const { container } = render(<FieldCell field={field} value="/media/user/old.jpg" />)
    const img = container.querySelector('img')!
    fireEvent.error(img)
    expect(img.getAttribute('src')).toBe('/media/user/old.jpg')
    const other = render(<FieldCell field={field} value="https://cdn.example.com/a.png" />).container.querySelector('img')!
    expect(other).toHaveAttribute('src', 'https://cdn.example.com/a.png')
  })
})
