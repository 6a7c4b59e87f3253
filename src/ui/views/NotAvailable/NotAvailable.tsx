/** The view of a feature of a later release: says so plainly instead of showing an empty or made-up screen. */
import type { ReactNode } from "react"
import { Notice } from "../../components/Notice/Notice"
import type { ModalView } from "../../../domain/rules"
import type { ViewProps } from "../types"

/** A view not built yet (any view of a later release shows it). */
export function NotAvailable<V extends ModalView>(_props: ViewProps<V>): ReactNode {
  return <Notice variant="info">This part of the wallet modal is coming in a later release.</Notice>
}
