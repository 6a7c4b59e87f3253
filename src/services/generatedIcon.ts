/**
 * Icons made here, never fetched: initials on a colour drawn from a seed, for wallets that have no icon of their own
 * or one that would be fetched.
 */

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

// A wallet's own icon is shown up to this many characters (a generous PNG); a bigger one is generated instead.
const MAX_OWN_ICON_LENGTH = 128 * 1024

/**
 * The icon to show for a wallet that gave its own: kept when it is a `data:` image of a sensible size (EIP-6963 and
 * the Wallet Standard require `data:` URIs), else generated here — a URL would be fetched from its host, and
 * anything else is not an image.
 * @example walletIcon("https://icons.example/w.png", "com.example", "Example") // → a generated data: URL
 */
export const walletIcon = (icon: string, seed: string, name: string): string =>
  icon.length <= MAX_OWN_ICON_LENGTH && /^data:image\/[a-z0-9.+-]+[;,]/i.test(icon) ? icon : generatedIcon(seed, name)
