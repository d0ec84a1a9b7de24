import { useEffect, useRef, useState, type ComponentType } from 'react'

/**
 * A screen's tool (a menu, a popover) whose code loads when a person reaches for its button —
 * the pointer over it, focus, a touch, a click — not with the screen: a list's first rows need
 * none of the menus' libraries (Headless UI, dnd-kit). Until the code is in, `Face` draws the
 * same button; the tool then takes its place, keeping the focus where it was, and a click that
 * came before it is passed to the tool's own button (its first), so the menu opens as asked.
 */
export function lazyTool<P extends object>(load: () => Promise<ComponentType<P>>, Face: ComponentType<P>): ComponentType<P> {
  let loaded: ComponentType<P> | undefined
  let loading: Promise<ComponentType<P>> | undefined
  const fetchTool = () =>
    (loading ??= load().then(
      (tool) => (loaded = tool),
      (error: unknown) => {
        // A failed load (the network dropped) is tried again at the next reach.
        loading = undefined
        throw error
      },
    ))

  function LazyTool(props: P) {
    const [Tool, setTool] = useState<ComponentType<P> | undefined>(() => loaded)
    const box = useRef<HTMLSpanElement>(null)
    const pending = useRef({ click: false, focus: false })
    // A press begun on the face keeps the face until it ends: a button swapped between a
    // pointerdown and its click makes the browser drop the click (its target left the page).
    const pressing = useRef(false)
    const reach = () => {
      if (Tool) return
      fetchTool().then(
        (tool) => {
          if (pressing.current) return
          pending.current.focus = box.current?.contains(document.activeElement) ?? false
          setTool(() => tool)
        },
        () => {},
      )
    }
    const press = () => {
      pressing.current = true
      // Released elsewhere (no click follows): the face gives way once the release is over.
      document.addEventListener(
        'pointerup',
        () =>
          setTimeout(() => {
            if (!pressing.current) return
            pressing.current = false
            reach()
          }),
        { once: true, capture: true },
      )
      reach()
    }
    useEffect(() => {
      if (!Tool) return
      const button = box.current?.querySelector<HTMLElement>('button, [role="button"]')
      if (pending.current.focus) button?.focus()
      if (pending.current.click) button?.click()
      pending.current = { click: false, focus: false }
    }, [Tool])
    return (
      <span
        ref={box}
        className="contents"
        onPointerOver={Tool ? undefined : reach}
        onFocus={Tool ? undefined : reach}
        onTouchStart={Tool ? undefined : reach}
        onPointerDownCapture={Tool ? undefined : press}
        onClickCapture={
          Tool
            ? undefined
            : () => {
                pressing.current = false
                pending.current.click = true
                reach()
              }
        }
      >
        {Tool ? <Tool {...props} /> : <Face {...props} />}
      </span>
    )
  }
  return LazyTool
}
