/** Icons made here, never fetched: initials on a colour drawn from a seed, for wallets that have no icon of their own. */

/** Up to two initials of a wallet name, e.g. "Trust Wallet" → "TW", "imToken" → "IM". */
export const initialsOf = (name: string): string => {
  const words = name.split(/[^A-Za-z0-9]+/).filter((word) => word.length > 0)
  const letters = words.length >= 2 ? `${words[0]?.[0] ?? ""}${words[1]?.[0] ?? ""}` : (words[0] ?? "?").slice(0, 2)
  return letters.toUpperCase()
}

const hueOf = (seed: string): number => {
  let hash = 0
  for (let i = 0; i < seed.length; i++) hash = (hash * 31 + seed.charCodeAt(i)) >>> 0
  return hash % 360
}

/** A generated square icon (initials on a colour drawn from `seed`) as a `data:` URL; no network, no logo. */
export const generatedIcon = (seed: string, name: string): string => {
  const hue = hueOf(seed)
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="96" height="96" viewBox="0 0 96 96">` +
    `<rect width="96" height="96" rx="24" fill="hsl(${hue} 62% 42%)"/>` +
    `<text x="48" y="60" font-family="system-ui,sans-serif" font-size="36" font-weight="600" fill="#fff" text-anchor="middle">` +
    `${initialsOf(name)}</text></svg>`
  return `data:image/svg+xml,${encodeURIComponent(svg)}`
}
