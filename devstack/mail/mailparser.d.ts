// mailparser ships no types; this declares the part of its API the mail sink uses.
declare module "mailparser" {
  export interface EmailAddress {
    readonly address?: string
    readonly name: string
  }
  export interface AddressObject {
    readonly value: ReadonlyArray<EmailAddress>
    readonly text: string
  }
  export interface ParsedMail {
    readonly subject?: string
    readonly from?: AddressObject
    readonly to?: AddressObject | ReadonlyArray<AddressObject>
    readonly text?: string
    readonly html?: string | false
    readonly date?: Date
    readonly messageId?: string
  }
  export function simpleParser(source: NodeJS.ReadableStream | Buffer | string): Promise<ParsedMail>
}
