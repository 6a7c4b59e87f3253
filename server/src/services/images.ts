import { createHash } from "node:crypto"

const escapeXml = (text: string) =>
  text.replace(/[<>&"']/g, (c) => ({ "<": "&lt;", ">": "&gt;", "&": "&amp;", '"': "&quot;", "'": "&apos;" })[c] ?? c)

const hue = (seed: string, offset: number) => {
  const digest = createHash("sha256").update(seed).digest()
  return ((digest[offset] ?? 0) * 360) / 256
}

/** Up to two initials of a name or id: "Amber Vault" → "AV", "usdc" → "US". */
export const initials = (text: string): string => {
  const words = text.split(/[^A-Za-z0-9]+/).filter((w) => w.length > 0)
  const picked = words.length >= 2 ? `${words[0]?.[0] ?? ""}${words[1]?.[0] ?? ""}` : (words[0] ?? "?").slice(0, 2)
  return picked.toUpperCase()
}

/**
 * A generated square icon: a two-colour gradient chosen from `seed`, a shape, and `label` in the middle.
 * Every icon of the devstack is made here, so no third-party logo is ever served.
 */
export const iconSvg = (seed: string, label: string, shape: "square" | "circle" = "square"): string => {
  const a = hue(seed, 0)
  const b = (a + 40 + hue(seed, 1) / 4) % 360
  const inner = (hue(seed, 2) / 360) * 3
  const background =
    shape === "circle" ? `<circle cx="48" cy="48" r="48" fill="url(#g)"/>` : `<rect width="96" height="96" rx="22" fill="url(#g)"/>`
  const ornament =
    inner < 1
      ? `<circle cx="48" cy="48" r="30" fill="none" stroke="#fff" stroke-opacity=".35" stroke-width="6"/>`
      : inner < 2
        ? `<rect x="20" y="20" width="56" height="56" rx="10" fill="#fff" fill-opacity=".18"/>`
        : `<path d="M48 14 82 48 48 82 14 48Z" fill="#fff" fill-opacity=".18"/>`
  const size = label.length > 2 ? 22 : 32
  return `<svg xmlns="http://www.w3.org/2000/svg" width="96" height="96" viewBox="0 0 96 96"><defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="hsl(${a.toFixed(0)} 70% 52%)"/><stop offset="1" stop-color="hsl(${b.toFixed(0)} 75% 38%)"/></linearGradient></defs>${background}${ornament}<text x="48" y="50" text-anchor="middle" dominant-baseline="middle" font-family="system-ui, sans-serif" font-size="${size}" font-weight="700" fill="#fff">${escapeXml(label)}</text></svg>`
}

/**
 * The picture of an NFT: a mirrored 8×8 pixel figure on a two-colour background, all chosen from `seed` (chain,
 * contract and token id), so every token of a collection looks its own and the same on every run, with `label`
 * (the token id) in a corner.
 */
export const nftSvg = (seed: string, label: string): string => {
  const digest = createHash("sha256").update(seed).digest()
  const a = hue(seed, 0)
  const b = (a + 150 + hue(seed, 1) / 3) % 360
  const cells: Array<string> = []
  // Columns 0–3 come from the digest's bits and are mirrored onto 7–4, like a face or a creature.
  for (let row = 0; row < 8; row++) {
    for (let col = 0; col < 4; col++) {
      const bit = row * 4 + col
      if ((((digest[4 + (bit >> 3)] ?? 0) >> (bit & 7)) & 1) === 0) continue
      for (const x of [col, 7 - col]) cells.push(`<rect x="${16 + x * 8}" y="${12 + row * 8}" width="8" height="8"/>`)
    }
  }
  const width = Math.min(88, 10 + label.length * 7)
  return `<svg xmlns="http://www.w3.org/2000/svg" width="96" height="96" viewBox="0 0 96 96"><rect width="96" height="96" fill="hsl(${a.toFixed(0)} 55% 88%)"/><g fill="hsl(${b.toFixed(0)} 65% 38%)">${cells.join("")}</g><rect x="${92 - width}" y="78" width="${width}" height="14" rx="7" fill="#000" fill-opacity=".55"/><text x="${92 - width / 2}" y="86" text-anchor="middle" dominant-baseline="middle" font-family="system-ui, sans-serif" font-size="11" font-weight="700" fill="#fff">${escapeXml(label)}</text></svg>`
}
