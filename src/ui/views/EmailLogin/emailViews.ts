/**
 * The email login's and the email change's views, fetched together (one chunk, one request) the first time one of
 * them opens: they share the code form, and a visitor who sees one sees the next.
 */
export { EmailVerifyDevice } from "./EmailVerifyDevice"
export { EmailVerifyOtp } from "./EmailVerifyOtp"
export { UpdateEmail } from "../UpdateEmail/UpdateEmail"
export { UpdateEmailPrimaryOtp, UpdateEmailSecondaryOtp } from "../UpdateEmail/UpdateEmailOtp"
