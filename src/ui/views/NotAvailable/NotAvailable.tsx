/** The view of a feature of a later release: says so plainly instead of showing an empty or made-up screen. */
import type { ReactNode } from "react"
import { Notice } from "../../components/Notice/Notice"
import type { ViewProps } from "../registry"

/** A view not built yet. */
export function NotAvailable(_props: ViewProps): ReactNode {
  return <Notice variant="info">This part of the wallet modal is coming in a later release.</Notice>
}
