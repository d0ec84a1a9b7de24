import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'

/**
 * Every colour scheme, light and dark, keeps white button labels on the primary colour
 * (Tailwind's indigo-600, remapped per theme in src/app/themes.css) at WCAG AA, 4.5:1.
 */
const css = readFileSync(new URL('../../../src/app/themes.css', import.meta.url), 'utf8')

/** Relative luminance of an `oklch(L% C H)` colour (OKLab → linear sRGB, clipped). */
function luminance(oklch: string): number {
  const [l, c, h] = (oklch.match(/[\d.]+%?/g) ?? []).slice(0, 3).map((x) => (x.endsWith('%') ? Number.parseFloat(x) / 100 : Number(x))) as [number, number, number]
  const a = c * Math.cos((h * Math.PI) / 180)
  const b = c * Math.sin((h * Math.PI) / 180)
  const [lc, mc, sc] = [l + 0.3963377774 * a + 0.2158037573 * b, l - 0.1055613458 * a - 0.0638541728 * b, l - 0.0894841775 * a - 1.291485548 * b].map((x) => x ** 3) as [number, number, number]
  const clip = (x: number) => Math.min(1, Math.max(0, x))
  const r = clip(4.0767416621 * lc - 3.3077115913 * mc + 0.2309699292 * sc)
  const g = clip(-1.2684380046 * lc + 2.6097574011 * mc - 0.3413193965 * sc)
  const bl = clip(-0.0041960863 * lc - 0.7034186147 * mc + 1.707614701 * sc)
  return 0.2126 * r + 0.7152 * g + 0.0722 * bl
}

const themes = [...css.matchAll(/html\[data-theme="([a-z]+-(?:light|dark))"\] \{([^}]*)\}/g)].map(([, name, body]) => ({
  name: name!,
  primary: /--color-indigo-600: (oklch\([^)]*\))/.exec(body!)?.[1],
}))

describe('colour schemes', () => {
  it('are many, each in light and dark', () => {
    expect(themes.length).toBeGreaterThanOrEqual(16)
  })

  it.each(themes.filter((t) => t.primary))('$name keeps white labels on its primary at 4.5:1 or more', ({ primary }) => {
    expect(1.05 / (luminance(primary!) + 0.05)).toBeGreaterThanOrEqual(4.5)
  })
})
