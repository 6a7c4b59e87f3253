/** Build helper shared by the library's and the demo's Vite configurations. */
import type { Plugin } from "vite"

/** The module graph as the bundler sees it once every module is parsed. */
interface ModuleGraph {
  readonly getModuleIds: () => IterableIterator<string>
  readonly getModuleInfo: (id: string) => { readonly importedIds: ReadonlyArray<string>; readonly isEntry: boolean } | null
}

/**
 * What a page loads at start: the modules reachable through static imports from some roots (the runtime; the
 * provider and the modal), each set made one chunk of the build by a `codeSplitting` group. Rolldown otherwise cuts
 * code shared with the lazily loaded parts into many small chunks that all load at start (more requests and more
 * bytes). What loads later (views, chain adapters, WalletConnect's session, the bundled wallet list) stays in chunks of
 * its own. Used by the library build (so a host's bundler receives the core as one module) and by the demo's.
 */
export const eagerGraph = (isExternal: (id: string) => boolean) => {
  let graph: ModuleGraph | undefined
  const reach = new Map<string, Set<string>>()
  const reachable = (root: string): Set<string> => {
    const known = reach.get(root)
    if (known) return known
    const seen = new Set<string>()
    const walk = (id: string) => {
      if (seen.has(id) || isExternal(id)) return
      seen.add(id)
      for (const next of graph?.getModuleInfo(id)?.importedIds ?? []) walk(next)
    }
    const starts = [...(graph?.getModuleIds() ?? [])].filter((id) => id.endsWith(root))
    if (starts.length !== 1) throw new Error(`The build has ${starts.length} modules ending in ${root}; one was expected`)
    starts.forEach(walk)
    reach.set(root, seen)
    return seen
  }
  const plugin: Plugin = {
    name: "wallet-runtime:eager-graph",
    buildEnd() {
      graph = this
      reach.clear()
    }
  }
  /** The module is loaded at once by one of `roots` and not by `unless`; the build's entries stay apart. */
  const eager = (roots: ReadonlyArray<string>, unless?: string) => (id: string) =>
    roots.some((root) => reachable(root).has(id)) &&
    !(unless !== undefined && reachable(unless).has(id)) &&
    graph?.getModuleInfo(id)?.isEntry !== true
  return { plugin, eager }
}

/**
 * The Swap and Buy forms' services (which the Effect entry imports) and their atoms (which it does not): none loads
 * before a page first uses a form, and each set is one chunk, so what opens them (the Account view, the hooks) names
 * two files, not six.
 */
export const FORMS_CHUNKS = {
  services: /[\\/]src[\\/]services[\\/](Swap|Onramp|swapState|onrampState)\.ts$/,
  atoms: /[\\/]src[\\/]ui[\\/]atoms[\\/](swap|onramp|laterServices)\.ts$/
}

/**
 * What both ways of calling the hosted services share — the bounded client under every answer, the query helpers and
 * the catalogue's (and analytics') Schemas — as one chunk: the modal's own calls of the catalogue and of analytics (the
 * modal's first open) and the derived clients each fetch it with their code, and the core's list of what to fetch with
 * them names one file, not three.
 */
export const SERVICES_SHARED_CHUNK = /[\\/]src[\\/](services[\\/]boundedServiceClient|domain[\\/](ApiShared|ApiCatalogue))\.ts$/
