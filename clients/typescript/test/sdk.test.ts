// The SDK's test, run by scripts/sdk.sh against the built package (imported by
// its own name) and a real server in demo mode:
//   node build-test/test/sdk.test.js BASE_URL API_KEY
// A guest's cart from a cart token to a paid order, cursor iteration, the
// merge at register, the shopper's cart to a paid order (from_cart), one token refresh for concurrent 401s, idempotent
// checkout keys, and a webhook signed by the Go code verified here.
import { readFileSync } from "node:fs";
import { createStorefrontClient, StorefrontError, type ProductCard, type Storefront } from "@storefront/client";
import { isEvent, verifyWebhook, WebhookVerificationError } from "@storefront/client/webhooks";

function check(cond: boolean, what: string): asserts cond {
  if (!cond) throw new Error(`sdk test: ${what}`);
}

async function pickProduct(client: Storefront): Promise<{ product_id: number; variant_id: number | null }> {
  let seen = 0;
  let pick: ProductCard | undefined;
  for await (const p of client.products.list({ limit: 2, in_stock: true })) {
    seen++;
    pick ??= p;
  }
  check(seen > 2, `cursor iteration walked ${seen} products over pages of 2`);
  check(pick?.slug !== undefined, "an in-stock product with a slug");
  const detail = await client.products.get(pick.slug);
  // The variant with the most stock: the test orders five units of it.
  const variant = detail.variants.reduce<(typeof detail.variants)[number] | undefined>((best, v) => (v.stock > (best?.stock ?? 0) ? v : best), undefined);
  return { product_id: detail.id, variant_id: variant ? variant.id : null };
}

async function pay(redirectUrl: string): Promise<Record<string, string>> {
  const paid = await fetch(redirectUrl, { method: "POST", body: new URLSearchParams({ outcome: "success" }), redirect: "manual" });
  const location = paid.headers.get("Location");
  check(location !== null, `the sandbox answered ${paid.status} without a Location`);
  return Object.fromEntries(new URL(location).searchParams);
}

async function guestCheckout(baseUrl: string, storeKey: string): Promise<void> {
  const client = createStorefrontClient({ baseUrl, storeKey });
  const line = await pickProduct(client);
  const item = await client.cart.add({ ...line, quantity: 1 });
  const cartToken = client.state.cartToken;
  check(cartToken !== null && item.quantity === 1, "add made a guest cart and remembered its token");
  const cart = await client.cart.get();
  check(cart.items.length === 1 && cart.item_count === 1, `the guest cart holds the line (${cart.item_count})`);

  const methods = await client.api.GET("/api/v1/business/website/payment-methods/");
  const method = methods.data?.data.items[0]?.code;
  check(method !== undefined, "a payment method");
  const input = { receiver_name: "Ada L", email: "ada@example.com", phone: "+15550100", address: "1 Main St", payment_method: method, callback_url: `${baseUrl}/return` };
  const key = `sdk-test-${Date.now()}`;
  const first = await client.checkout.initiate(input, { idempotencyKey: key });
  const again = await client.checkout.initiate(input, { idempotencyKey: key });
  check(first.order_id === again.order_id, "the same Idempotency-Key gives the same order");

  const params = await pay(first.redirect_url);
  const verified = await client.checkout.verify({ payment_session_id: first.payment_session_id, provider_params: params });
  check(verified.success, `verify: ${verified.message}`);
  const after = await client.cart.get();
  check(after.items.length === 0, "the guest cart is empty once the order is paid");
}

async function mergeAndRefresh(baseUrl: string, storeKey: string): Promise<void> {
  let refreshes = 0;
  const counting = (request: Request): Promise<Response> => {
    if (new URL(request.url).pathname.endsWith("/auth/refresh/")) refreshes++;
    return fetch(request);
  };
  const client = createStorefrontClient({ baseUrl, storeKey, fetch: counting });
  await client.cart.add({ ...(await pickProduct(client)), quantity: 2 });
  check(client.state.cartToken !== null, "a guest cart");
  const email = `sdk-${Date.now()}@example.com`;
  await client.auth.register({ email, password: "correct horse", password_confirm: "correct horse", first_name: "Ada" });
  check(client.state.cartToken === null && client.state.tokens !== null, "register forgot the merged cart's token");
  const cart = await client.cart.get();
  check(cart.item_count === 2, `the guest cart merged into the shopper's (${cart.item_count} units)`);

  // The shopper pays for the cart the server holds, without resending its lines (from_cart).
  const fromCart = await client.checkout.initiate({
    receiver_name: "Ada L", phone: "+15550100", address: "1 Main St", payment_method: "WALLET_A", callback_url: `${baseUrl}/return`,
  });
  const paid = await client.checkout.verify({ payment_session_id: fromCart.payment_session_id, provider_params: await pay(fromCart.redirect_url) });
  check(paid.success, `verify the shopper's cart order: ${paid.message}`);
  const order = await client.orders.get(fromCart.order_id);
  check(order.items.length === 1 && order.items[0]?.quantity === 2, "the order holds the cart's line");
  check((await client.cart.get()).items.length === 0, "the shopper's cart is empty once the order is paid");

  // A stale access token: three calls at once get 401, one refresh serves them all.
  const tokens = client.state.tokens;
  check(tokens !== null, "tokens");
  const stale = createStorefrontClient({ baseUrl, storeKey, fetch: counting, session: { tokens: { ...tokens, accessToken: "stale" } } });
  const me = await Promise.all([stale.auth.me(), stale.auth.me(), stale.auth.me()]);
  check(me.every((p) => p.email === email), "every call retried with the new token");
  check(refreshes === 1, `got ${refreshes} refreshes, want 1`);

  // A generated key per call: two checkouts of the same lines are two orders.
  const line = cart.items[0];
  check(line !== undefined, "a line");
  const input = {
    receiver_name: "Ada L", phone: "+15550100", address: "1 Main St", payment_method: "WALLET_A" as const, callback_url: `${baseUrl}/return`,
    items: [{ product_id: line.product_id, variant_id: line.variant_id, quantity: 1 }],
  };
  const a = await client.checkout.initiate(input);
  const b = await client.checkout.initiate(input);
  check(a.order_id !== b.order_id, "a new Idempotency-Key per call");

  // The refresh rotated the tokens: the first client's refresh token is revoked.
  await client.auth.logout();
  check(client.state.tokens === null, "logout with a revoked refresh token still ends the session");
  await stale.auth.logout();
  try {
    await stale.auth.me();
    check(false, "me after logout");
  } catch (e) {
    check(e instanceof StorefrontError && e.status === 401, `me after logout: ${String(e)}`);
  }
}

function webhookVector(): void {
  const v: { secret: string; id: string; timestamp: number; body: string; signature: string } = JSON.parse(
    readFileSync(new URL("../../test/webhook-vector.json", import.meta.url), "utf8"),
  );
  const headers = { "webhook-id": v.id, "webhook-timestamp": String(v.timestamp), "webhook-signature": v.signature };
  const event = verifyWebhook(v.secret, headers, v.body, { now: v.timestamp + 10 });
  check(isEvent(event, "product.low_stock") && event.data.product.slug === "red-shoe", "the Go-signed vector verifies and is typed");
  check(verifyWebhook(v.secret, new Headers(headers), Buffer.from(v.body), { now: v.timestamp }).id === v.id, "Headers and bytes");
  const rejects = (what: string, f: () => unknown): void => {
    try {
      f();
    } catch (e) {
      check(e instanceof WebhookVerificationError, `${what}: ${String(e)}`);
      return;
    }
    throw new Error(`sdk test: ${what} was accepted`);
  };
  rejects("an altered body", () => verifyWebhook(v.secret, headers, v.body.replace('"stock":2', '"stock":9'), { now: v.timestamp }));
  rejects("another secret", () => verifyWebhook("whsec_" + Buffer.alloc(32).toString("base64"), headers, v.body, { now: v.timestamp }));
  rejects("an old timestamp", () => verifyWebhook(v.secret, headers, v.body, { now: v.timestamp + 301 }));
  rejects("no signature", () => verifyWebhook(v.secret, { ...headers, "webhook-signature": "" }, v.body, { now: v.timestamp }));
}

const [baseUrl, storeKey] = process.argv.slice(2);
if (!baseUrl || !storeKey) throw new Error("usage: sdk.test.js BASE_URL API_KEY");
webhookVector();
await guestCheckout(baseUrl, storeKey);
await mergeAndRefresh(baseUrl, storeKey);
console.log("sdk test: guest checkout from a cart token, merge at register, shopper checkout from the server cart, one refresh, idempotency keys, webhook vector: ok");
