package shop_test

import (
	"strings"
	"testing"

	"storefront/shop"
)

// FuzzCartCookie: any cookie text decodes to a bounded cart or to nothing,
// never a panic, and a decoded cart survives its own encoding.
func FuzzCartCookie(f *testing.F) {
	for _, s := range []string{"1~1-0-1~~", "1~1-0-2_2-7-1~U0FWRTEw~42", "1~~~", "", "1~1-0-0~~", "1~1-0-1_1-0-1~~",
		"2~1-0-1~~", "1~18446744073709551615-0-1000~~", "1~1-0-1~!!~", strings.Repeat("1-0-1_", 200)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, v string) {
		n, ok := shop.DecodeCart(v)
		if ok && (n > 100 || len(v) > 3000) {
			t.Fatalf("%d lines from %d bytes accepted", n, len(v))
		}
	})
}

// FuzzCartForm and FuzzCheckoutForm: any body is a form or a validation
// error, never a panic.
func FuzzCartForm(f *testing.F) {
	for _, s := range []string{"product_id=1&variant_id=&quantity=2", "product_id=x", "quantity=-1", "%zz", "product_id=1&quantity=99999999999999999999"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) { _ = shop.DecodeCartForm(body) })
}

func FuzzCheckoutForm(f *testing.F) {
	for _, s := range []string{"email=a%40b.c&receiver_name=A&phone=1&address=x&payment_method=WALLET_A&idempotency_key=00",
		"address=" + strings.Repeat("x", 600), "%zz", "email=%ff%fe"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) { _ = shop.DecodeCheckoutForm(body) })
}
