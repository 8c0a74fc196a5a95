package storage

// Orders are the largest record a checkout writes, and more than half of an
// order's JSON is its field names (350 of 643 bytes for a one-line order).
// They were stored in a short-key form, which is now what an order the
// compact form (order_codec.go) cannot hold is written in: the byte
// shortJSON, then the JSON with each `"name":` of shortNames replaced by one
// byte, 0x01 for the first name, 0x02 for the second and so on.
// encoding/json never writes a byte below 0x20 (it escapes them in strings,
// and writes no white space), so those bytes are free, and the JSON comes
// back byte for byte. Records written before are plain JSON ('{' first) and
// read as they are; Export hands orders on as plain JSON.
const shortJSON = 0x02

// shortNames are the field names with a one-byte code: an order's, then its
// lines'. The codes are in the files: only append (at most 31 names), never
// reorder or remove.
var shortNames = []string{
	"id", "store_id", "customer_id", "status", "payment_status", "payment_method", "payment_session_id",
	"receiver_name", "phone", "address", "email", "items", "subtotal", "discount", "delivery_fee", "total",
	"currency", "coupon_code", "refunded_amount", "callback_url", "test", "tracking_number", "carrier",
	"created_at", "updated_at",
	"product_id", "variant_id", "name", "unit_price", "quantity", "line_total",
}

var shortCodes = func() map[string]byte {
	if len(shortNames) > 0x1f {
		panic("storage: more than 31 short names")
	}
	m := make(map[string]byte, len(shortNames))
	for i, n := range shortNames {
		m[n] = byte(i + 1)
	}
	return m
}()

// shorten returns js in the short-key form, or js itself when it holds a
// byte below 0x20 (JSON not written by encoding/json: kept as it is).
func shorten(js []byte) []byte {
	out := make([]byte, 0, len(js)/2+8)
	out = append(out, shortJSON)
	for i := 0; i < len(js); {
		c := js[i]
		if c < 0x20 {
			return js
		}
		if c != '"' {
			out = append(out, c)
			i++
			continue
		}
		j := i + 1 // the closing quote of this string
		for j < len(js) && js[j] != '"' {
			if js[j] < 0x20 {
				return js
			}
			if js[j] == '\\' {
				j++
			}
			j++
		}
		if j >= len(js) {
			return js
		}
		if j+1 < len(js) && js[j+1] == ':' {
			if code, ok := shortCodes[string(js[i+1:j])]; ok {
				out = append(out, code)
				i = j + 2
				continue
			}
		}
		out = append(out, js[i:j+1]...)
		i = j + 1
	}
	return out
}

// expand returns the JSON of a stored record in either form.
func expand(v []byte) []byte {
	if len(v) == 0 || v[0] != shortJSON {
		return v
	}
	out := make([]byte, 0, 2*len(v)+64)
	for _, c := range v[1:] {
		if c >= 1 && int(c) <= len(shortNames) {
			out = append(out, '"')
			out = append(out, shortNames[c-1]...)
			out = append(out, '"', ':')
			continue
		}
		out = append(out, c)
	}
	return out
}
