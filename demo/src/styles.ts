import type { CSSProperties } from "react"

// The demo's own look stays tiny and inline: the product's styles are what the demo shows.
export const page: CSSProperties = { fontFamily: "system-ui, sans-serif", color: "#1b1f24", background: "#f6f7f9", minHeight: "100vh" }
export const header: CSSProperties = { display: "flex", justifyContent: "space-between", alignItems: "center", padding: "16px 24px", background: "#fff", borderBottom: "1px solid #e3e6ea", gap: 16, flexWrap: "wrap" }
export const title: CSSProperties = { fontSize: 20, margin: 0 }
export const row: CSSProperties = { display: "flex", gap: 8, alignItems: "center" }
export const main: CSSProperties = { maxWidth: 720, margin: "24px auto", display: "grid", gap: 16, padding: "0 16px" }
export const card: CSSProperties = { background: "#fff", border: "1px solid #e3e6ea", borderRadius: 12, padding: 16 }
export const cardTitle: CSSProperties = { fontSize: 16, margin: "0 0 8px" }
export const form: CSSProperties = { display: "grid", gap: 8 }
export const input: CSSProperties = { font: "inherit", padding: 8, borderRadius: 8, border: "1px solid #c9ced6" }
export const button: CSSProperties = { font: "inherit", padding: "8px 12px", borderRadius: 8, border: "none", background: "#4b6bfb", color: "#fff", cursor: "pointer", justifySelf: "start" }
export const hint: CSSProperties = { color: "#5b6470", fontSize: 14, margin: "8px 0 0" }
export const output: CSSProperties = { display: "block", wordBreak: "break-all", fontFamily: "ui-monospace, monospace", fontSize: 13, marginTop: 8 }
export const list: CSSProperties = { listStyle: "none", margin: 0, padding: 0, display: "grid", gap: 4 }
