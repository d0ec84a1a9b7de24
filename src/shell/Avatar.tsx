import { useState } from 'react'
import { Icon } from '../engine/ui/icons'

function initialsOf(name: string): string {
  const parts = name.replace(/@.*/, '').split(/[\s._-]+/).filter(Boolean)
  return (parts.length > 1 ? `${parts[0]![0]}${parts[1]![0]}` : name.slice(0, 2)).toUpperCase()
}

/**
 * The user's photo, or the default avatar when there is none or it cannot be loaded
 * (spec §3): the initials of the name on the accent colour, a silhouette without a name.
 */
export function Avatar({ src, name, className = 'size-8 text-xs' }: { src: string | null | undefined; name: string; className?: string }) {
  const [failed, setFailed] = useState<string | null>(null)
  if (src && failed !== src) {
    return <img src={src} alt="" className={`${className} shrink-0 rounded-full object-cover`} onError={() => setFailed(src)} />
  }
  return (
    <span className={`${className} flex shrink-0 items-center justify-center rounded-full bg-th-accent font-semibold text-th-accent-fg`} aria-hidden="true" data-testid="default-avatar">
      {name ? initialsOf(name) : <Icon name="users" className="size-1/2" />}
    </span>
  )
}
