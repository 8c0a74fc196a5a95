package browser_test

import (
	"fmt"
	"strings"
	"testing"

	"storefront/e2e/browser"
)

// TestSettingsForms: every settings section fits the screen with long text
// in it; a delivery option added in the form reaches the storefront's
// config; the JSON editor says where the JSON is broken.
func TestSettingsForms(t *testing.T) {
	t.Parallel()
	srv := browser.StartServer(t, browser.ServerOptions{})
	st := srv.CreateStore(t, "Settings "+long("S", 90), "settings")
	tok := srv.OwnerToken(t)
	srv.API(t, "PATCH", fmt.Sprintf("/api/v1/admin/stores/%d/config/", st.ID), tok, map[string]any{
		"store":      map[string]string{"description": long("D", 300)},
		"navigation": []map[string]string{{"label": long("L", 100), "url": "https://example.com/" + long("u", 300)}},
	}, 200, nil)
	p := browser.NewPage(t, srv)
	p.LoginOwner()
	base := fmt.Sprintf("/admin/stores/%d/settings/", st.ID)
	for _, s := range []string{"identity", "theme", "navigation", "delivery", "payment-methods", "taxes", "origins", "advanced"} {
		p.Go(base + s + "/")
		p.CheckNoOverflow()
	}

	p.Go(base + "delivery/")
	p.Fill(`input[name=r1_id]`, "express")
	p.Fill(`input[name=r1_name]`, "Express")
	p.Fill(`input[name=r1_fee]`, "abc")
	p.Submit(`form button.primary`, 400)
	if msg := p.Text(`tr.row-err .ferr`); !strings.Contains(msg, "fee") {
		t.Fatalf("row error: got %q", msg)
	}
	p.CheckNoOverflow()
	p.Fill(`input[name=r1_fee]`, "7.50")
	p.Submit(`form button.primary`)
	if msg := p.Text(`.flash`); !strings.Contains(msg, "Settings saved") {
		t.Fatalf("flash: got %q", msg)
	}
	var cfg struct {
		DeliveryOptions []struct{ ID, Name, Fee string } `json:"delivery_options"`
	}
	srv.API(t, "GET", fmt.Sprintf("/api/v1/admin/stores/%d/config/", st.ID), tok, nil, 200, &cfg)
	if len(cfg.DeliveryOptions) != 2 || cfg.DeliveryOptions[1].ID != "express" || cfg.DeliveryOptions[1].Fee != "7.50" {
		t.Fatalf("delivery options: got %+v", cfg.DeliveryOptions)
	}

	p.Go(base + "advanced/")
	if p.Attr(`textarea#config`, "name") != "config" || p.Count(`label[for=config]`) != 1 {
		t.Fatal("the JSON editor has no label")
	}
	p.Fill(`textarea#config`, "{\n  \"template\": \"x\",,\n}")
	p.Submit(`form button.primary`, 400)
	if msg := p.Text(`#config-err`); !strings.Contains(msg, "line 2, column 19") {
		t.Fatalf("JSON error: got %q, want line 2, column 19", msg)
	}
	p.CheckNoOverflow()
}
