import { describe, expect, it } from 'vitest'
import { focusFirstInvalidWhenDrawn } from '../../src/engine/form/focus'

/**
 * A failed save brings the keyboard to the first field in error once its message is drawn,
 * however late that is (issue 20: under load the focus stayed on Save).
 */
describe('the focus after a failed save', () => {
  const formWith = (html: string) => {
    document.body.innerHTML = `<form>${html}<button type="submit">Save</button></form>`
    const form = document.querySelector('form')!
    form.querySelector('button')!.focus()
    return form
  }

  it('goes to the first field in error when its message is drawn later', async () => {
    const form = formWith('<div data-field="name"><input id="name"></div><div data-field="city"><input id="city"></div>')
    focusFirstInvalidWhenDrawn(form)
    expect(document.activeElement?.textContent).toBe('Save')
    // Drawn several frames after the save, as on a busy machine.
    await new Promise((resolve) => setTimeout(resolve, 50))
    form.querySelector('[data-field="city"]')!.setAttribute('data-invalid', '')
    form.querySelector('[data-field="name"]')!.setAttribute('data-invalid', '')
    await new Promise((resolve) => setTimeout(resolve, 0))
    expect(document.activeElement?.id).toBe('name')
  })

  it('leaves the focus where the person put it meanwhile', async () => {
    const form = formWith('<div data-field="name"><input id="name"></div><input id="elsewhere">')
    focusFirstInvalidWhenDrawn(form)
    ;(document.getElementById('elsewhere') as HTMLInputElement).focus()
    form.querySelector('[data-field="name"]')!.setAttribute('data-invalid', '')
    await new Promise((resolve) => setTimeout(resolve, 0))
    expect(document.activeElement?.id).toBe('elsewhere')
  })
})
