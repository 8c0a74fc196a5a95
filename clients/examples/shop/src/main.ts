// A small headless shop on @storefront/client: the catalogue, a product with
// its variants, the guest cart the server keeps, a checkout through the
// store's payment method (the sandbox on the demo) and the order page the
// payment returns to. Plain DOM, hash routes (#/, #/p/SLUG, #/cart).
import { createStorefrontClient, StorefrontError, type Cart, type CheckoutInput, type Product, type Session } from "@storefront/client";
import "./style.css";

// Where the API is and the store's key: ?api=...&key=... once (kept for the
// tab, the payment page sends the shopper back without them), else the
// VITE_STOREFRONT_URL and VITE_STOREFRONT_KEY of the build.
const query = new URLSearchParams(location.search);
for (const [param, name] of [["api", "sf.api"], ["key", "sf.key"]] as const) {
  const v = query.get(param);
  if (v) sessionStorage.setItem(name, v);
}
const baseUrl = sessionStorage.getItem("sf.api") ?? import.meta.env.VITE_STOREFRONT_URL ?? "http://127.0.0.1:8080";
const storeKey = sessionStorage.getItem("sf.key") ?? import.meta.env.VITE_STOREFRONT_KEY ?? "";

// The client's session (the guest cart token) survives reloads and the trip to the payment page.
const saved = localStorage.getItem("sf.session");
const shop = createStorefrontClient({
  baseUrl,
  storeKey,
  session: saved ? (JSON.parse(saved) as Partial<Session>) : {},
  onChange: (s) => localStorage.setItem("sf.session", JSON.stringify(s)),
});

const app = document.getElementById("app") as HTMLElement;

/** h makes an element with text or children; attributes are set as properties (never as HTML). */
function h<K extends keyof HTMLElementTagNameMap>(tag: K, props: Partial<HTMLElementTagNameMap[K]> = {}, ...children: (Node | string)[]): HTMLElementTagNameMap[K] {
  const el = Object.assign(document.createElement(tag), props);
  el.append(...children);
  return el;
}

function show(...nodes: Node[]): void {
  app.replaceChildren(...nodes);
}

function problem(e: unknown): string {
  if (e instanceof StorefrontError) {
    const fields = Object.entries(e.errors).map(([k, v]) => `${k}: ${v}`);
    return [e.message, ...fields].join("; ");
  }
  return String(e);
}

async function catalogue(): Promise<void> {
  const list = h("ul", { className: "grid" });
  for await (const p of shop.products.list({ limit: 12, sort: "price_asc", fields: "id,name,slug,price,in_stock" })) {
    if (p.slug === undefined) continue;
    const stock = p.in_stock === false ? " (sold out)" : "";
    list.append(h("li", {}, h("a", { href: `#/p/${encodeURIComponent(p.slug)}` }, p.name ?? p.slug), h("span", { className: "price" }, `${p.price ?? ""}${stock}`)));
    if (list.children.length === 12) break;
  }
  show(h("h1", {}, "Products"), list);
}

function variantPicker(p: Product): HTMLSelectElement | null {
  if (p.variants.length === 0) return null;
  const select = h("select", { id: "variant", name: "variant" });
  for (const v of p.variants) {
    select.append(h("option", { value: String(v.id), disabled: v.stock <= 0 }, `${v.name} — ${v.price}${v.stock <= 0 ? " (sold out)" : ""}`));
  }
  const first = p.variants.find((v) => v.stock > 0);
  if (first) select.value = String(first.id);
  return select;
}

async function product(slug: string): Promise<void> {
  const p = await shop.products.get(slug);
  const picker = variantPicker(p);
  const qty = h("input", { id: "quantity", type: "number", min: "1", value: "1", required: true });
  const status = h("p", { role: "status" });
  const form = h("form", {}, ...(picker ? [h("label", { htmlFor: "variant" }, "Option "), picker] : []), h("label", { htmlFor: "quantity" }, " Quantity "), qty, " ", h("button", { type: "submit", id: "add" }, "Add to cart"), status);
  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    const variant = picker ? Number(picker.value) : null;
    shop.cart
      .add({ product_id: p.id, variant_id: variant, quantity: Number(qty.value) })
      .then(() => {
        location.hash = "#/cart";
      })
      .catch((e: unknown) => {
        status.textContent = problem(e);
      });
  });
  show(h("h1", {}, p.name), h("p", { className: "price" }, `${p.price} ${p.currency}`), h("p", {}, p.description), form);
}

function cartLines(cart: Cart): HTMLElement {
  const rows = cart.items.map((it) => h("tr", {}, h("td", {}, it.name), h("td", {}, String(it.quantity)), h("td", {}, it.line_total)));
  return h(
    "table",
    { id: "lines" },
    h("thead", {}, h("tr", {}, h("th", {}, "Item"), h("th", {}, "Qty"), h("th", {}, "Total"))),
    h("tbody", {}, ...rows),
    h("tfoot", {}, h("tr", {}, h("td", { colSpan: 2 }, "Subtotal"), h("td", { id: "subtotal" }, `${cart.subtotal} ${cart.currency}`))),
  );
}

function field(name: string, label: string, type = "text", value = ""): HTMLElement {
  return h("p", {}, h("label", { htmlFor: name }, label), h("input", { id: name, name, type, value, required: true }));
}

type Method = CheckoutInput["payment_method"];
const isMethod = (code: string): code is Method => code === "WALLET_A" || code === "WALLET_B";

async function paymentMethods(): Promise<HTMLSelectElement> {
  const r = await shop.api.GET("/api/v1/business/website/payment-methods/");
  const select = h("select", { id: "payment_method", name: "payment_method" });
  for (const m of r.data?.data.items ?? []) select.append(h("option", { value: m.code }, m.name));
  return select;
}

async function cartPage(): Promise<void> {
  const cart = await shop.cart.get();
  if (cart.items.length === 0) {
    show(h("h1", {}, "Cart"), h("p", {}, "Your cart is empty. "), h("a", { href: "#/" }, "Browse the products"));
    return;
  }
  const method = await paymentMethods();
  const status = h("p", { role: "status" });
  const form = h("form", { id: "checkout" }, field("receiver_name", "Name"), field("email", "Email", "email"), field("phone", "Phone", "tel"), field("address", "Address"), h("p", {}, h("label", { htmlFor: "payment_method" }, "Payment"), method), h("button", { type: "submit", id: "pay" }, "Pay"), status);
  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    const value = (name: string): string => (form.elements.namedItem(name) as HTMLInputElement).value;
    const code = method.value;
    if (!isMethod(code)) return;
    sessionStorage.setItem("sf.lines", JSON.stringify(cart.items.map((it) => `${it.quantity} × ${it.name}`)));
    shop.checkout
      .initiate({
        receiver_name: value("receiver_name"), email: value("email"), phone: value("phone"), address: value("address"),
        payment_method: code, callback_url: location.origin + location.pathname,
      })
      .then((r) => {
        location.assign(r.redirect_url); // the payment page; it sends the shopper back to callback_url
      })
      .catch((e: unknown) => {
        status.textContent = problem(e);
      });
  });
  show(h("h1", {}, "Cart"), cartLines(cart), h("h2", {}, "Checkout"), form);
}

/** orderPage verifies the payment the gateway sent the shopper back with and shows the order. */
async function orderPage(params: URLSearchParams): Promise<void> {
  history.replaceState(null, "", location.pathname + "#/order");
  const result = await shop.checkout.verify({
    payment_session_id: params.get("payment_session_id") ?? "",
    provider_params: Object.fromEntries(params),
  });
  const lines: string[] = JSON.parse(sessionStorage.getItem("sf.lines") ?? "[]");
  show(
    h("h1", {}, result.success ? "Thank you!" : "The payment did not go through"),
    h("p", { id: "order" }, `Order #${result.order_id}: ${result.status}`),
    h("p", {}, result.message),
    h("ul", {}, ...lines.map((l) => h("li", {}, l))),
    result.success ? h("a", { href: "#/" }, "Continue shopping") : h("a", { href: "#/cart" }, "Back to the cart"),
  );
}

async function route(): Promise<void> {
  const hash = location.hash.slice(1) || "/";
  const slug = /^\/p\/(.+)$/.exec(hash)?.[1];
  if (slug !== undefined) await product(decodeURIComponent(slug));
  else if (hash === "/cart") await cartPage();
  else if (hash !== "/order") await catalogue();
}

function render(): void {
  const returned = new URLSearchParams(location.search);
  const work = returned.has("payment_session_id") ? orderPage(returned) : route();
  work.catch((e: unknown) => show(h("h1", {}, "Something went wrong"), h("p", { role: "alert" }, problem(e))));
}

if (!storeKey) show(h("p", { role: "alert" }, "Set VITE_STOREFRONT_KEY (or open the page with ?key=sk_...) to the store's API key."));
else {
  window.addEventListener("hashchange", render);
  render();
}
