// The latest an idle task waits: a page that is never idle still gets it.
const IDLE_DEADLINE_MS = 2000

/**
 * Runs `task` once the page is idle (`requestIdleCallback`, at the latest after `IDLE_DEADLINE_MS`), or, where the
 * browser has no idle callback, once the page has loaded. Returns the cancellation. Nothing runs on the server.
 */
export const whenIdle = (task: () => void): (() => void) => {
  if (typeof window === "undefined") return () => {}
  if (typeof window.requestIdleCallback === "function") {
    const id = window.requestIdleCallback(() => task(), { timeout: IDLE_DEADLINE_MS })
    return () => window.cancelIdleCallback(id)
  }
  let cancelled = false
  const run = () => {
    if (!cancelled) task()
  }
  if (document.readyState === "complete") queueMicrotask(run)
  else window.addEventListener("load", run, { once: true })
  return () => {
    cancelled = true
    window.removeEventListener("load", run)
  }
}
