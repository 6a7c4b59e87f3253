/**
 * Where stored values live in the browser's storage, apart from the typed storage itself (no Effect code here): the
 * React binding reads it before the runtime's code has loaded, to restore a stored session at once.
 */

/** The prefix shared by every key this library writes. */
export const STORAGE_PREFIX = "wr:"
/** The schema version of stored values; bump it when a stored shape changes incompatibly. */
export const STORAGE_VERSION = 1
/** The prefix of current-version keys, e.g. `wr:v1:`. */
export const STORAGE_VERSION_PREFIX = `${STORAGE_PREFIX}v${STORAGE_VERSION}:`
/** The name of a family's stored connection status, before the family (`connectionStatus:eip155`). */
export const CONNECTION_STATUS_KEY = "connectionStatus:"

/**
 * Whether some family's stored connection status says a wallet was connected: the runtime then starts at once to
 * restore it. False where storage is unavailable or refuses to be read.
 */
export const hasStoredConnection = (): boolean => {
  try {
    if (typeof localStorage === "undefined") return false
    const prefix = `${STORAGE_VERSION_PREFIX}${CONNECTION_STATUS_KEY}`
    for (let index = 0; index < localStorage.length; index++) {
      const key = localStorage.key(index)
      if (key?.startsWith(prefix) === true && localStorage.getItem(key) !== JSON.stringify("disconnected")) return true
    }
    return false
  } catch {
    return false
  }
}
