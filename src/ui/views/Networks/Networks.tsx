/** Networks: the requested networks by family, the active one marked; a successful switch goes back. */
import { type ReactNode, useCallback } from "react"
import { useAtomSet } from "../../atom-react/hooks"
import { goBackFn } from "../../atoms/modal"
import type { ViewProps } from "../types"
import { NetworkList } from "./NetworkList"

/** The Networks view. */
export function Networks(_props: ViewProps<"Networks">): ReactNode {
  const goBack = useAtomSet(goBackFn)
  const onSwitched = useCallback(() => goBack(undefined), [goBack])
  return <NetworkList onSwitched={onSwitched} />
}
