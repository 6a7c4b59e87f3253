/** What the hooks say before the runtime's code has loaded is what the runtime itself starts with. */
import { describe, expect, it } from "vitest"
import { initialAccountState } from "../../../src/domain/Account"
import { NO_ACCOUNT, RESTORING_ACCOUNT } from "../../../src/ui/react/fallbacks"

describe("the light hooks' values before the runtime is there", () => {
  it("are the runtime's initial account, disconnected (or reconnecting while a stored session waits)", () => {
    expect(NO_ACCOUNT).toEqual({ ...initialAccountState, namespace: undefined })
    expect(RESTORING_ACCOUNT).toEqual({ ...initialAccountState, status: "reconnecting", namespace: undefined })
  })
})
