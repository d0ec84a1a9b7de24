/** The product mark: a stacked-ledger glyph in the brand colour. */
export function Logo({ className = 'size-8' }: { className?: string }) {
  return (
    <svg viewBox="0 0 32 32" className={className} aria-hidden="true">
      <rect width="32" height="32" rx="8" className="fill-indigo-600" />
      <path d="M9 11.5h14M9 16h14M9 20.5h9" stroke="white" strokeWidth="2.4" strokeLinecap="round" />
    </svg>
  )
}
