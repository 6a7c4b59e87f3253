import type { SocialProvider } from "../../../src/domain/Account"
import type { ApiProject } from "../../../src/domain/http/middleware"
import type { SocialClientConfig } from "../embedded/server/social"

/** A project the local services know, with the origins allowed to use its projectId. */
export interface DevProject extends ApiProject {
  readonly description: string
  /** The social providers its visitors may log in with (the wallet server's OIDC / OAuth 2 clients). */
  readonly socials?: Readonly<Partial<Record<SocialProvider, SocialClientConfig>>>
}

/**
 * The projectIds the local services accept (anything else is 'Unauthorized: invalid key'), the first two for browser
 * pages on `appOrigins` only. The local stack passes the demo's origin (and the origins of the pages its tests
 * serve): a page on any other loopback port gets 'Unauthorized: origin not allowed', and the embedded wallet's frame
 * does not answer it. `"loopback"` (any page on this machine) is for servers a test starts alone.
 */
export const devProjectsFor = (appOrigins: "loopback" | ReadonlyArray<string>): ReadonlyArray<DevProject> => {
  const pages = appOrigins === "loopback" ? "any loopback origin" : "the app's origins only"
  return [
    {
      projectId: "devstack-project",
      description: `the default: ${pages}, analytics on`,
      allowedOrigins: appOrigins,
      analyticsEnabled: true
    },
    {
      projectId: "devstack-no-analytics",
      description: `${pages}, analytics off in /getAnalyticsConfig`,
      allowedOrigins: appOrigins,
      analyticsEnabled: false
    },
    {
      projectId: "devstack-origin-locked",
      description: "only https://app.example may use it: browser pages on loopback get 'Unauthorized: origin not allowed'",
      allowedOrigins: ["https://app.example"],
      analyticsEnabled: true
    }
  ]
}

/** The dev projects for a server a test starts alone: any loopback page may use the first two. */
export const devProjects: ReadonlyArray<DevProject> = devProjectsFor("loopback")

/** The exact body texts of the two authorisation failures (spec point 8 maps them to alerts). */
export const unauthorizedTexts = {
  invalidKey: "Unauthorized: invalid key",
  originNotAllowed: "Unauthorized: origin not allowed"
} as const

/** True for an http(s) origin on a loopback host. */
export const isLoopbackOrigin = (origin: string): boolean => {
  try {
    const url = new URL(origin)
    return (
      (url.protocol === "http:" || url.protocol === "https:") &&
      (url.hostname === "127.0.0.1" || url.hostname === "localhost" || url.hostname === "[::1]")
    )
  } catch {
    return false
  }
}

/** Whether `project` may be used from `origin`; requests without an Origin (not from a browser page) always may. */
export const originAllowed = (project: ApiProject, origin: string | undefined): boolean =>
  origin === undefined ||
  (project.allowedOrigins === "loopback" ? isLoopbackOrigin(origin) : project.allowedOrigins.includes(origin))
