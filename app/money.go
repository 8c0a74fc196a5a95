package app

import (
	"bytes"
	"math"
	"strconv"
	"strings"
)

// Money is an amount in integer minor units (cents). On the wire it is a
// decimal string with two decimals ("1250.00"); decoding also accepts a JSON
// number with at most two decimals.
type Money int64

// MaxMoney bounds any single amount, far from int64 overflow even when summed.
const MaxMoney Money = 1_000_000_000_00 // one billion units

// String formats m as "1250.00".
func (m Money) String() string {
	return string(m.Append(nil))
}

// Append appends the wire form of m to b.
func (m Money) Append(b []byte) []byte {
	v := int64(m)
	if v < 0 {
		b = append(b, '-')
		v = -v
	}
	b = strconv.AppendInt(b, v/100, 10)
	b = append(b, '.', byte('0'+v%100/10), byte('0'+v%10))
	return b
}

// MarshalText is m's wire form; encoding/json writes it as a JSON string
// ("1250.00"). Text rather than MarshalJSON: json checks and compacts what a
// MarshalJSON returns, which cost more than the formatting (every amount of
// every response and stored record).
func (m Money) MarshalText() ([]byte, error) {
	return m.Append(make([]byte, 0, 16)), nil
}

// UnmarshalJSON accepts "12.50", "12.5", "12", 12.5 or 12.
func (m *Money) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if len(b) >= 2 && b[0] == '"' && b[len(b)-1] == '"' {
		b = b[1 : len(b)-1]
	}
	v, err := ParseMoney(string(b))
	if err != nil {
		return err
	}
	*m = v
	return nil
}

// ParseMoney parses a decimal amount with at most two decimals.
func ParseMoney(s string) (Money, error) {
	bad := &Error{Code: EValidation, Message: "invalid amount: want a decimal with at most two decimals"}
	s = strings.TrimSpace(s)
	neg := strings.HasPrefix(s, "-")
	if neg {
		s = s[1:]
	}
	whole, frac, hasDot := strings.Cut(s, ".")
	if whole == "" || len(whole) > 12 || (hasDot && (len(frac) == 0 || len(frac) > 2)) {
		return 0, bad
	}
	for _, r := range whole + frac {
		if r < '0' || r > '9' {
			return 0, bad
		}
	}
	w, err := strconv.ParseInt(whole, 10, 64)
	if err != nil {
		return 0, bad
	}
	for len(frac) < 2 {
		frac += "0"
	}
	f, _ := strconv.ParseInt(frac, 10, 64)
	v := w*100 + f
	if v > int64(MaxMoney) || v > math.MaxInt64/4 {
		return 0, bad
	}
	if neg {
		v = -v
	}
	return Money(v), nil
}

// DivRound is a/b rounded half-up to the cent (halves away from zero), the
// one way the shop divides money (an average, a share): integer division
// alone truncates (2900.00/23 is 126.086..., shown 126.09, not 126.08).
// b must not be 0.
func DivRound(a, b int64) Money {
	if b < 0 {
		a, b = -a, -b
	}
	q, r := a/b, a%b
	if r < 0 {
		r = -r
	}
	if 2*r >= b {
		if a < 0 {
			q--
		} else {
			q++
		}
	}
	return Money(q)
}
