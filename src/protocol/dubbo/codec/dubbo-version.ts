import { boundedMemo } from "../../../core/index.js";

/**
 * Java's `Version.getIntVersion` / `isSupportResponseAttachment`: a response carries attachments only
 * when the request's dubbo protocol version lies in [2.0.2, 2.0.99]. Each dotted part counts two
 * decimal digits ("2.0.2" → 2000200), a three-part version is scaled by 100, and only a part's
 * leading digits count ("2.0.2-SNAPSHOT" → 2.0.2).
 */
const LOWEST_VERSION_FOR_RESPONSE_ATTACHMENT = 2_000_200;
const HIGHEST_PROTOCOL_VERSION = 2_009_900;
/** What Java assumes for a version it cannot parse (`LEGACY_DUBBO_PROTOCOL_VERSION`). */
const LEGACY_PROTOCOL_VERSION = 10_000;

function leadingDigits(part: string): string {
  let end = 0;
  while (end < part.length && part.charCodeAt(end) >= 48 && part.charCodeAt(end) <= 57) end++;
  return part.slice(0, end);
}

/** Peers send a handful of versions; the bound only guards against a hostile stream of them. */
export const intVersion = boundedMemo(64, (version: string): number => {
  const parts = version.split(".");
  let value = 0;
  for (let i = 0; i < parts.length; i++) {
    const digits = leadingDigits(parts[i]!);
    if (digits !== "") value += Number(digits) * 10 ** ((parts.length - i - 1) * 2);
  }
  if (parts.length === 3) value *= 100;
  if (!Number.isFinite(value)) value = LEGACY_PROTOCOL_VERSION;
  return value;
});

export function supportsResponseAttachments(version: string | undefined): boolean {
  if (version === undefined || version === "") return false;
  const v = intVersion(version);
  return v >= LOWEST_VERSION_FOR_RESPONSE_ATTACHMENT && v <= HIGHEST_PROTOCOL_VERSION;
}
