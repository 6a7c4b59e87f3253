import { describe, expect, it } from "vitest"
import { localChainA } from "../../../src/domain/networks"
import { decodeOptionsSync } from "../../../src/domain/Options"
import { catalogImageUrl, networkImageUrl } from "../../../src/services/catalogImages"

const options = decodeOptionsSync({
  projectId: "test-project",
  networks: [localChainA],
  endpoints: { walletCatalog: "http://catalog.test/cat/" }
})

describe("networkImageUrl", () => {
  it("uses the network's imageUrl when it names one, even beside an imageId", () => {
    const network = { assets: { imageUrl: "https://host.example/chain-a.png", imageId: "eip155-31337" } }
    expect(networkImageUrl(options, network)).toBe("https://host.example/chain-a.png")
  })

  it("turns an imageId into the catalogue's asset image, with the same query as wallet images", () => {
    expect(networkImageUrl(options, { assets: { imageId: "eip155-31337" } })).toBe(
      "http://catalog.test/cat/public/getAssetImage/eip155-31337?projectId=test-project&st=wallet-runtime&sv=0.1.0"
    )
    expect(networkImageUrl(options, { assets: { imageUrl: "", imageId: "eip155-31337" } })).toMatch(
      /^http:\/\/catalog\.test\/cat\/public\/getAssetImage\/eip155-31337\?/
    )
  })

  it("leaves the projectId out of the query when the host set none", () => {
    const anonymous = decodeOptionsSync({ networks: [localChainA], endpoints: { walletCatalog: "http://catalog.test" } })
    expect(networkImageUrl(anonymous, { assets: { imageId: "a b" } })).toBe(
      "http://catalog.test/public/getAssetImage/a%20b?st=wallet-runtime&sv=0.1.0"
    )
  })

  it("is undefined for a network with no image (the view draws the family mark)", () => {
    expect(networkImageUrl(options, localChainA)).toBeUndefined()
    expect(networkImageUrl(options, { assets: {} })).toBeUndefined()
    expect(networkImageUrl(options, { assets: { imageId: "", imageUrl: "" } })).toBeUndefined()
  })
})

describe("catalogImageUrl", () => {
  it("builds the wallet image URL the catalogue lists", () => {
    expect(catalogImageUrl("http://catalog.test/cat", "test-project", "/getWalletImage", "img-0")).toBe(
      "http://catalog.test/cat/getWalletImage/img-0?projectId=test-project&st=wallet-runtime&sv=0.1.0"
    )
  })
})
