/**
 * The hosted services' HTTP API (spec 7.3 and 7.4, with our extensions), declared once with `effect/http-api`: the
 * server implements it (`server/`), the modal's clients are derived from it (group by group, `servicesApiOf`), and
 * the server serves its OpenAPI document at `/openapi.json`. Every route decodes its input with these Schemas and
 * refuses unknown fields.
 */
import { BlockchainGroup } from "./blockchain"
import { AnalyticsGroup, CatalogueGroup, ImagesGroup } from "./catalogue"
import { ConvertGroup } from "./convert"
import { NamesGroup } from "./names"
import { OnrampGroup } from "./onramp"
import { RpcProxyGroup } from "./rpcProxy"
import { servicesApiOf } from "./servicesApiOf"
import { SessionsGroup } from "./sessions"

/** The hosted services' API. */
export const ServicesApi = servicesApiOf(
  CatalogueGroup,
  ImagesGroup,
  AnalyticsGroup,
  BlockchainGroup,
  NamesGroup,
  SessionsGroup,
  RpcProxyGroup,
  ConvertGroup,
  OnrampGroup
)
