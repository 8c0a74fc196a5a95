// A shopper's whole journey written against the client generated from the
// served /openapi.json (openapi-typescript) with openapi-fetch. make test
// type-checks it with tsc --strict: no casts (`as`), no non-null assertions
// (`!`), no `any`. When the document stops describing what the server sends,
// this file stops compiling. (It is checked, not run: the README test runs
// the same journey with curl against a live server.)
import createClient from "openapi-fetch";
import type { components, paths } from "./src/schema.js";

type Product = components["schemas"]["ProductFields"];
type OrderCard = components["schemas"]["OrderFields"];

export async function shopperFlow(baseUrl: string, apiKey: string): Promise<OrderCard[]> {
  const shop = createClient<paths>({ baseUrl, headers: { "X-Service-Key": apiKey } });
  const B = "/api/v1/business/website";

  // Store configuration: the currency symbol, with a default when the store removed it.
  const config = await shop.GET(`${B}/config/`);
  if (!config.data) throw new Error(config.error?.message ?? "config");
  const symbol: string = config.data.data.store?.currency_symbol ?? "$";
  const active: boolean = config.data.data.is_active;

  // List with filters and fields: only the named members are there.
  const list = await shop.GET(`${B}/products/`, {
    params: { query: { limit: 12, sort: "price_asc", in_stock: true, fields: "id,name,price,slug,variants" } },
  });
  if (!list.data) throw new Error(list.error.message);
  const cards: string[] = list.data.data.items.map((p: Product) => `${p.name ?? ""} ${symbol}${p.price ?? ""}`);
  const nextCursor: string | null = list.data.data.next_cursor;
  const first = list.data.data.items[0];
  if (!first?.slug) return [];

  // Detail: variants, reviews summary.
  const detail = await shop.GET(`${B}/products/{slug}/`, { params: { path: { slug: first.slug } } });
  if (!detail.data) throw new Error(detail.error.message);
  const product = detail.data.data;
  const variant = product.variants?.find((v) => v.stock > 0);
  const rating: number = product.average_rating ?? 0;

  // Register: the token result carries the profile.
  const reg = await shop.POST("/api/v1/customer/auth/register/", {
    body: { email: "ada@example.com", password: "correct horse", password_confirm: "correct horse", first_name: "Ada", last_name: "L", phone: "+15550100" },
  });
  if (!reg.data) throw new Error(reg.error.errors?.["email"] ?? reg.error.message);
  const token: string = reg.data.data.access_token;
  const verified: boolean = reg.data.data.customer.email_verified;
  const me = createClient<paths>({ baseUrl, headers: { "X-Service-Key": apiKey, Authorization: `Bearer ${token}` } });

  // Cart.
  const added = await me.POST(`${B}/cart/items/`, {
    body: variant ? { product_id: product.id, variant_id: variant.id, quantity: 1 } : { product_id: product.id, quantity: 1 },
  });
  if (!added.data) throw new Error(added.error.message);
  const cart = await me.GET(`${B}/cart/`);
  if (!cart.data) throw new Error(cart.error.message);
  const lines = cart.data.data.items.map((i) => ({ product_id: i.product_id, quantity: i.quantity, ...(i.variant_id === null ? {} : { variant_id: i.variant_id }) }));
  const subtotal: string = cart.data.data.subtotal;

  // Initiate: the server prices everything; the shopper is sent to redirect_url.
  const init = await me.POST(`${B}/payment/initiate/`, {
    params: { header: { "Idempotency-Key": `cart-${cart.data.data.item_count}-${subtotal}` } },
    body: {
      receiver_name: "Ada L", phone: "+15550100", address: "1 Main St", items: lines,
      payment_method: "WALLET_A", callback_url: "https://shop.example/return",
    },
  });
  if (!init.data) throw new Error(init.error.error_code === "price_changed" ? "prices changed" : init.error.message);
  const { redirect_url, order_id, payment_session_id } = init.data.data;

  // Pay on the sandbox page, then send the callback's query back as provider_params.
  const paid = await fetch(redirect_url, { method: "POST", body: new URLSearchParams({ outcome: "success" }), redirect: "manual" });
  const back = new URL(paid.headers.get("Location") ?? "https://shop.example/return");
  const provider_params: Record<string, string> = Object.fromEntries(back.searchParams);
  const verify = await me.POST(`${B}/payment/verify/`, { body: { payment_session_id, provider_params } });
  if (!verify.data) throw new Error(verify.error.message);
  if (!verify.data.data.success) throw new Error(verify.data.data.message);

  // Orders: list, one order, a cancellation request.
  const orders = await me.GET(`${B}/orders/`, { params: { query: { limit: 10 } } });
  if (!orders.data) throw new Error(orders.error.message);
  const one = await me.GET(`${B}/orders/{order_id}/`, { params: { path: { order_id } } });
  if (!one.data) throw new Error(one.error.message);
  const total: string | undefined = one.data.data.total;
  const cancel = await me.POST(`${B}/orders/cancel/`, { body: { order_id, reason: "Ordered twice" } });
  if (!cancel.data) throw new Error(cancel.error.message);
  const requestStatus: components["schemas"]["RequestStatus"] = cancel.data.data.status;

  // A review (its id comes back as a decimal string) and a support ticket.
  const review = await me.POST(`${B}/reviews/`, { body: { product_id: product.id, rating: 5, title: "Great", content: "Works well." } });
  if (!review.data) throw new Error(review.error.message);
  const reviewID: number = Number.parseInt(review.data.data, 10);
  const ticket = await me.POST(`${B}/tickets/`, {
    body: { subject: "Where is my parcel?", description: "Ordered last week.", category: "ORDER", priority: "MEDIUM", order_id },
  });
  if (!ticket.data) throw new Error(ticket.error.message);
  const thread = await me.GET(`${B}/tickets/{ticket_id}/`, { params: { path: { ticket_id: ticket.data.data } } });
  if (!thread.data) throw new Error(thread.error.message);
  const firstMessage: string = thread.data.data.messages[0]?.message ?? "";

  console.log(cards, nextCursor, active, rating, verified, total, requestStatus, reviewID, firstMessage);
  return orders.data.data.items;
}
