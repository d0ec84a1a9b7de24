import { Outlet } from '@tanstack/react-router'
import { Notifications } from '../engine/ui/Notifications'

/** The root of every route: the page and the notification stack over it. */
export function RootLayout() {
  return (
    <>
      <Outlet />
      <Notifications />
    </>
  )
}
