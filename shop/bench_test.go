package shop_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/valyala/fasthttp"

	"storefront/app"
	"storefront/shop"
)

// BenchmarkPages serves shop pages in memory (no network), beside the API
// routes they are compared with in make bench (bench/loadbench).
func BenchmarkPages(b *testing.B) {
	e := newEnv(b, shop.Config{})
	id, key := e.Store("Acme")
	cat := e.Category(id, "Tools")
	for i := 0; i < 24; i++ {
		e.Product(id, cat.ID, fmt.Sprintf("Product %02d", i), app.Money(1000+i), 5)
	}
	h := e.App.Handler()
	for _, tc := range []struct{ name, path, key string }{
		{"home", "/", ""},
		{"product", "/products/product-01/", ""},
		// as a browser asks: gzip (the product page has a form: its token
		// goes between parts compressed once, pagekit.Zipped)
		{"product_gzip", "/products/product-01/", ""},
		{"category", fmt.Sprintf("/categories/%d/tools/", cat.ID), ""},
		{"api_detail", "/api/v1/business/website/products/product-01/", key},
		{"api_config", "/api/v1/business/website/config/", key},
	} {
		b.Run(tc.name, func(b *testing.B) {
			var ctx fasthttp.RequestCtx
			ctx.Request.Header.SetMethod("GET")
			ctx.Request.SetRequestURI(tc.path)
			ctx.Request.Header.SetHost(hostOf("Acme"))
			if tc.key != "" {
				ctx.Request.Header.Set("X-Service-Key", tc.key)
			}
			if strings.HasSuffix(tc.name, "_gzip") {
				ctx.Request.Header.Set("Accept-Encoding", "gzip, deflate, br")
			}
			h(&ctx)
			if st := ctx.Response.StatusCode(); st != 200 {
				b.Fatalf("%s: %d", tc.path, st)
			}
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				ctx.Response.Reset()
				h(&ctx)
			}
		})
	}
}
