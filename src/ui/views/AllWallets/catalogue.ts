/**
 * Where AllWallets takes its catalogue wallets from. The WalletCatalog atoms (`src/ui/atoms/wallets.ts`, paged
 * catalogue and debounced search) are built in parallel; until AllWallets is switched to them, this plain atom is
 * the catalogue: empty unless something fills it (tests do), so the view lists the browser's wallets only.
 */
import * as Atom from "effect/reactivity/Atom"
import type { WalletCatalogEntry } from "../../../domain/Wallet"

/** The catalogue wallets AllWallets lists after the browser's own (interim source, see the module comment). */
export const catalogueWalletsAtom: Atom.Writable<ReadonlyArray<WalletCatalogEntry>> = Atom.keepAlive(
  Atom.make<ReadonlyArray<WalletCatalogEntry>>([])
)
