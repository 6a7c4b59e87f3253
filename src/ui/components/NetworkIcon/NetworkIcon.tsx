/** A network's picture: its image (direct, or the catalogue's asset image), else its family's mark on the tile. */
import type { ReactNode } from "react"
import type { CaipNetwork } from "../../../domain/Network"
import { networkImageUrl } from "../../../services/catalogImages"
import { useWalletRuntime } from "../../react/context"
import { FamilyMark } from "../FamilyMark/FamilyMark"
import { WalletIcon } from "../WalletIcon/WalletIcon"

/** Props of {@link NetworkIcon}. */
export interface NetworkIconProps {
  readonly network: Pick<CaipNetwork, "name" | "chainNamespace" | "assets">
  readonly size?: number
}

/**
 * The round icon of a network; its image is fetched by the browser only once this is rendered.
 * @example <NetworkIcon network={ethereum} size={22} />
 */
export function NetworkIcon(props: NetworkIconProps): ReactNode {
  const { options } = useWalletRuntime()
  const size = props.size ?? 32
  return (
    <WalletIcon
      name={props.network.name}
      src={networkImageUrl(options, props.network)}
      size={size}
      round
      fallback={<FamilyMark family={props.network.chainNamespace} size={Math.round(size * 0.6)} />}
    />
  )
}
