/** Hides the frame, of no size in the corner: where it waits while no secure view shows it. */
export const hideFrame = (style: CSSStyleDeclaration): void => {
  for (const property of ["top", "left", "width", "height"]) style.setProperty(property, "0")
  style.setProperty("visibility", "hidden")
}
