/** The frame page's headers (server/src/embedded/frame/routes.ts): who may embed it, per project. */
import { describe, expect, it } from "vitest"
import { frameAncestors, frameHeaders } from "../../../server/src/embedded/frame/routes"
import { devProjects } from "../../../server/src/services/projects"

describe("frame site headers", () => {
  it("frame-ancestors: any loopback port for loopback projects, the exact list for others, nobody for unknown ones", () => {
    expect(frameAncestors(devProjects, "devstack-project")).toBe("http://127.0.0.1:* http://localhost:* http://[::1]:*")
    expect(frameAncestors(devProjects, "devstack-origin-locked")).toBe("https://app.example")
    expect(frameAncestors(devProjects, "no-such-project")).toBe("'none'")
    expect(frameAncestors(devProjects, null)).toBe("'none'")
    const odd = [{ projectId: "p", description: "", analyticsEnabled: false, allowedOrigins: ["https://a.example", "https://b.example; script-src *", "'self'"] }]
    expect(frameAncestors(odd, "p")).toBe("https://a.example")
  })

  it("the page is never cached, sends no referrer and reaches only its own origin", () => {
    const headers = frameHeaders(devProjects, "devstack-origin-locked")
    expect(headers["referrer-policy"]).toBe("no-referrer")
    expect(headers["cache-control"]).toBe("no-store")
    expect(headers["content-security-policy"]).toContain("frame-ancestors https://app.example")
    expect(headers["content-security-policy"]).toContain("connect-src 'self'")
    expect(headers["content-security-policy"]).not.toContain("*")
  })
})
