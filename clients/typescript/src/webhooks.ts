// @storefront/client/webhooks: verify a delivery (Standard Webhooks) and get
// its typed payload. Server-side only (node:crypto).
import { createHmac, timingSafeEqual } from "node:crypto";
import type { WebhookEvent, WebhookEventType, WebhookPayload } from "./index.js";

export type { WebhookEvent, WebhookEventType, WebhookPayload };

/** Every event type the document describes (checked against it when compiling). */
export const webhookEventTypes = [
  "order.created",
  "order.paid",
  "order.shipped",
  "order.status_changed",
  "order.cancelled",
  "cancellation.requested",
  "cancellation.decided",
  "refund.requested",
  "refund.decided",
  "review.created",
  "review.moderated",
  "ticket.created",
  "ticket.replied",
  "contact.received",
  "product.low_stock",
  "webhook.test",
] as const satisfies readonly WebhookEventType[];

// A type the document has and the list lacks fails the build here.
type Unlisted = Exclude<WebhookEventType, (typeof webhookEventTypes)[number]>;
const complete: [Unlisted] extends [never] ? true : Unlisted = true;
void complete;

export class WebhookVerificationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "WebhookVerificationError";
  }
}

export interface VerifyOptions {
  /** How far webhook-timestamp may be from now, in seconds (default 300). */
  toleranceSeconds?: number;
  /** The current time in Unix seconds (default: the clock). */
  now?: number;
}

type HeaderSource = Headers | Record<string, string | string[] | undefined>;

function header(h: HeaderSource, name: string): string {
  if (h instanceof Headers) return h.get(name) ?? "";
  const v = h[name] ?? h[name.toLowerCase()];
  return Array.isArray(v) ? (v[0] ?? "") : (v ?? "");
}

const base64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** signingKey is what the server keys the HMAC with: the base64-decoded part after whsec_ (else the secret's bytes). */
function signingKey(secret: string): Buffer {
  const rest = secret.startsWith("whsec_") ? secret.slice("whsec_".length) : secret;
  return base64.test(rest) ? Buffer.from(rest, "base64") : Buffer.from(secret, "utf8");
}

/** sign returns the webhook-signature value for a message ("v1,<base64>"). */
export function signWebhook(secret: string, id: string, timestamp: number | string, body: string | Uint8Array): string {
  const mac = createHmac("sha256", signingKey(secret)).update(`${id}.${timestamp}.`).update(body).digest();
  return `v1,${mac.toString("base64")}`;
}

function isWebhookEvent(x: unknown): x is WebhookEvent {
  if (typeof x !== "object" || x === null) return false;
  const e: Record<string, unknown> = { ...x };
  return (
    typeof e["id"] === "string" &&
    typeof e["timestamp"] === "string" &&
    typeof e["store_id"] === "number" &&
    typeof e["data"] === "object" &&
    webhookEventTypes.some((t) => t === e["type"])
  );
}

/**
 * verifyWebhook checks a delivery's Standard Webhooks signature (HMAC-SHA256
 * over "{webhook-id}.{webhook-timestamp}.{body}" with the endpoint's whsec_
 * secret) and timestamp, and returns the typed payload. Pass the body exactly
 * as received (the raw bytes, not re-serialised JSON). Throws
 * WebhookVerificationError.
 */
export function verifyWebhook(secret: string, headers: HeaderSource, body: string | Uint8Array, options: VerifyOptions = {}): WebhookEvent {
  const id = header(headers, "webhook-id");
  const ts = header(headers, "webhook-timestamp");
  const signatures = header(headers, "webhook-signature");
  if (!id || !ts || !signatures) throw new WebhookVerificationError("missing webhook-id, webhook-timestamp or webhook-signature");
  if (!/^[0-9]+$/.test(ts)) throw new WebhookVerificationError("webhook-timestamp is not Unix seconds");
  const now = options.now ?? Math.floor(Date.now() / 1000);
  if (Math.abs(now - Number(ts)) > (options.toleranceSeconds ?? 300)) {
    throw new WebhookVerificationError("webhook-timestamp is too far from now (replayed or delayed)");
  }
  const raw = typeof body === "string" ? Buffer.from(body, "utf8") : Buffer.from(body);
  const want = Buffer.from(signWebhook(secret, id, ts, raw).slice("v1,".length), "base64");
  const ok = signatures.split(" ").some((part) => {
    const comma = part.indexOf(",");
    if (comma < 0 || part.slice(0, comma) !== "v1") return false;
    const got = Buffer.from(part.slice(comma + 1), "base64");
    return got.length === want.length && timingSafeEqual(got, want);
  });
  if (!ok) throw new WebhookVerificationError("no valid v1 signature");
  const event: unknown = JSON.parse(raw.toString("utf8"));
  if (!isWebhookEvent(event) || event.id !== id) throw new WebhookVerificationError("the body is not a webhook event of this message");
  return event;
}

/** isEvent narrows a verified event to one type: if (isEvent(e, "order.paid")) e.data.order.total. */
export function isEvent<T extends WebhookEventType>(event: WebhookEvent, type: T): event is WebhookPayload<T> {
  return event.type === type;
}
