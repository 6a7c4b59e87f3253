import type { CSSProperties } from "react"

// The demo's own look stays tiny and inline: the product's styles are what the demo shows. Colours are the page's
// custom properties (index.html), so the light/dark toggle themes the page and the modal together.
export const page: CSSProperties = { fontFamily: "system-ui, sans-serif", color: "var(--demo-text)", background: "var(--demo-page)", minHeight: "100vh" }
export const header: CSSProperties = { display: "flex", justifyContent: "space-between", alignItems: "center", padding: "12px 16px", background: "var(--demo-card)", borderBottom: "1px solid var(--demo-border)", gap: 12, flexWrap: "wrap" }
export const title: CSSProperties = { fontSize: 20, margin: 0 }
export const row: CSSProperties = { display: "flex", gap: 8, alignItems: "center", flexWrap: "wrap", minWidth: 0 }
export const main: CSSProperties = { maxWidth: 720, margin: "24px auto", display: "grid", gap: 16, padding: "0 16px" }
export const card: CSSProperties = { background: "var(--demo-card)", border: "1px solid var(--demo-border)", borderRadius: 12, padding: 16, minWidth: 0 }
export const cardTitle: CSSProperties = { fontSize: 16, margin: "0 0 8px" }
export const form: CSSProperties = { display: "grid", gap: 8 }
export const input: CSSProperties = { font: "inherit", padding: 8, borderRadius: 8, border: "1px solid var(--demo-input-border)", background: "var(--demo-input)", color: "inherit", minWidth: 0 }
// White on this blue reads at 6:1 (the modal's default accent): 4.5:1 or more, as any text on the page.
export const button: CSSProperties = { font: "inherit", padding: "8px 12px", borderRadius: 8, border: "none", background: "#3358d4", color: "#fff", cursor: "pointer", justifySelf: "start" }
export const toggle: CSSProperties = { font: "inherit", padding: "8px 12px", borderRadius: 999, border: "1px solid var(--demo-border)", background: "transparent", color: "inherit", cursor: "pointer", minHeight: 40 }
// A hint may hold a whole address: it wraps anywhere rather than widen a phone-sized page.
export const hint: CSSProperties = { color: "var(--demo-muted)", fontSize: 14, margin: "8px 0 0", overflowWrap: "anywhere" }
export const output: CSSProperties = { display: "block", wordBreak: "break-all", fontFamily: "ui-monospace, monospace", fontSize: 13, marginTop: 8 }
export const list: CSSProperties = { listStyle: "none", margin: 0, padding: 0, display: "grid", gap: 4 }
