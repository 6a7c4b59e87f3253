// oidc-provider ships no types; this declares the part of its API the local identity providers use.
declare module "oidc-provider" {
  import type { IncomingMessage, ServerResponse } from "node:http"
  export interface InteractionDetails {
    readonly uid: string
    readonly params: Readonly<Record<string, unknown>>
  }
  export class Grant {
    constructor(init: { accountId: string; clientId: string })
    addOIDCScope(scope: string): void
    save(): Promise<string>
  }
  export interface AccessToken {
    readonly accountId: string
    readonly scope?: string
  }
  export namespace interactionPolicy {
    class Check {
      static readonly REQUEST_PROMPT: true
      static readonly NO_NEED_TO_PROMPT: false
      constructor(reason: string, description: string, check: (ctx: { readonly oidc: { readonly result?: Readonly<Record<string, unknown>> } }) => boolean)
    }
    interface Prompt {
      readonly checks: { add(check: Check): void }
    }
    function base(): { get(name: string): Prompt | undefined }
  }
  export default class Provider {
    constructor(issuer: string, configuration: Record<string, unknown>)
    readonly Grant: typeof Grant
    readonly AccessToken: { find(token: string): Promise<AccessToken | undefined> }
    callback(): (req: IncomingMessage, res: ServerResponse) => void
    interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<InteractionDetails>
    interactionFinished(
      req: IncomingMessage,
      res: ServerResponse,
      result: Record<string, unknown>,
      options?: { mergeWithLastSubmission?: boolean }
    ): Promise<void>
  }
}
declare module "oidc-provider/lib/adapters/memory_adapter.js" {
  export default class MemoryAdapter {
    constructor(model: string, store?: unknown, clockTolerance?: number)
    readonly model: string
    find(id: string): Promise<unknown>
  }
}
declare module "oidc-provider/lib/helpers/lru.js" {
  export default class LRU {
    constructor(options: { maxSize: number })
  }
}
