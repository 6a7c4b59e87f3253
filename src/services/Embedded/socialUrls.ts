/** Pure rules about the addresses of a social login (spec 2: `result_uri`). */

/** The page's address without a `result_uri` (where the provider's callback sends a redirected login back). */
export const withoutResultUri = (href: string): string => {
  const url = new URL(href)
  url.searchParams.delete("result_uri")
  return url.href
}

/** Whether `uri` is the wallet server's social callback on the frame's exact origin (a `result_uri` must be). */
export const isFrameCallback = (uri: string, frameEndpoint: string): boolean => {
  try {
    const url = new URL(uri)
    return url.origin === new URL(frameEndpoint).origin && url.pathname === "/social/callback" && url.searchParams.has("state")
  } catch {
    return false
  }
}
