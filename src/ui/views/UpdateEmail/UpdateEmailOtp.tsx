/**
 * UpdateEmailPrimaryOtp and UpdateEmailSecondaryOtp: the two codes of an email change — the one mailed to the
 * current address, then the one mailed to the new address. The embedded wallet pushes each; Cancel gives the change
 * up.
 */
import type { ReactNode } from "react"
import type { EmbeddedState } from "../../../services/Embedded/embeddedState"
import { useAtomSet, useAtomValue } from "../../atom-react/hooks"
import { cancelEmailUpdateFn, embeddedAtom, resendEmailFn, submitEmailUpdateOtpFn } from "../../atoms/embedded"
import { Button } from "../../components/Button/Button"
import { Notice } from "../../components/Notice/Notice"
import { Spinner } from "../../components/Spinner/Spinner"
import { OtpForm } from "../EmailLogin/OtpForm"
import type { ViewProps } from "../types"

/** One code of the change: `step` is the update step this view answers; `sentTo` where its code went. */
function UpdateCode(props: {
  readonly step: "PrimaryOtp" | "SecondaryOtp"
  readonly sentTo: (state: EmbeddedState, newEmail: string) => string | undefined
}): ReactNode {
  const state = useAtomValue(embeddedAtom)
  const submit = useAtomSet(submitEmailUpdateOtpFn)
  const resend = useAtomSet(resendEmailFn)
  const cancel = useAtomSet(cancelEmailUpdateFn)
  if (state === undefined) return <Spinner size={24} label="Loading" />
  const update = state.update
  const sentTo = update._tag === props.step ? props.sentTo(state, update.newEmail) : undefined
  if (update._tag !== props.step || sentTo === undefined) {
    return <Notice variant="info">There is no email change waiting for this code.</Notice>
  }
  return (
    <>
      <OtpForm
        email={sentTo}
        submitting={update.submitting}
        error={state.error}
        resendInSeconds={state.resendInSeconds}
        onSubmit={(code) => submit(code)}
        onResend={() => resend(undefined)}
      />
      <Button variant="secondary" fullWidth disabled={update.submitting} onClick={() => cancel(undefined)}>
        Cancel
      </Button>
    </>
  )
}

/** The UpdateEmailPrimaryOtp view: the code mailed to the current address. */
export function UpdateEmailPrimaryOtp(_props: ViewProps<"UpdateEmailPrimaryOtp">): ReactNode {
  return <UpdateCode step="PrimaryOtp" sentTo={(state) => state.email} />
}

/** The UpdateEmailSecondaryOtp view: the code mailed to the new address. */
export function UpdateEmailSecondaryOtp(_props: ViewProps<"UpdateEmailSecondaryOtp">): ReactNode {
  return <UpdateCode step="SecondaryOtp" sentTo={(_state, newEmail) => newEmail} />
}
