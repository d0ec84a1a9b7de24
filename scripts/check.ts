import { checkApp } from '../server/check'

/** `npm run check`: the registry and the modules' wiring, without a database; exit 1 naming every problem. */
checkApp()
  .then(({ entities, reports, routes }) => {
    console.log(`check: ${entities} entities, ${reports} reports, ${routes} routes — no problems`)
  })
  .catch((e: unknown) => {
    console.error(e instanceof Error ? e.message : e)
    process.exit(1)
  })
