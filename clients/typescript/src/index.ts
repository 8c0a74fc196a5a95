// @storefront/client: the Storefront API over openapi-fetch, with the types
// generated from the served OpenAPI document (src/schema.ts, written by the
// build) and what every front-end writes otherwise: the store key, the
// shopper's tokens with one refresh in flight, the guest cart token, an
// Idempotency-Key per checkout, and cursor iteration.
import createClient, { type Client } from "openapi-fetch";
import type { components, paths, webhooks } from "./schema.js";

export type { components, paths, webhooks };
export type Schemas = components["schemas"];
/** A product as a list trimmed by fields= returns it: only id is sure to be there. */
export type ProductCard = Schemas["ProductListItemFields"];
/** A product as a list without fields= returns it: every member. */
export type ProductListItem = Schemas["ProductListItem"];
export type Product = Schemas["Product"];
export type Order = Schemas["Order"];
export type Profile = Schemas["Profile"];
export type Cart = Schemas["Cart"];
export type CartItem = Schemas["CartItem"];
export type CartItemInput = Schemas["CartItemInput"];
export type CheckoutInput = Schemas["CheckoutInput"];
export type CheckoutResult = Schemas["CheckoutResult"];
export type VerifyInput = Schemas["VerifyInput"];
export type TokenResult = Schemas["TokenResult"];
export type ApiError = Schemas["Error"];
/** Any webhook payload; narrow it on `type`. */
export type WebhookEvent = Schemas["WebhookEvent"];
export type WebhookEventType = WebhookEvent["type"];
/** The payload of one event type: WebhookPayload<"order.paid">. */
export type WebhookPayload<T extends WebhookEventType> = Extract<WebhookEvent, { type: T }>;

/** The storefront API's prefix. */
export const STOREFRONT = "/api/v1/business/website";
const AUTH = "/api/v1/customer/auth";

type ProductQuery = NonNullable<paths["/api/v1/business/website/products/"]["get"]["parameters"]["query"]>;
type CategoryQuery = NonNullable<paths["/api/v1/business/website/categories/{category_id}/products/"]["get"]["parameters"]["query"]>;
type OrderQuery = NonNullable<paths["/api/v1/business/website/orders/"]["get"]["parameters"]["query"]>;
type Register = Schemas["Registration"];
type Login = Schemas["Login"];

/** A shopper's tokens (from login, register or refresh). */
export interface Tokens {
  accessToken: string;
  refreshToken: string;
}

/** What the client remembers between calls; persist it with onChange. */
export interface Session {
  tokens: Tokens | null;
  cartToken: string | null;
}

export interface StorefrontOptions {
  /** Where the API is, e.g. "http://127.0.0.1:8080". */
  baseUrl: string;
  /** The store's API key (X-Service-Key). */
  storeKey: string;
  /** A session saved earlier (tokens and guest cart token). */
  session?: Partial<Session>;
  /** Called whenever the tokens or the cart token change. */
  onChange?: (session: Session) => void;
  /** The fetch to use (default: the global fetch). */
  fetch?: (request: Request) => Promise<Response>;
}

/** An error answer of the API: the HTTP status, error_code and the per-field errors. */
export class StorefrontError extends Error {
  readonly status: number;
  readonly code: string;
  readonly errors: Record<string, string>;
  constructor(status: number, body: unknown) {
    const e = isApiError(body) ? body : null;
    super(e?.message ?? `HTTP ${status}`);
    this.name = "StorefrontError";
    this.status = status;
    this.code = e?.error_code ?? "";
    this.errors = e?.errors ?? {};
  }
}

function isApiError(x: unknown): x is ApiError {
  return typeof x === "object" && x !== null && "message" in x && "error_code" in x;
}

type Answer<T> = { data?: { data: T }; error?: unknown; response: Response };

/** unwrap returns the envelope's data, or throws StorefrontError. */
export async function unwrap<T>(call: Promise<Answer<T>>): Promise<T> {
  const r = await call;
  if (r.data === undefined) throw new StorefrontError(r.response.status, r.error);
  return r.data.data;
}

/**
 * full is unwrap for a call sent without fields=: the document types such an
 * answer as anyOf the full schema and the one fields= trims (it cannot tie the
 * answer to the query), and without fields= the server sends every member.
 */
function full<T>(call: Promise<Answer<unknown>>): Promise<T> {
  return unwrap(call) as Promise<T>;
}

/** A list query's items: trimmed when it names fields, else full. */
export type Items<Q, Full, Trimmed> = Q extends { fields: string } ? Trimmed : Full;

/** ok throws StorefrontError unless the call succeeded (for answers whose data is null). */
async function ok(call: Promise<{ error?: unknown; response: Response }>): Promise<void> {
  const r = await call;
  if (!r.response.ok) throw new StorefrontError(r.response.status, r.error);
}

interface Page<T> {
  items: T[];
  next_cursor: string | null;
  has_more: boolean;
}

/** pages walks a cursor-paged list item by item, fetching each page when needed. */
async function* pages<T>(page: (cursor: string | undefined) => Promise<Answer<Page<T>>>): AsyncGenerator<T, void, undefined> {
  let cursor: string | undefined;
  for (;;) {
    const p = await unwrap(page(cursor));
    yield* p.items;
    if (!p.has_more || p.next_cursor === null) return;
    cursor = p.next_cursor;
  }
}

/** A new Idempotency-Key (a random UUID). */
export function idempotencyKey(): string {
  return globalThis.crypto.randomUUID();
}

function isAuthPath(url: string): boolean {
  return new URL(url).pathname.startsWith(AUTH + "/");
}

function isCartPath(url: string): boolean {
  return new URL(url).pathname.startsWith(STOREFRONT + "/cart/");
}

/** createStorefrontClient returns a client for one store. */
export function createStorefrontClient(options: StorefrontOptions): Storefront {
  return new Storefront(options);
}

export class Storefront {
  /** The typed openapi-fetch client, with the key, the tokens and the cart token applied. */
  readonly api: Client<paths>;
  private session: Session;
  private refreshing: Promise<boolean> | null = null;
  private readonly send: (request: Request) => Promise<Response>;
  private readonly onChange: ((session: Session) => void) | undefined;

  constructor(options: StorefrontOptions) {
    this.session = { tokens: options.session?.tokens ?? null, cartToken: options.session?.cartToken ?? null };
    this.onChange = options.onChange;
    this.send = options.fetch ?? ((request) => fetch(request));
    this.api = createClient<paths>({
      baseUrl: options.baseUrl,
      headers: { "X-Service-Key": options.storeKey },
      fetch: (request) => this.fetchWithAuth(request),
    });
  }

  /** The current tokens and guest cart token. */
  get state(): Session {
    return { ...this.session };
  }

  private update(patch: Partial<Session>): void {
    this.session = { ...this.session, ...patch };
    this.onChange?.(this.state);
  }

  /** authorize adds the bearer token (not on the auth routes) and, for a guest, the cart token on cart routes. */
  private authorize(request: Request): Request {
    const r = new Request(request);
    const { tokens, cartToken } = this.session;
    if (tokens && !isAuthPath(r.url) && !r.headers.has("Authorization")) {
      r.headers.set("Authorization", `Bearer ${tokens.accessToken}`);
    }
    if (!tokens && cartToken && isCartPath(r.url) && !r.headers.has("X-Cart-Token")) {
      r.headers.set("X-Cart-Token", cartToken);
    }
    return r;
  }

  /** fetchWithAuth sends a request; on 401 with a refresh token it refreshes (once for all callers) and retries once. */
  private async fetchWithAuth(request: Request): Promise<Response> {
    const retry = request.clone();
    const sentWith = this.session.tokens?.accessToken;
    const first = await this.send(this.authorize(request));
    if (first.status !== 401 || sentWith === undefined || isAuthPath(request.url)) return first;
    if (!(await this.refresh(sentWith))) return first;
    return this.send(this.authorize(retry));
  }

  /**
   * refresh trades the refresh token for new tokens. Concurrent callers share
   * one call; a caller whose token was already replaced does not refresh again.
   * False (and the tokens dropped) when the session is over.
   */
  refresh(staleAccessToken?: string): Promise<boolean> {
    const tokens = this.session.tokens;
    if (!tokens) return Promise.resolve(false);
    if (staleAccessToken !== undefined && tokens.accessToken !== staleAccessToken) return Promise.resolve(true);
    if (!this.refreshing) {
      this.refreshing = this.api
        .POST(`${AUTH}/refresh/`, { body: { refresh_token: tokens.refreshToken } })
        .then((r) => {
          if (r.data === undefined) {
            if (r.response.status === 401) this.update({ tokens: null });
            return false;
          }
          this.update({ tokens: { accessToken: r.data.data.access_token, refreshToken: r.data.data.refresh_token } });
          return true;
        })
        .finally(() => {
          this.refreshing = null;
        });
    }
    return this.refreshing;
  }

  private async signIn(call: Promise<Answer<TokenResult>>): Promise<TokenResult> {
    const t = await unwrap(call);
    // The guest cart (if any) was merged into the shopper's: forget its token.
    this.update({ tokens: { accessToken: t.access_token, refreshToken: t.refresh_token }, cartToken: null });
    return t;
  }

  private cartHeader(): { "X-Cart-Token"?: string } {
    return this.session.cartToken ? { "X-Cart-Token": this.session.cartToken } : {};
  }

  readonly auth = {
    /** Register; a guest cart is merged into the new shopper's cart. */
    register: (body: Register) => this.signIn(this.api.POST(`${AUTH}/register/`, { body, params: { header: this.cartHeader() } })),
    /** Log in; a guest cart is merged into the shopper's cart. */
    login: (body: Login) => this.signIn(this.api.POST(`${AUTH}/login/`, { body, params: { header: this.cartHeader() } })),
    /** Log out: the refresh token is revoked and the tokens forgotten. */
    logout: async (): Promise<void> => {
      const tokens = this.session.tokens;
      this.update({ tokens: null });
      if (!tokens) return;
      const r = await this.api.POST(`${AUTH}/logout/`, { body: { refresh_token: tokens.refreshToken } });
      // 401: the refresh token was already revoked or expired; the session is over either way.
      if (!r.response.ok && r.response.status !== 401) throw new StorefrontError(r.response.status, r.error);
    },
    /** The signed-in shopper's profile. */
    me: () => full<Profile>(this.api.GET("/api/v1/customer/me/")),
  };

  readonly products = {
    /**
     * Every product matching the query, page by page: for await (const p of client.products.list({ sort: "price_asc" })).
     * Items are ProductListItem, or ProductCard when the query names fields.
     */
    list: <Q extends Omit<ProductQuery, "cursor">>(query?: Q) =>
      pages<Items<Q, ProductListItem, ProductCard>>(
        (cursor) => this.api.GET(`${STOREFRONT}/products/`, { params: { query: { ...query, ...(cursor ? { cursor } : {}) } } }) as Promise<Answer<never>>,
      ),
    /** Every product of a category, page by page (items as list's). */
    inCategory: <Q extends Omit<CategoryQuery, "cursor">>(categoryId: number, query?: Q) =>
      pages<Items<Q, ProductListItem, ProductCard>>(
        (cursor) =>
          this.api.GET(`${STOREFRONT}/categories/{category_id}/products/`, {
            params: { path: { category_id: categoryId }, query: { ...query, ...(cursor ? { cursor } : {}) } },
          }) as Promise<Answer<never>>,
      ),
    /** One product by slug, every member. */
    get: (slug: string) => full<Product>(this.api.GET(`${STOREFRONT}/products/{slug}/`, { params: { path: { slug } } })),
  };

  readonly cart = {
    /** Make a guest cart now (add does it when needed) and remember its token. */
    create: async (): Promise<Cart> => {
      const c = await unwrap(this.api.POST(`${STOREFRONT}/cart/`));
      this.update({ cartToken: c.cart_token });
      return c;
    },
    /** The shopper's cart, or the guest cart (an empty one when there is none yet). */
    get: async (): Promise<Cart> => {
      if (!this.session.tokens && !this.session.cartToken) return this.cart.create();
      return unwrap(this.api.GET(`${STOREFRONT}/cart/`));
    },
    /** Add a line; a visitor without tokens gets a guest cart first. */
    add: async (item: CartItemInput): Promise<CartItem> => {
      if (!this.session.tokens && !this.session.cartToken) await this.cart.create();
      return (await unwrap(this.api.POST(`${STOREFRONT}/cart/items/`, { body: item }))).item;
    },
    /** Change a line's quantity. */
    update: async (itemId: number, quantity: number): Promise<CartItem> =>
      (await unwrap(this.api.PATCH(`${STOREFRONT}/cart/items/{item_id}/`, { params: { path: { item_id: itemId } }, body: { quantity } }))).item,
    /** Remove a line. */
    remove: async (itemId: number): Promise<void> => {
      await ok(this.api.DELETE(`${STOREFRONT}/cart/items/{item_id}/`, { params: { path: { item_id: itemId } } }));
    },
  };

  readonly checkout = {
    /**
     * Start a payment. Unless items are given, the cart the server holds is
     * ordered: the signed-in shopper's (from_cart) or the guest's (cart_token).
     * The Idempotency-Key is new per call unless given: pass the same key to
     * retry one checkout safely.
     */
    initiate: (input: Omit<CheckoutInput, "cart_token" | "from_cart">, options: { idempotencyKey?: string } = {}): Promise<CheckoutResult> => {
      const cartToken = this.session.cartToken;
      let body: CheckoutInput = input;
      if (input.items === undefined && this.session.tokens) body = { ...input, from_cart: true };
      else if (input.items === undefined && cartToken) body = { ...input, cart_token: cartToken };
      const key = options.idempotencyKey ?? idempotencyKey();
      return unwrap(this.api.POST(`${STOREFRONT}/payment/initiate/`, { params: { header: { "Idempotency-Key": key } }, body }));
    },
    /** Verify a payment with the parameters the gateway sent back to callback_url. */
    verify: (body: VerifyInput) => unwrap(this.api.POST(`${STOREFRONT}/payment/verify/`, { body })),
  };

  readonly orders = {
    /** The shopper's orders, page by page (trimmed when the query names fields). */
    list: <Q extends Omit<OrderQuery, "cursor">>(query?: Q) =>
      pages<Items<Q, Order, Schemas["OrderFields"]>>(
        (cursor) => this.api.GET(`${STOREFRONT}/orders/`, { params: { query: { ...query, ...(cursor ? { cursor } : {}) } } }) as Promise<Answer<never>>,
      ),
    /** One order, every member. */
    get: (orderId: number) => full<Order>(this.api.GET(`${STOREFRONT}/orders/{order_id}/`, { params: { path: { order_id: orderId } } })),
  };
}
