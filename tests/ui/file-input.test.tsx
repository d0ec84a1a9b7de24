import { fireEvent, render, screen, waitFor } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { f } from '../../schema/kit'
import { loadNamespaces } from '../../src/i18n'
import { FileInput } from '../../src/engine/widgets/FileInput'

/** An image field takes a picture by its bytes, as the server will judge it (issue 20). */
describe('an image field', () => {
  const pngBytes = new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10, 0, 0, 0, 13])
  const choose = async (file: File) => {
    await loadNamespaces('shell')
    const onChange = vi.fn()
    render(<FileInput id="photo" name="photo" field={f.image()} label="Photo" value={null} onChange={onChange} onBlur={() => {}} isInvalid={false} />)
    fireEvent.change(screen.getByLabelText('Photo'), { target: { files: [file] } })
    return onChange
  }

  it('takes a picture', async () => {
    const onChange = await choose(new File([pngBytes], 'face.png', { type: 'image/png' }))
    await waitFor(() => expect(onChange).toHaveBeenCalledTimes(1))
    expect(screen.queryByRole('alert')).toBeNull()
  })

  it('refuses a drawing named .png as it is chosen, saying so, and keeps the stored value', async () => {
    const onChange = await choose(new File(['<svg xmlns="http://www.w3.org/2000/svg"/>'], 'face.png', { type: 'image/png' }))
    expect(await screen.findByRole('alert')).toHaveTextContent('face.png is not a picture (PNG, JPEG, GIF or WebP).')
    expect(onChange).not.toHaveBeenCalled()
  })
})
