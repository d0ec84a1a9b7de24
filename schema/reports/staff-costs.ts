import { defineReport, f } from '../kit'

/** Monthly staff costs by branch: head count, basic and allowance, with the totals of the company. */
export const staffCosts = defineReport({
  name: 'staff_costs',
  module: 'identity',
  route: 'staff-cost-reports',
  paged: false,
  params: {
    branch: f.ref('branch'),
    department: f.ref('department'),
    is_active: f.choice(['yes', 'no'], { label: 'field.is_active' }),
  },
  columns: {
    branch: f.text({ label: 'field.branch' }),
    employees: f.integer({ label: 'field.employees' }),
    // Money, shown as money (two places, grouped), though the contract keeps salaries in whole units.
    basic_money: f.money(),
    allowance_money: f.money(),
    total_money: f.money({ label: 'field.total_money' }),
  },
  totals: ['employees', 'basic_money', 'allowance_money', 'total_money'],
  ordering: ['branch'],
  nav: { group: 'reports', icon: 'payments', order: 10 },
})
