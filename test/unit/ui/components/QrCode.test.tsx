// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen, within } from "@testing-library/react"
import { Effect } from "effect"
import { afterEach, describe, expect, it } from "vitest"
import { encode } from "uqr"
import type { WalletCatalogEntry } from "../../../../src/domain/Wallet"
import type { WalletRuntime } from "../../../../src/runtime"
import { Modal, type Route } from "../../../../src/services/Modal"
import { WALLET_CONNECT_ICON } from "../../../../src/services/walletconnect/WalletConnect"
import { randomBytes } from "node:crypto"
import { finderPath, QrCode, qrLayout, WALLET_CONNECT_QR_MASK } from "../../../../src/ui/components/QrCode/QrCode"
import { decodeQr } from "./qrDecoder"
import { fakeWalletConnect, findView, holdConnects, remoteWallet, renderHost, runtimeFor, testWallet } from "./support"

const URI =
  "wc:3c1f2e9a7b5d4c6e8f0a1b2c3d4e5f60718293a4b5c6d7e8f9a0b1c2d3e4f5a6@2?relay-protocol=irn" +
  "&symKey=9f8e7d6c5b4a39281706f5e4d3c2b1a0ffeeddccbbaa99887766554433221100&expiryTimestamp=1735689600"
const LOGO = `data:image/svg+xml,${encodeURIComponent('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"><rect width="1" height="1" fill="#3b99fc"/></svg>')}`

afterEach(() => cleanup())

const qrIn = (container: HTMLElement = document.body) => within(container).getByRole("img", { name: /QR code/ })

/** The code's size in modules: the viewBox is the code plus a quiet zone on each side. */
const sizeOf = (svg: Element): number => {
  const [min, , box] = svg.getAttribute("viewBox")!.split(" ").map(Number)
  return box! + 2 * min!
}

const paths = (svg: Element) => {
  const [dots, ...finders] = Array.from(svg.querySelectorAll("path"))
  return { dots: dots!.getAttribute("d")!, finders }
}

const dotCells = (d: string): Array<readonly [number, number]> =>
  Array.from(d.matchAll(/M(\d+)\.5 (\d+)\.08/g), (m) => [Number(m[1]), Number(m[2])] as const)

/** Extents of each closed subpath of a path made of M, h, v, relative a and z commands. */
const subpathBoxes = (d: string) => {
  const boxes: Array<{ x0: number; y0: number; x1: number; y1: number }> = []
  let x = 0
  let y = 0
  for (const [, command, args] of d.matchAll(/([Mhvaz])([^Mhvaz]*)/g)) {
    const n = (args!.match(/-?\d*\.?\d+/g) ?? []).map(Number)
    if (command === "M") {
      x = n[0]!
      y = n[1]!
      boxes.push({ x0: x, y0: y, x1: x, y1: y })
    } else if (command === "h") x += n[0]!
    else if (command === "v") y += n[0]!
    else if (command === "a") {
      x += n[5]!
      y += n[6]!
    }
    const box = boxes.at(-1)!
    Object.assign(box, { x0: Math.min(box.x0, x), y0: Math.min(box.y0, y), x1: Math.max(box.x1, x), y1: Math.max(box.y1, y) })
  }
  return boxes
}

/** What a scanner samples from the SVG: a module is dark under a dot or under a finder shape's ring or centre. */
const sampledModules = (svg: Element): Array<Array<boolean>> => {
  const size = sizeOf(svg)
  const modules = Array.from({ length: size }, () => new Array<boolean>(size).fill(false))
  const { dots, finders } = paths(svg)
  for (const [x, y] of dotCells(dots)) modules[y]![x] = true
  for (const finder of finders) {
    const outer = subpathBoxes(finder.getAttribute("d")!)[0]!
    for (let dy = 0; dy < 7; dy++) {
      for (let dx = 0; dx < 7; dx++) {
        const ring = dx === 0 || dx === 6 || dy === 0 || dy === 6
        const centre = dx >= 2 && dx <= 4 && dy >= 2 && dy <= 4
        modules[outer.y0 + dy]![outer.x0 + dx] = ring || centre
      }
    }
  }
  return modules
}

/** The square the logo clears: its tile plus the one-module ring around it. */
const clearSquare = (svg: Element) => {
  const tile = svg.querySelector("rect[rx]")!
  const at = Number(tile.getAttribute("x")) - 1
  return { start: at, end: at + Number(tile.getAttribute("width")) + 2 }
}

describe("QrCode", () => {
  it("a WalletConnect URI with the wallet's logo still decodes from what the SVG draws: level H, each block spending at most half its correction", () => {
    render(<QrCode value={URI} label="QR code" logo={LOGO} />)
    const decoded = decodeQr(sampledModules(qrIn()))
    expect(decoded.text).toBe(URI)
    expect(decoded.ecc).toBe("H")
    decoded.corrected.forEach((errors, block) => expect(errors).toBeLessThanOrEqual(decoded.capacity[block]! / 2))
    expect(Math.max(...decoded.corrected)).toBeGreaterThan(0)
    expect(qrIn().getAttribute("data-qr-value")).toBe(URI)
  })

  it("the modules under the logo are not drawn: a clear square of at most 6% of the code, the logo on a rounded tile a module inside it", () => {
    render(<QrCode value={URI} label="QR code" logo={LOGO} />)
    const svg = qrIn()
    const size = sizeOf(svg)
    const { start, end } = clearSquare(svg)
    const inside = (x: number, y: number) => x >= start && x < end && y >= start && y < end
    expect(start + end).toBe(size)
    expect((end - start) ** 2 / size ** 2).toBeLessThanOrEqual(0.06)

    const encoded = encode(URI, { ecc: "H", border: 0 }).data
    const darkUnderLogo = encoded.flatMap((row, y) => row.filter((dark, x) => dark && inside(x, y))).length
    expect(darkUnderLogo).toBeGreaterThan(20)
    expect(dotCells(paths(svg).dots).filter(([x, y]) => inside(x, y))).toEqual([])

    const tile = svg.querySelector("rect[rx]")!
    expect(Number(tile.getAttribute("rx"))).toBeGreaterThan(1)
    const image = svg.querySelector("image")!
    expect(image.getAttribute("href")).toBe(LOGO)
    expect(image.getAttribute("aria-hidden")).toBe("true")
    expect(Number(image.getAttribute("x"))).toBeGreaterThan(Number(tile.getAttribute("x")))
    expect(Number(image.getAttribute("x")) + Number(image.getAttribute("width"))).toBeLessThan(end - 1)
  })

  it("draws the modules as dots and the three finder patterns as rounded squares with exact 7, 5 and 3 module outlines", () => {
    render(<QrCode value={URI} label="QR code" logo={LOGO} />)
    const svg = qrIn()
    const size = sizeOf(svg)
    const { dots, finders } = paths(svg)
    expect(dots).not.toMatch(/[hv]/)
    expect(dots.split("M").length - 1).toBe(dotCells(dots).length)
    const corners = finders.map((finder) => {
      expect(finder.getAttribute("fill-rule")).toBe("evenodd")
      const d = finder.getAttribute("d")!
      expect(d.match(/a/g)).toHaveLength(12)
      const [outer, ring, centre] = subpathBoxes(d)
      expect([outer, ring, centre].map((box) => [box!.x1 - box!.x0, box!.y1 - box!.y0])).toEqual([[7, 7], [5, 5], [3, 3]])
      expect([ring!.x0 - outer!.x0, centre!.x0 - outer!.x0, ring!.y0 - outer!.y0, centre!.y0 - outer!.y0]).toEqual([1, 2, 1, 2])
      return [outer!.x0, outer!.y0]
    })
    expect(corners).toEqual([[0, 0], [size - 7, 0], [0, size - 7]])
    const inFinder = ([x, y]: readonly [number, number]) => corners.some(([cx, cy]) => x >= cx! && x < cx! + 7 && y >= cy! && y < cy! + 7)
    expect(dotCells(dots).filter(inFinder)).toEqual([])
    expect(finderPath(0, 0)).toBe(finders[0]!.getAttribute("d"))
  })

  it("without a logo it stays at level M, draws no image and leaves no module out", () => {
    render(<QrCode value={URI} label="QR code" />)
    const svg = qrIn()
    expect(svg.querySelector("image")).toBeNull()
    const decoded = decodeQr(sampledModules(svg))
    expect(decoded).toMatchObject({ text: URI, ecc: "M" })
    expect(decoded.corrected.every((errors) => errors === 0)).toBe(true)
  })

  it("a logo that fails to load leaves the whole code at level M", () => {
    render(<QrCode value={URI} label="QR code" logo="https://wallet.example/missing.png" />)
    expect(decodeQr(sampledModules(qrIn())).ecc).toBe("H")
    act(() => {
      fireEvent.error(qrIn().querySelector("image")!)
    })
    expect(qrIn().querySelector("image")).toBeNull()
    const decoded = decodeQr(sampledModules(qrIn()))
    expect(decoded).toMatchObject({ text: URI, ecc: "M" })
    expect(decoded.corrected.every((errors) => errors === 0)).toBe(true)
  })

  it("every version decodes with its logo area cleared; from version 2 on each block spends at most half its correction", () => {
    // The most bytes each version holds at level H (ISO/IEC 18004 table 7), so each value fills its version.
    const capacities = [
      7, 14, 24, 34, 44, 58, 64, 84, 98, 119, 137, 155, 177, 194, 220, 250, 280, 310, 338, 382, 403, 439, 461, 511, 535, 593,
      625, 658, 698, 742, 790, 842, 898, 958, 983, 1051, 1093, 1139, 1219, 1273
    ]
    capacities.forEach((length, index) => {
      const version = index + 1
      const value = Array.from({ length }, (_, i) => "abcdefghijklmnopqrstuvwxyz0123456789:@?&="[(i * 7919 + length) % 41]).join("")
      const layout = qrLayout(value, true)
      expect(layout.size).toBe(17 + 4 * version)
      const decoded = decodeQr(layout.modules)
      expect(decoded.text).toBe(value)
      if (version === 1) return
      decoded.corrected.forEach((errors, block) => expect(errors, `version ${version}`).toBeLessThanOrEqual(decoded.capacity[block]! / 2))
    })
  })

  it("a pairing URI drawn with WalletConnect's given mask decodes, with and without the logo, and reads that mask", () => {
    for (const logo of [LOGO, undefined]) {
      const { unmount } = render(<QrCode value={URI} label="QR code" logo={logo} mask={WALLET_CONNECT_QR_MASK} />)
      const decoded = decodeQr(sampledModules(qrIn()))
      expect(decoded).toMatchObject({ text: URI, mask: WALLET_CONNECT_QR_MASK })
      decoded.corrected.forEach((errors, block) => expect(errors).toBeLessThanOrEqual(decoded.capacity[block]! / 2))
      unmount()
    }
    expect(decodeQr(qrLayout(URI, true, 5).modules)).toMatchObject({ text: URI, mask: 5 })
  })

  it("WalletConnect's mask is the one the penalty score picks for nearly every pairing URI (why it is given, not chosen)", () => {
    const uris = Array.from(
      { length: 60 },
      (_, i) =>
        `wc:${randomBytes(32).toString("hex")}@2?relay-protocol=irn&symKey=${randomBytes(32).toString("hex")}&expiryTimestamp=${1_900_000_000 + i}` +
        (i % 2 === 0 ? "&methods=wc_sessionAuthenticate" : "")
    )
    const picked = uris.flatMap((uri) => [encode(uri, { ecc: "H", border: 0 }).maskPattern, encode(uri, { ecc: "M", border: 0 }).maskPattern])
    expect(picked.filter((mask) => mask === WALLET_CONNECT_QR_MASK).length / picked.length).toBeGreaterThan(0.9)
  })

  it("the test decoder refuses a code cleared beyond its correction, so the decoding tests can fail", () => {
    const code = encode(URI, { ecc: "M", border: 0 })
    const start = Math.floor(code.size / 4)
    const cleared = code.data.map((row, y) => row.map((dark, x) => dark && !(x >= start && x < code.size - start && y >= start && y < code.size - start)))
    expect(() => decodeQr(cleared)).toThrow(/uncorrectable|corrections/)
  })
})

describe("QrCode in the WalletConnect views", () => {
  let runtime: WalletRuntime | undefined
  afterEach(async () => {
    cleanup()
    await runtime?.dispose()
    runtime = undefined
  })

  const wallet: WalletCatalogEntry = {
    id: "logo-wallet",
    name: "Logo Wallet",
    image_id: "",
    image_url: LOGO,
    mobile_link: "http://127.0.0.1:9/logo-wallet/",
    desktop_link: null,
    webapp_link: null,
    chains: ["eip155:31337"]
  }

  /** A page whose WalletConnect shows `URI` once asked to. */
  const showUriOn = async (route: Route) => {
    const remote = remoteWallet()
    holdConnects(remote)
    const wc = fakeWalletConnect(remote)
    runtime = runtimeFor([remote, testWallet()], { walletConnect: wc.service, platform: { isMobile: false } })
    renderHost(runtime)
    await act(() => runtime!.run(Effect.flatMap(Modal, (m) => m.open(route))))
    const view = await findView(route.view)
    act(() => wc.show(URI))
    return within(view).findByRole("img", { name: /QR code/ })
  }

  it("a catalogue wallet's code carries its icon in the centre and decodes at level H", async () => {
    const qr = await showUriOn({ view: "ConnectingWalletConnect", wallet })
    expect(qr.getAttribute("aria-label")).toBe("QR code to connect with Logo Wallet")
    expect(qr.querySelector("image")?.getAttribute("href")).toBe(LOGO)
    expect(decodeQr(sampledModules(qr))).toMatchObject({ text: URI, ecc: "H" })
  })

  it("WalletConnect's own code carries WalletConnect's mark in the centre and decodes at level H", async () => {
    const qr = await showUriOn({ view: "WalletConnectBasic" })
    expect(qr.querySelector("image")?.getAttribute("href")).toBe(WALLET_CONNECT_ICON)
    expect(decodeQr(sampledModules(qr))).toMatchObject({ text: URI, ecc: "H" })
    expect(screen.getByRole("dialog").getAttribute("data-view")).toBe("WalletConnectBasic")
  })
})
