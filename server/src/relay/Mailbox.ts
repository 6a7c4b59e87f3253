/** A message kept on a topic until its TTL runs out, so subscribers that come later still get it. */
export interface StoredMessage {
  readonly topic: string
  readonly message: string
  readonly publishedAt: number
  readonly expiresAt: number
  readonly tag: number | undefined
  readonly attestation: string | undefined
  /** Client id of the publisher: it never gets its own message back. */
  readonly publisher: string
  /** Client ids that acknowledged it: they do not get it again after a reconnect. */
  readonly receivedBy: Set<string>
}

/** What a publish carries into the mailbox. */
export interface Publication {
  readonly topic: string
  readonly message: string
  readonly ttlSeconds: number | undefined
  readonly tag: number | undefined
  readonly attestation: string | undefined
  readonly publisher: string
}

const DEFAULT_TTL_SECONDS = 300
const MAX_TTL_SECONDS = 30 * 24 * 3600
// Bounds memory when a client floods one topic; the oldest go first.
const MAX_PER_TOPIC = 1000

/** Messages per topic with their TTL; expired ones are dropped on access and by `sweep`. */
export class Mailbox {
  private readonly topics = new Map<string, Array<StoredMessage>>()

  constructor(private readonly now: () => number = Date.now) {}

  /** Stores a publication; a retried publish of the same message on the same topic returns the first copy. */
  put(publication: Publication): { readonly stored: StoredMessage; readonly isNew: boolean } {
    const list = this.live(publication.topic)
    const existing = list.find((m) => m.message === publication.message)
    if (existing) return { stored: existing, isNew: false }
    const ttl = Math.min(Math.max(publication.ttlSeconds ?? DEFAULT_TTL_SECONDS, 1), MAX_TTL_SECONDS)
    const publishedAt = this.now()
    const stored: StoredMessage = {
      topic: publication.topic,
      message: publication.message,
      publishedAt,
      expiresAt: publishedAt + ttl * 1000,
      tag: publication.tag,
      attestation: publication.attestation,
      publisher: publication.publisher,
      receivedBy: new Set()
    }
    list.push(stored)
    if (list.length > MAX_PER_TOPIC) list.splice(0, list.length - MAX_PER_TOPIC)
    this.topics.set(publication.topic, list)
    return { stored, isNew: true }
  }

  /** Unexpired messages of a topic that `clientId` neither published nor acknowledged, oldest first. */
  pendingFor(topic: string, clientId: string): ReadonlyArray<StoredMessage> {
    return this.live(topic).filter((m) => m.publisher !== clientId && !m.receivedBy.has(clientId))
  }

  /** Drops every expired message. */
  sweep(): void {
    for (const topic of [...this.topics.keys()]) this.live(topic)
  }

  /** Forgets everything. */
  clear(): void {
    this.topics.clear()
  }

  private live(topic: string): Array<StoredMessage> {
    const list = this.topics.get(topic)
    if (!list) return []
    const now = this.now()
    const kept = list.filter((m) => m.expiresAt > now)
    if (kept.length === 0) this.topics.delete(topic)
    else if (kept.length !== list.length) this.topics.set(topic, kept)
    return kept
  }
}
