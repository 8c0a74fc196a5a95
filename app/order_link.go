package app

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"strconv"
	"strings"
)

// An order's own page for its buyer, signed in or not (issue 36.6): the
// link /orders/{id}-{signature}/ names the order and proves it was given by
// the shop (the thank-you page, the order mails). The signature is an
// HMAC-SHA-256 of the store and the order with the database's
// "order_links" secret (made once, stored in the database, the same for
// every binary of a cluster); 128 bits of it, unguessable. The link does not
// expire: it shows the order, and offers the requests its state allows, for
// as long as the order exists (docs/decisions.md "The order's own page").

// orderLinkSigBytes is how many bytes of the HMAC a link carries.
const orderLinkSigBytes = 16

// OrderLinkToken returns the token of an order's page: "{id}-{signature}".
func (os *OrderService) OrderLinkToken(storeID, orderID uint64) (string, error) {
	key, err := os.loadLinkKey()
	if err != nil {
		return "", err
	}
	return orderLinkToken(key, storeID, orderID), nil
}

// OrderByLink returns the order a token of OrderLinkToken names. Errors:
// not_found for a token that is malformed, signed for another order or
// store, or whose order does not exist.
func (os *OrderService) OrderByLink(storeID uint64, token string) (*Order, error) {
	ids, sigText, ok := strings.Cut(token, "-")
	id, err := strconv.ParseUint(ids, 10, 64)
	got, derr := base64.RawURLEncoding.DecodeString(sigText)
	if !ok || err != nil || id == 0 || derr != nil || len(got) != orderLinkSigBytes {
		return nil, NotFound("order")
	}
	want, err := os.orderLinkSig(storeID, id)
	if err != nil {
		return nil, err
	}
	if !hmac.Equal(got, want) {
		return nil, NotFound("order")
	}
	return os.Order(storeID, id)
}

// OrderURL is the absolute address of an order's own page in st's shop
// window (ShopHost.URL), for the shopper's mails: "" when no shop runs, st
// has no shop address, or the key is not read yet. It is called inside
// write transactions, so it never reads the database: the key is read when
// the shop starts (SetShopHost).
func (os *OrderService) OrderURL(st *Store, orderID uint64) string {
	h, key := os.shop.Load(), os.linkKey.Load()
	if h == nil || key == nil {
		return ""
	}
	base := h.URL(st, os.s.Opt.PublicURL)
	if base == "" {
		return ""
	}
	return base + "orders/" + orderLinkToken(*key, st.ID, orderID) + "/"
}

// loadLinkKey reads the "order_links" secret into os (outside any
// transaction: on bbolt, Secret may write).
func (os *OrderService) loadLinkKey() ([]byte, error) {
	if k := os.linkKey.Load(); k != nil {
		return *k, nil
	}
	secret, err := os.s.DB.Secret("order_links")
	if err != nil {
		return nil, err
	}
	os.linkKey.Store(&secret)
	return secret, nil
}

func orderLinkToken(key []byte, storeID, orderID uint64) string {
	return strconv.FormatUint(orderID, 10) + "-" + base64.RawURLEncoding.EncodeToString(orderLinkMAC(key, storeID, orderID))
}

func (os *OrderService) orderLinkSig(storeID, orderID uint64) ([]byte, error) {
	secret, err := os.loadLinkKey()
	if err != nil {
		return nil, err
	}
	return orderLinkMAC(secret, storeID, orderID), nil
}

func orderLinkMAC(secret []byte, storeID, orderID uint64) []byte {
	m := hmac.New(sha256.New, secret)
	var b [16]byte
	binary.BigEndian.PutUint64(b[:8], storeID)
	binary.BigEndian.PutUint64(b[8:], orderID)
	m.Write(b[:])
	return m.Sum(nil)[:orderLinkSigBytes]
}
