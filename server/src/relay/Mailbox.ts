import { createHash } from "node:crypto"

/** A message on a topic, as the mailbox keeps it. */
export interface RelayMessage {
  /** sha256 of the message text (hex): what a retried publish and a client's duplicate check recognise. */
  readonly id: string
  readonly topic: string
  readonly message: string
  readonly publishedAt: number
  readonly expiresAt: number
  readonly tag: number | undefined
  readonly attestation: string | undefined
  /** Client id of the publisher: it never gets its own message back. */
  readonly publisher: string
}

const DEFAULT_TTL_SECONDS = 300
const MAX_TTL_SECONDS = 30 * 24 * 3600
/** Bounds memory when a client floods one topic; the soonest to expire go first. */
export const MAX_PER_TOPIC = 1000

/** The id of a message: sha256 of its text. */
export const messageId = (message: string): string => createHash("sha256").update(message).digest("hex")

/** The TTL a publish asked for, within the bounds, in seconds. */
export const boundedTtl = (ttlSeconds: number | undefined): number =>
  Math.min(Math.max(ttlSeconds ?? DEFAULT_TTL_SECONDS, 1), MAX_TTL_SECONDS)

/** What a publish carries into the mailbox. */
export interface Publication {
  readonly topic: string
  readonly message: string
  readonly ttlSeconds: number | undefined
  readonly tag: number | undefined
  readonly attestation: string | undefined
  readonly publisher: string
}

interface Entry {
  readonly stored: RelayMessage
  /** Client ids that acknowledged it: they do not get it again after a reconnect. */
  readonly receivedBy: Set<string>
}

/** Messages per topic with their TTL, in this process; expired ones are dropped on access and by `sweep`. */
export class Mailbox {
  private readonly topics = new Map<string, Array<Entry>>()

  constructor(private readonly now: () => number = Date.now) {}

  /** Stores a publication; a retried publish of the same message on the same topic returns the first copy. */
  put(publication: Publication): { readonly stored: RelayMessage; readonly isNew: boolean } {
    const list = this.live(publication.topic)
    const id = messageId(publication.message)
    const existing = list.find((entry) => entry.stored.id === id)
    if (existing) return { stored: existing.stored, isNew: false }
    const publishedAt = this.now()
    const stored: RelayMessage = {
      id,
      topic: publication.topic,
      message: publication.message,
      publishedAt,
      expiresAt: publishedAt + boundedTtl(publication.ttlSeconds) * 1000,
      tag: publication.tag,
      attestation: publication.attestation,
      publisher: publication.publisher
    }
    list.push({ stored, receivedBy: new Set() })
    if (list.length > MAX_PER_TOPIC) list.splice(0, list.length - MAX_PER_TOPIC)
    this.topics.set(publication.topic, list)
    return { stored, isNew: true }
  }

  /** Unexpired messages of a topic that `clientId` neither published nor acknowledged, oldest first. */
  pendingFor(topic: string, clientId: string): ReadonlyArray<RelayMessage> {
    return this.live(topic)
      .filter((entry) => entry.stored.publisher !== clientId && !entry.receivedBy.has(clientId))
      .map((entry) => entry.stored)
  }

  /** Records that `clientId` has the message. */
  acknowledge(message: RelayMessage, clientId: string): void {
    this.live(message.topic)
      .find((entry) => entry.stored.id === message.id)
      ?.receivedBy.add(clientId)
  }

  /** Drops every expired message. */
  sweep(): void {
    for (const topic of [...this.topics.keys()]) this.live(topic)
  }

  /** Forgets everything. */
  clear(): void {
    this.topics.clear()
  }

  private live(topic: string): Array<Entry> {
    const list = this.topics.get(topic)
    if (!list) return []
    const now = this.now()
    const kept = list.filter((entry) => entry.stored.expiresAt > now)
    if (kept.length === 0) this.topics.delete(topic)
    else if (kept.length !== list.length) this.topics.set(topic, kept)
    return kept
  }
}
