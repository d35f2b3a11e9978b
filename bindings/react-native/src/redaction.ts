// What a printed document shows of the secrets it carries (issue 36), for React Native and the
// web alike: the same rules as Swift's descriptions and Kotlin's toString() (Redaction.swift).
//
// A secret member stays a member: the app reads `effect.url`, spreads, copies and sends the
// documents as before, and JSON.stringify writes them whole — JSON is how a host relays an
// effect (to a native module, a WebView, its backend) and how snapshotJson() saves. What changes
// is how the member is held: as an enumerable getter, not a data property. Printers that list a
// value's properties without calling getters show `[Getter]` (React Native's console, whose
// native log goes to logcat and os_log, and Node's util.inspect) or `(...)` until clicked (the
// browsers' consoles); in Node, console.log and util.inspect show the document with `<redacted>`
// in place of each secret (Symbol.for('nodejs.util.inspect.custom')). So: log the document, never
// JSON.stringify(document) — that is the data, secrets included.

/** What is shown instead of a secret. */
export const REDACTED = '<redacted>';

const INSPECT = Symbol.for('nodejs.util.inspect.custom');

/** `https://pay.example.com/<redacted>`, `fixapp:<redacted>`, `billpocket:<redacted>`, or
 *  REDACTED for text without a scheme: a URL keeps its http(s) origin, or only its scheme. */
export function redactUrl(url: string): string {
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(url);
  if (scheme === null) return REDACTED;
  if (/^https?$/i.test(scheme[1])) {
    const authority = /^[A-Za-z]+:\/\/([^/?#]*)/.exec(url);
    if (authority !== null && !authority[1].includes('@')) return `${scheme[1]}://${authority[1]}/${REDACTED}`;
  }
  return `${scheme[1]}:${REDACTED}`;
}

/** `order-42~<redacted>` for the identifier sent to the POS app, `order-42~<token>`. */
export function redactIdentifier(identifier: string): string {
  const tilde = identifier.lastIndexOf('~');
  return tilde < 0 ? identifier : `${identifier.slice(0, tilde)}~${REDACTED}`;
}

const SECRET_KEYS = new Set(['usertoken', 'pin', 'nonce', 'token', 'api_key', 'affiliate_key', 'affiliate-key']);

/** The extras and fields that carry `<identifier>~<token>` to a POS app (Billpocket's
 *  `identifier`, Square's REQUEST_METADATA / `state`, SumUp's foreign-tx-id, Clip's reference). */
const ECHO_KEYS = new Set(['identifier', 'com.squareup.pos.REQUEST_METADATA', 'state', 'foreign-tx-id', 'PAYMENT_REFERENCE']);

/** Marks a build result whose `url` is the Billpocket URL (holding the user token). */
const TOP_URL = Symbol('payhandoff.url-is-secret');


/** How the member `key` (a string) of `object` is shown, or undefined when it is no secret. */
function shown(object: Record<string, unknown>, key: string, value: string): string | undefined {
  if (SECRET_KEYS.has(key.toLowerCase())) return REDACTED;
  if (key === 'identifier') return value.includes('~') ? redactIdentifier(value) : undefined;
  // checkout_url: the gateway's page may echo the return URL; a return URL with the nonce segment.
  if (key === 'checkout_url' || (key === 'return_url' && value.includes('/ph_'))) return redactUrl(value);
  // open_browser's return_to: an https path with the nonce segment.
  if (key === 'https_path' && value.includes('/ph_')) return value.slice(0, value.lastIndexOf('/ph_') + 4) + REDACTED;
  if (key === 'url' && (object.type === 'open_pos_app' || object.type === 'open_browser' || (object as Record<symbol, unknown>)[TOP_URL] === true)) {
    return redactUrl(value);
  }
  if (key === 'value' && typeof object.key === 'string') {
    // {key, value}: a POS URL's fields and its intent's extras.
    if (SECRET_KEYS.has(object.key.toLowerCase())) return REDACTED;
    if (ECHO_KEYS.has(object.key) && value.includes('~')) return redactIdentifier(value);
  }
  // An intent's data URI (SumUp's holds the affiliate key and the token).
  if (key === 'data' && typeof object.action === 'string') return redactUrl(value);
  if (key === 'value' && typeof object.name === 'string' && object.name.toLowerCase() === 'authorization') return `Bearer ${REDACTED}`;
  return undefined;
}

/** Holds `key` of `object` as an enumerable getter (and a setter that makes it plain data again). */
function hold(object: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(object, key, {
    enumerable: true,
    configurable: true,
    get: () => value,
    set(replacement: unknown) {
      Object.defineProperty(object, key, { value: replacement, writable: true, enumerable: true, configurable: true });
    },
  });
}

/** Node's custom inspection: the object's members, each secret shown as `masks` says. */
function inspectable(object: Record<string, unknown>, masks: Map<string, string>): void {
  Object.defineProperty(object, INSPECT, {
    enumerable: false,
    configurable: true,
    value(this: Record<string, unknown>) {
      const copy: Record<string, unknown> = {};
      for (const key of Object.keys(this)) copy[key] = masks.has(key) ? masks.get(key) : this[key];
      return copy;
    },
  });
}

/**
 * `document` with every secret it carries held as described above, in place; returns it. The
 * rules are the member names of the C ABI's documents (docs/abi.md): a user token, PIN, nonce,
 * token or API key; an identifier with its token; a checkout URL; a return URL with its nonce
 * segment; the URL of `open_pos_app` and `open_browser` effects; a POS URL's fields and intent
 * extras; an `Authorization` header; a checkout callback's other parameters (`extra`: whoever sent
 * the URL chose them, and a nonce may be echoed there). `posUrl`: the document is a POS build
 * result, whose `url` holds the user token.
 */
export function guard<T>(document: T, posUrl = false): T {
  if (posUrl && typeof document === 'object' && document !== null) {
    Object.defineProperty(document, TOP_URL, { value: true, enumerable: false });
  }
  walk(document);
  return document;
}

function walk(value: unknown): void {
  if (Array.isArray(value)) {
    for (const item of value) walk(item);
    return;
  }
  if (typeof value !== 'object' || value === null) return;
  const object = value as Record<string, unknown>;
  const masks = new Map<string, string>();
  for (const key of Object.keys(object)) {
    const member = object[key];
    if (typeof member === 'string') {
      const mask = shown(object, key, member);
      if (mask !== undefined) {
        masks.set(key, mask);
        hold(object, key, member);
      }
    } else if (key === 'extra' && typeof object.verified === 'boolean' && typeof member === 'object' && member !== null) {
      // A checkout callback's other parameters: every value.
      const extra = member as Record<string, unknown>;
      const extraMasks = new Map<string, string>();
      for (const name of Object.keys(extra)) {
        extraMasks.set(name, REDACTED);
        hold(extra, name, extra[name]);
      }
      if (extraMasks.size > 0) inspectable(extra, extraMasks);
    } else {
      walk(member);
    }
  }
  if (masks.size > 0) inspectable(object, masks);
}
