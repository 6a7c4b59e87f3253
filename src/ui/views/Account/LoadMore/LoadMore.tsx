/** The end of a paged list (activity, NFTs): loads the next page once it scrolls into view, or when pressed. */
import { type ReactNode, useEffect, useRef } from "react"
import { Button } from "../../../components/Button/Button"
import { Spinner } from "../../../components/Spinner/Spinner"
import * as styles from "./LoadMore.css"

/** The end of a paged list: a spinner while a page loads, "Load more" while pages remain, nothing at the end. */
export function LoadMore(props: {
  readonly state: { readonly done: boolean; readonly loading: boolean }
  readonly loadMore: () => void
  /** What the spinner says to assistive technology. */
  readonly label: string
}): ReactNode {
  const button = useRef<HTMLButtonElement>(null)
  const { loadMore } = props
  const waiting = !props.state.done && !props.state.loading
  useEffect(() => {
    const element = button.current
    if (!waiting || element === null || typeof IntersectionObserver === "undefined") return
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((entry) => entry.isIntersecting)) loadMore()
    })
    observer.observe(element)
    return () => observer.disconnect()
  }, [waiting, loadMore])
  if (props.state.loading) {
    return (
      <div className={styles.more}>
        <Spinner label={props.label} />
      </div>
    )
  }
  if (props.state.done) return null
  return (
    <div className={styles.more}>
      <Button ref={button} variant="secondary" onClick={loadMore}>
        Load more
      </Button>
    </div>
  )
}
