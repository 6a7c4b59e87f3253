/**
 * A small QR decoder for tests: reads a module matrix the way a scanner does once it has sampled the grid (format
 * bits, unmasking, zigzag codeword order, de-interleaving), corrects each block with Reed–Solomon as an error decoder
 * (a scanner does not know which modules a logo hid), and parses numeric, alphanumeric and byte segments.
 * Written from ISO/IEC 18004, apart from the encoder, so a picture the encoder's own data calls fine can still fail here.
 */
import { encode } from "uqr"

/** The error-correction levels as the format bits name them. */
export type EccLevel = "L" | "M" | "Q" | "H"

/** What {@link decodeQr} read. */
export interface DecodedQr {
  readonly text: string
  readonly version: number
  readonly ecc: EccLevel
  /** The mask pattern its format bits name. */
  readonly mask: number
  /** Codewords corrected, per block. */
  readonly corrected: ReadonlyArray<number>
  /** How many errors each block could correct. */
  readonly capacity: ReadonlyArray<number>
}

const ECC_BY_FORMAT: Record<number, EccLevel> = { 0: "M", 1: "L", 2: "H", 3: "Q" }

// ISO/IEC 18004 table 9, versions 1–40 (index 0 unused).
const EC_PER_BLOCK: Record<EccLevel, ReadonlyArray<number>> = {
  L: [0, 7, 10, 15, 20, 26, 18, 20, 24, 30, 18, 20, 24, 26, 30, 22, 24, 28, 30, 28, 28, 28, 28, 30, 30, 26, 28, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30],
  M: [0, 10, 16, 26, 18, 24, 16, 18, 22, 22, 26, 30, 22, 22, 24, 24, 28, 28, 26, 26, 26, 26, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28],
  Q: [0, 13, 22, 18, 26, 18, 24, 18, 22, 20, 24, 28, 26, 24, 20, 30, 24, 28, 28, 26, 30, 28, 30, 30, 30, 30, 28, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30],
  H: [0, 17, 28, 22, 16, 22, 28, 26, 26, 24, 28, 24, 28, 22, 24, 24, 30, 28, 28, 26, 28, 30, 24, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30]
}
const BLOCKS: Record<EccLevel, ReadonlyArray<number>> = {
  L: [0, 1, 1, 1, 1, 1, 2, 2, 2, 2, 4, 4, 4, 4, 4, 6, 6, 6, 6, 7, 8, 8, 9, 9, 10, 12, 12, 12, 13, 14, 15, 16, 17, 18, 19, 19, 20, 21, 22, 24, 25],
  M: [0, 1, 1, 1, 2, 2, 4, 4, 4, 5, 5, 5, 8, 9, 9, 10, 10, 11, 13, 14, 16, 17, 17, 18, 20, 21, 23, 25, 26, 28, 29, 31, 33, 35, 37, 38, 40, 43, 45, 47, 49],
  Q: [0, 1, 1, 2, 2, 4, 4, 6, 6, 8, 8, 8, 10, 12, 16, 12, 17, 16, 18, 21, 20, 23, 23, 25, 27, 29, 34, 34, 35, 38, 40, 43, 45, 48, 51, 53, 56, 59, 62, 65, 68],
  H: [0, 1, 1, 2, 4, 4, 4, 5, 6, 8, 8, 11, 11, 16, 16, 18, 16, 19, 21, 25, 25, 25, 34, 30, 32, 35, 37, 40, 42, 45, 48, 51, 54, 57, 60, 63, 66, 70, 74, 77, 81]
}
// Codewords of small symbols kept back from correction against misdecoding (ISO/IEC 18004 table 9, "p").
const MISDECODE_PROTECTION: Partial<Record<string, number>> = { "1L": 3, "1M": 2, "1Q": 1, "1H": 1, "2L": 2, "3L": 1 }

const EXP = new Uint8Array(512)
const LOG = new Uint8Array(256)
{
  let x = 1
  for (let i = 0; i < 255; i++) {
    EXP[i] = x
    LOG[x] = i
    x <<= 1
    if (x & 0x100) x ^= 0x11d
  }
  for (let i = 255; i < 512; i++) EXP[i] = EXP[i - 255]!
}
const mul = (a: number, b: number) => (a === 0 || b === 0 ? 0 : EXP[LOG[a]! + LOG[b]!]!)
const div = (a: number, b: number) => (a === 0 ? 0 : EXP[(LOG[a]! + 255 - LOG[b]!) % 255]!)
/** A polynomial with its lowest-degree coefficient first. */
const evalLow = (poly: ReadonlyArray<number>, x: number) => poly.reduceRight((acc, c) => mul(acc, x) ^ c, 0)

/** Corrects one block in place (codeword 0 is the highest power); the number of errors, or throws past the block's capacity. */
const correctBlock = (block: Array<number>, ecLen: number, capacity: number): number => {
  const n = block.length
  const syndromes = Array.from({ length: ecLen }, (_, i) => block.reduce((acc, c) => mul(acc, EXP[i]!) ^ c, 0))
  if (syndromes.every((s) => s === 0)) return 0
  // Berlekamp–Massey: the error locator, lowest degree first.
  let locator = [1]
  let previous = [1]
  let errors = 0
  let shift = 1
  let lastDiscrepancy = 1
  for (let k = 0; k < ecLen; k++) {
    let d = syndromes[k]!
    for (let i = 1; i <= errors; i++) d ^= mul(locator[i] ?? 0, syndromes[k - i]!)
    if (d === 0) {
      shift++
      continue
    }
    const scale = div(d, lastDiscrepancy)
    const next = locator.slice()
    previous.forEach((c, i) => {
      next[i + shift] = (next[i + shift] ?? 0) ^ mul(scale, c)
    })
    if (2 * errors <= k) {
      previous = locator
      errors = k + 1 - errors
      lastDiscrepancy = d
      shift = 1
    } else {
      shift++
    }
    locator = next
  }
  if (errors > capacity) throw new Error(`block needs ${errors} corrections, can take ${capacity}`)
  // Chien search: an error at index `n - 1 - j` has locator root α^-j.
  const positions: Array<number> = []
  for (let j = 0; j < n; j++) if (evalLow(locator, EXP[(255 - j) % 255]!) === 0) positions.push(j)
  if (positions.length !== errors) throw new Error("uncorrectable block: the error locator has the wrong roots")
  // Forney, first consecutive root α^0: e = X · Ω(X⁻¹) / Λ'(X⁻¹).
  const omega = Array.from({ length: ecLen }, (_, i) => {
    let sum = 0
    for (let j = 0; j <= i; j++) sum ^= mul(syndromes[i - j]!, locator[j] ?? 0)
    return sum
  })
  const derivative = locator.map((c, i) => (i % 2 === 1 ? c : 0)).slice(1)
  for (const j of positions) {
    const x = EXP[j]!
    const xInverse = EXP[(255 - j) % 255]!
    block[n - 1 - j]! ^= mul(x, div(evalLow(omega, xInverse), evalLow(derivative, xInverse)))
  }
  const check = Array.from({ length: ecLen }, (_, i) => block.reduce((acc, c) => mul(acc, EXP[i]!) ^ c, 0))
  if (check.some((s) => s !== 0)) throw new Error("uncorrectable block: syndromes remain after correction")
  return errors
}

const masked = (mask: number, x: number, y: number): boolean => {
  switch (mask) {
    case 0: return (x + y) % 2 === 0
    case 1: return y % 2 === 0
    case 2: return x % 3 === 0
    case 3: return (x + y) % 3 === 0
    case 4: return (Math.floor(x / 3) + Math.floor(y / 2)) % 2 === 0
    case 5: return ((x * y) % 2) + ((x * y) % 3) === 0
    case 6: return (((x * y) % 2) + ((x * y) % 3)) % 2 === 0
    default: return (((x + y) % 2) + ((x * y) % 3)) % 2 === 0
  }
}

const ALPHANUMERIC = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ $%*+-./:"

const parseSegments = (bytes: ReadonlyArray<number>, version: number): string => {
  let bit = 0
  const read = (count: number) => {
    let value = 0
    for (let i = 0; i < count; i++, bit++) value = (value << 1) | ((bytes[bit >> 3]! >> (7 - (bit & 7))) & 1)
    return value
  }
  const band = version < 10 ? 0 : version < 27 ? 1 : 2
  let text = ""
  while (bit + 4 <= bytes.length * 8) {
    const mode = read(4)
    if (mode === 0) break
    if (mode === 4) {
      const count = read([8, 16, 16][band]!)
      text += new TextDecoder().decode(new Uint8Array(Array.from({ length: count }, () => read(8))))
    } else if (mode === 2) {
      let count = read([9, 11, 13][band]!)
      for (; count >= 2; count -= 2) {
        const pair = read(11)
        text += ALPHANUMERIC[Math.floor(pair / 45)]! + ALPHANUMERIC[pair % 45]!
      }
      if (count === 1) text += ALPHANUMERIC[read(6)]!
    } else if (mode === 1) {
      let count = read([10, 12, 14][band]!)
      for (; count >= 3; count -= 3) text += String(read(10)).padStart(3, "0")
      if (count === 2) text += String(read(7)).padStart(2, "0")
      if (count === 1) text += String(read(4))
    } else {
      throw new Error(`unsupported segment mode ${mode}`)
    }
  }
  return text
}

/**
 * Decodes a square module matrix (`true` = dark, no quiet zone) as a scanner would after sampling it; throws when a
 * block has more errors than it can correct.
 */
export const decodeQr = (modules: ReadonlyArray<ReadonlyArray<boolean>>): DecodedQr => {
  const size = modules.length
  const version = (size - 17) / 4
  if (!Number.isInteger(version) || version < 1 || version > 40) throw new Error(`not a QR size: ${size}`)
  const dark = (x: number, y: number) => modules[y]?.[x] === true
  // The first copy of the format bits, beside the top-left finder.
  let format = 0
  const formatCells: Array<readonly [number, number]> = [
    [8, 0], [8, 1], [8, 2], [8, 3], [8, 4], [8, 5], [8, 7], [8, 8], [7, 8], [5, 8], [4, 8], [3, 8], [2, 8], [1, 8], [0, 8]
  ]
  formatCells.forEach(([x, y], i) => {
    if (dark(x, y)) format |= 1 << i
  })
  format ^= 0x5412
  const ecc = ECC_BY_FORMAT[format >> 13]!
  const mask = (format >> 10) & 7
  // Which modules are function patterns depends on the version only; an empty code of that version marks them.
  const functionModules = encode("", { ecc: "L", minVersion: version, maxVersion: version, border: 0 }).types
  const bits: Array<boolean> = []
  for (let right = size - 1; right >= 1; right -= 2) {
    if (right === 6) right = 5
    for (let vert = 0; vert < size; vert++) {
      for (let j = 0; j < 2; j++) {
        const x = right - j
        const y = ((right + 1) & 2) === 0 ? size - 1 - vert : vert
        if (functionModules[y]?.[x] !== 0) continue
        bits.push(dark(x, y) !== masked(mask, x, y))
      }
    }
  }
  const codewords = Array.from({ length: Math.floor(bits.length / 8) }, (_, i) =>
    bits.slice(i * 8, i * 8 + 8).reduce((acc, b) => (acc << 1) | (b ? 1 : 0), 0)
  )
  const blockCount = BLOCKS[ecc][version]!
  const ecLen = EC_PER_BLOCK[ecc][version]!
  const shortCount = blockCount - (codewords.length % blockCount)
  const shortLen = Math.floor(codewords.length / blockCount)
  const blocks = Array.from({ length: blockCount }, (_, i) => new Array<number>(i < shortCount ? shortLen : shortLen + 1))
  let k = 0
  for (let i = 0; i < shortLen - ecLen; i++) for (const block of blocks) block[i] = codewords[k++]!
  for (const block of blocks.slice(shortCount)) block[shortLen - ecLen] = codewords[k++]!
  for (let i = shortLen - ecLen; i < shortLen; i++) {
    for (const block of blocks) block[block.length - shortLen + i] = codewords[k++]!
  }
  const capacityOfBlock = Math.floor((ecLen - (MISDECODE_PROTECTION[`${version}${ecc}`] ?? 0)) / 2)
  const corrected = blocks.map((block) => correctBlock(block, ecLen, capacityOfBlock))
  const data = blocks.flatMap((block) => block.slice(0, block.length - ecLen))
  return { text: parseSegments(data, version), version, ecc, mask, corrected, capacity: blocks.map(() => capacityOfBlock) }
}
