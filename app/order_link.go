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
// "order_links" secret, so every binary of a cluster checks it alike; 128
// bits of it, unguessable. The link does not expire: it shows the order for
// as long as the order exists.

// orderLinkSigBytes is how many bytes of the HMAC a link carries.
const orderLinkSigBytes = 16

// OrderLinkToken returns the token of an order's page: "{id}-{signature}".
func (os *OrderService) OrderLinkToken(storeID, orderID uint64) (string, error) {
	sig, err := os.orderLinkSig(storeID, orderID)
	if err != nil {
		return "", err
	}
	return strconv.FormatUint(orderID, 10) + "-" + base64.RawURLEncoding.EncodeToString(sig), nil
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

func (os *OrderService) orderLinkSig(storeID, orderID uint64) ([]byte, error) {
	secret, err := os.s.DB.Secret("order_links")
	if err != nil {
		return nil, err
	}
	m := hmac.New(sha256.New, secret)
	var b [16]byte
	binary.BigEndian.PutUint64(b[:8], storeID)
	binary.BigEndian.PutUint64(b[8:], orderID)
	m.Write(b[:])
	return m.Sum(nil)[:orderLinkSigBytes], nil
}
