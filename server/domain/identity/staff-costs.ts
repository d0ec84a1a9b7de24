import { sql } from 'kysely'
import type { ReportRun } from '../../engine/reports'

/** Staff costs by branch: the employees of each branch and their monthly basic and allowance. */
export const staffCostRows: ReportRun = ({ params }) => {
  const active = params.is_active === 'yes' ? true : params.is_active === 'no' ? false : null
  return sql`
    select coalesce(b.name, '') as branch, count(*)::bigint as employees,
      coalesce(sum(e.basic_money), 0)::bigint as basic_money, coalesce(sum(e.allowance_money), 0)::bigint as allowance_money,
      (coalesce(sum(e.basic_money), 0) + coalesce(sum(e.allowance_money), 0))::bigint as total_money
    from employee e join "user" u on u.id = e.id left join branch b on b.id = e.branch
    where (${params.branch ?? null}::bigint is null or e.branch = ${params.branch ?? null}::bigint)
      and (${params.department ?? null}::bigint is null or e.department = ${params.department ?? null}::bigint)
      and (${active}::boolean is null or u.is_active = ${active}::boolean)
    group by b.name`
}
