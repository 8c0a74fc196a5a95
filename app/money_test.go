package app_test

import (
	"encoding/json"
	"testing"

	"storefront/app"
)

func TestMoneyJSON(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want app.Money
		ok   bool
	}{
		{`"12.50"`, 1250, true}, {`12.5`, 1250, true}, {`12`, 1200, true}, {`"0.01"`, 1, true},
		{`"-3.00"`, -300, true}, {`"1.234"`, 0, false}, {`"abc"`, 0, false}, {`"1e3"`, 0, false},
		{`""`, 0, false}, {`"1."`, 0, false}, {`".5"`, 0, false}, {`"99999999999999"`, 0, false},
	} {
		var m app.Money
		err := json.Unmarshal([]byte(tc.in), &m)
		if (err == nil) != tc.ok || (tc.ok && m != tc.want) {
			t.Errorf("%s: got %v, %v; want %v ok=%v", tc.in, m, err, tc.want, tc.ok)
		}
	}
	b, _ := json.Marshal(app.Money(125005))
	if string(b) != `"1250.05"` {
		t.Fatalf("got %s, want \"1250.05\"", b)
	}
	x := app.Money(1200)
	b, _ = json.Marshal(struct {
		A app.Money
		B *app.Money
		C []app.Money
	}{-5, &x, []app.Money{0, 99}})
	if string(b) != `{"A":"-0.05","B":"12.00","C":["0.00","0.99"]}` {
		t.Fatalf("got %s", b)
	}
	if s := app.Money(-5).String(); s != "-0.05" {
		t.Fatalf("got %s, want -0.05", s)
	}
}

func FuzzParseMoney(f *testing.F) {
	for _, s := range []string{"1", "1.5", "12.50", "-0.01", "abc", "1e9", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		m, err := app.ParseMoney(s)
		if err != nil {
			return
		}
		back, err := app.ParseMoney(m.String())
		if err != nil || back != m {
			t.Fatalf("%q -> %v -> %q -> %v, %v", s, m, m.String(), back, err)
		}
	})
}

func TestDivRoundHalfUp(t *testing.T) {
	for _, c := range []struct {
		a, b int64
		want app.Money
	}{
		{290000, 23, 12609}, // 2900.00/23 = 126.0869...: 126.09, not the truncated 126.08
		{100, 3, 33}, {200, 3, 67}, {5, 2, 3}, {15, 10, 2}, {14, 10, 1}, {0, 7, 0},
		{-5, 2, -3}, {-200, 3, -67}, {5, -2, -3}, {1999 * 1250, 10000, 250}, // 12.50 % of 19.99 = 2.49875: 2.50
	} {
		if got := app.DivRound(c.a, c.b); got != c.want {
			t.Errorf("DivRound(%d, %d) = %d, want %d", c.a, c.b, got, c.want)
		}
	}
	p := app.Period{Gross: 290000, Orders: 23}
	if got := p.AverageOrder().String(); got != "126.09" {
		t.Fatalf("average of 2900.00 over 23 orders: got %s, want 126.09", got)
	}
}
