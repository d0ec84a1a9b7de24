import { useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Icon } from '../../engine/ui/icons'
import { toolbarButtonClass } from '../DropdownMenu'

/** Enters or leaves full screen; follows Escape and the browser's own controls too. */
export function FullscreenToggle() {
  const { t } = useTranslation()
  const [isFullscreen, setIsFullscreen] = useState(() => Boolean(document.fullscreenElement))
  useEffect(() => {
    const onChange = () => setIsFullscreen(Boolean(document.fullscreenElement))
    document.addEventListener('fullscreenchange', onChange)
    return () => document.removeEventListener('fullscreenchange', onChange)
  }, [])
  if (!document.fullscreenEnabled && !isFullscreen) return null
  const toggle = () => {
    const request = document.fullscreenElement ? document.exitFullscreen() : document.documentElement.requestFullscreen()
    // The browser may refuse (no user gesture, a policy): nothing changes then.
    void request?.catch(() => undefined)
  }
  return (
    <button type="button" className={toolbarButtonClass} onClick={toggle} aria-pressed={isFullscreen} aria-label={t(isFullscreen ? 'toolbar.exit_fullscreen' : 'toolbar.fullscreen')}>
      <Icon name={isFullscreen ? 'shrink' : 'expand'} className="size-5" />
    </button>
  )
}
