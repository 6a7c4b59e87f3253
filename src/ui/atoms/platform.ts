/** Atoms of the platform: whether the page runs on a phone. */
import { Effect, Stream } from "effect"
import * as AsyncResult from "effect/reactivity/AsyncResult"
import type * as Atom from "effect/reactivity/Atom"
import type { MiniAppPlatform } from "../../domain/validation"
import { Platform } from "../../services/Platform"
import { mapAtom, stateLikeAtom } from "./runtime"

/** The Platform service's view of the device. */
const platformStateAtom = stateLikeAtom(Stream.fromEffect(Effect.map(Platform, (platform) => platform.isMobile)))

/** True on a phone or tablet (false on the server and until the runtime runs). */
export const isMobileAtom: Atom.Atom<boolean> = mapAtom(platformStateAtom, (result) => AsyncResult.getOrElse(result, () => false))

const miniAppStateAtom = stateLikeAtom(Stream.fromEffect(Effect.map(Platform, (platform) => platform.miniApp)))

/** The OS of the messenger mini-app the page runs in, or `undefined` outside one (and until the runtime runs). */
export const miniAppAtom: Atom.Atom<MiniAppPlatform | undefined> = mapAtom(miniAppStateAtom, (result) => AsyncResult.getOrElse(result, () => undefined))
