/**
 * Image URLs of the wallet-catalogue service (`/getWalletImage/{id}`, `/public/getAssetImage/{id}`): pure functions
 * of the options, so views can name an image without asking any service, and the browser fetches it only when an
 * `<img>` showing it is rendered.
 */
import type { CaipNetwork } from "../domain/Network"
import type { HostOptions } from "../domain/Options"
import { SDK_TYPE, SDK_VERSION, serviceUrl } from "./serviceHttp"

/**
 * The URL of an image the catalogue at `baseUrl` serves under `path` (e.g. `/getWalletImage`), with the
 * `projectId`/`st`/`sv` query every image request carries.
 * @example catalogImageUrl("https://catalog.example", "test", "/getWalletImage", "abc") // "https://catalog.example/getWalletImage/abc?projectId=test&st=…&sv=…"
 */
export const catalogImageUrl = (baseUrl: string, projectId: string | undefined, path: string, imageId: string): string => {
  const query = new URLSearchParams({ ...(projectId === undefined ? {} : { projectId }), st: SDK_TYPE, sv: SDK_VERSION })
  return `${serviceUrl(baseUrl, `${path}/${encodeURIComponent(imageId)}`)}?${query}`
}

/**
 * The icon URL of a network: its `assets.imageUrl`, else its `assets.imageId` through the catalogue's asset-image
 * endpoint, else `undefined` (the view draws the family's mark).
 * @example networkImageUrl(options, { assets: { imageId: "eip155-1" } }) // "…/public/getAssetImage/eip155-1?projectId=…"
 */
export const networkImageUrl = (
  options: Pick<HostOptions, "endpoints" | "projectId">,
  network: Pick<CaipNetwork, "assets">
): string | undefined => {
  const assets = network.assets
  if (assets?.imageUrl !== undefined && assets.imageUrl !== "") return assets.imageUrl
  if (assets?.imageId === undefined || assets.imageId === "") return undefined
  return catalogImageUrl(options.endpoints.walletCatalog, options.projectId, "/public/getAssetImage", assets.imageId)
}
