package app

import (
	"encoding/json"
	htmltemplate "html/template"
	"maps"
	"regexp"
	"slices"
	"storefront/app/i18n"
	"strings"
	texttemplate "text/template"
)

// Mail kinds: each is one template (subject, HTML body, text body) that a
// store may override.
const (
	MailVerifyCode        = "verify_code"
	MailPasswordReset     = "password_reset"
	MailOrderConfirmation = "order_confirmation"
	MailOrderShipped      = "order_shipped"
	MailOrderDelivered    = "order_delivered"
	MailOrderCancelled    = "order_cancelled"
	MailRequestDecided    = "request_decided"
	MailTicketReply       = "ticket_reply"
	MailOwnerOrderPaid    = "owner_order_paid"
	MailOwnerRequest      = "owner_request"
	MailOwnerTicket       = "owner_ticket"
	MailOwnerContact      = "owner_contact"
	MailOwnerLowStock     = "owner_low_stock"
	MailOwnerWebhookOff   = "owner_webhook_disabled"
	MailOwnerTest         = "owner_test"
)

// MailTemplate is the source of one kind: Go templates over MailData. HTML
// is html/template (escaped), Subject and Text are text/template.
type MailTemplate struct {
	Subject string `json:"subject"`
	HTML    string `json:"html"`
	Text    string `json:"text"`
}

// Brand is what every mail of a store carries: from the store config
// (store.name, store.logo, theme_color, store.url).
type Brand struct {
	Name, LogoURL, Color, URL string
}

// MailData is what templates see. A mail is queued with its MailData (not
// its Store, which is the store's brand when it is rendered), so the JSON
// form must give back what the templates read: TestMailDataRoundTrip.
type MailData struct {
	Store    Brand         `json:"-"`
	Name     string        `json:"name,omitempty"` // greeting name ("" for a guest)
	Code     string        `json:"code,omitempty"` // verify_code, password_reset
	Order    *OrderView    `json:"order,omitempty"`
	Request  *RequestMail  `json:"request,omitempty"`
	Ticket   *TicketMail   `json:"ticket,omitempty"`
	Contact  *ContactView  `json:"contact,omitempty"`
	Product  *ProductMail  `json:"product,omitempty"`
	Endpoint *EndpointMail `json:"endpoint,omitempty"`
	// Cancelled says who cancelled (order_cancelled): "request" (the
	// shopper asked), "store", or "expired" (unpaid in time).
	Cancelled string `json:"cancelled,omitempty"`
	// OrderURL is the absolute address of the order's own signed page in
	// the store's shop (OrderService.OrderURL), in the shopper's mails about
	// an order; "" in the owner's, and when the store has no shop address.
	OrderURL string `json:"order_url,omitempty"`
}

// RequestMail is a cancellation or refund request in a mail.
type RequestMail struct {
	Kind, Status, Reason, Note, Method string
	Amount                             Money
	OrderID                            uint64
	ByStore                            bool // the store refunded on its own initiative: no shopper request
}

// TicketMail is a ticket message in a mail.
type TicketMail struct {
	Number, Subject, Message, From string
}

// ProductMail is a low-stock product in a mail.
type ProductMail struct {
	ID               uint64
	Name             string
	Stock, Threshold int64
}

// EndpointMail is a disabled webhook endpoint in a mail.
type EndpointMail struct{ URL, Reason string }

// DefaultMailTemplates are the built-in templates of every kind.
var DefaultMailTemplates = map[string]MailTemplate{
	// The shopper's mails speak the store's language (mail.* texts of
	// app/i18n: t, tf, tfb (its arguments bold), money); the owner's stay
	// English, like the panel.
	MailVerifyCode: {
		Subject: `{{t "mail.verify.subject"}}`,
		HTML:    `{{template "hello" .}}<p>{{t "mail.verify.code"}} <b style="font-size:22px;letter-spacing:3px">{{.Code}}</b>.</p><p>{{tf "mail.verify.valid" .Store.Name}}</p>`,
		Text:    "{{template \"hello\" .}}\n\n{{t \"mail.verify.code\"}} {{.Code}}.\n\n{{tf \"mail.verify.valid\" .Store.Name}}",
	},
	MailPasswordReset: {
		Subject: `{{t "mail.reset.subject"}}`,
		HTML:    `{{template "hello" .}}<p>{{t "mail.reset.code"}} <b style="font-size:22px;letter-spacing:3px">{{.Code}}</b>.</p><p>{{t "mail.reset.valid"}}</p>`,
		Text:    "{{template \"hello\" .}}\n\n{{t \"mail.reset.code\"}} {{.Code}}.\n\n{{t \"mail.reset.valid\"}}",
	},
	MailOrderConfirmation: {
		Subject: `{{tf "mail.confirmed.subject" .Order.ID}}`,
		HTML:    `{{template "hello" .}}<p>{{tfb "mail.confirmed.body" (printf "#%d" .Order.ID)}}</p>{{template "order" .}}{{template "orderlink" .}}<p><a href="{{.Store.URL}}" style="color:{{.Store.Color}}">{{tf "mail.back" .Store.Name}}</a></p>`,
		Text:    "{{template \"hello\" .}}\n\n{{tf \"mail.confirmed.body\" (printf \"#%d\" .Order.ID)}}\n\n{{template \"order\" .}}{{template \"orderlink\" .}}\n\n{{.Store.URL}}",
	},
	MailOrderShipped: {
		Subject: `{{tf "mail.shipped.subject" .Order.ID}}`,
		HTML:    `{{template "hello" .}}<p>{{tfb "mail.shipped.body" (printf "#%d" .Order.ID) .Order.Fulfillment.Carrier .Order.Fulfillment.TrackingNumber}}</p>{{with .Order.Fulfillment.TrackingURL}}<p><a href="{{.}}" style="color:{{$.Store.Color}}">{{t "mail.shipped.track"}}</a></p>{{end}}{{template "order" .}}{{template "orderlink" .}}<p><a href="{{.Store.URL}}" style="color:{{.Store.Color}}">{{.Store.Name}}</a></p>`,
		Text:    "{{template \"hello\" .}}\n\n{{tf \"mail.shipped.body\" (printf \"#%d\" .Order.ID) .Order.Fulfillment.Carrier .Order.Fulfillment.TrackingNumber}}{{with .Order.Fulfillment.TrackingURL}}\n{{t \"mail.shipped.track\"}}: {{.}}{{end}}\n\n{{template \"order\" .}}{{template \"orderlink\" .}}\n\n{{.Store.URL}}",
	},
	MailOrderDelivered: {
		Subject: `{{tf "mail.delivered.subject" .Order.ID}}`,
		HTML:    `{{template "hello" .}}<p>{{tfb "mail.delivered.body" (printf "#%d" .Order.ID)}}</p><p>{{.Order.ReceiverName}}<br>{{if .Order.Pickup}}{{t "mail.pickup"}}{{else}}{{.Order.Address}}{{end}}</p>{{template "orderlink" .}}<p>{{t "mail.delivered.enjoy"}} <a href="{{.Store.URL}}" style="color:{{.Store.Color}}">{{tf "mail.visit" .Store.Name}}</a></p>`,
		Text:    "{{template \"hello\" .}}\n\n{{tf \"mail.delivered.body\" (printf \"#%d\" .Order.ID)}}\n{{.Order.ReceiverName}}\n{{if .Order.Pickup}}{{t \"mail.pickup\"}}{{else}}{{.Order.Address}}{{end}}{{template \"orderlink\" .}}\n\n{{t \"mail.delivered.enjoy\"}}\n{{.Store.URL}}",
	},
	MailOrderCancelled: {
		Subject: `{{tf "mail.cancelled.subject" .Order.ID}}`,
		HTML:    `{{template "hello" .}}<p>{{tfb (print "mail.cancelled." (cancelledBy .Cancelled)) (printf "#%d" .Order.ID)}}{{if eq .Order.PaymentStatus "REFUNDED"}} {{tf "mail.cancelled.refund" (money .Order.Total .Order.Currency)}}{{end}}</p>{{template "order" .}}{{template "orderlink" .}}<p><a href="{{.Store.URL}}" style="color:{{.Store.Color}}">{{.Store.Name}}</a></p>`,
		Text:    "{{template \"hello\" .}}\n\n{{tf (print \"mail.cancelled.\" (cancelledBy .Cancelled)) (printf \"#%d\" .Order.ID)}}{{if eq .Order.PaymentStatus \"REFUNDED\"}} {{tf \"mail.cancelled.refund\" (money .Order.Total .Order.Currency)}}{{end}}\n\n{{template \"order\" .}}{{template \"orderlink\" .}}\n\n{{.Store.URL}}",
	},
	MailRequestDecided: {
		Subject: `{{if .Request.ByStore}}{{tf "mail.req.refunded.subject" .Request.OrderID}}{{else}}{{tf (print "mail.req." .Request.Kind "." .Request.Status ".subject") .Request.OrderID}}{{end}}`,
		HTML:    `{{template "hello" .}}{{if .Request.ByStore}}<p>{{tfb "mail.req.bystore" (money .Request.Amount .Order.Currency) (printf "#%d" .Request.OrderID) .Request.Method}}</p>{{else}}<p>{{tfb (print "mail.req." .Request.Kind "." .Request.Status) (printf "#%d" .Request.OrderID)}}{{if eq .Request.Status "APPROVED"}} {{if eq .Request.Kind "cancellation"}}{{t "mail.req.cancelled"}}{{else}}{{tf "mail.req.refund" (money .Request.Amount .Order.Currency) .Request.Method}}{{end}}{{end}}</p>{{end}}{{with .Request.Note}}<p>{{tf "mail.req.note" .}}</p>{{end}}{{template "orderlink" .}}`,
		Text:    "{{template \"hello\" .}}\n\n{{if .Request.ByStore}}{{tf \"mail.req.bystore\" (money .Request.Amount .Order.Currency) (printf \"#%d\" .Request.OrderID) .Request.Method}}{{else}}{{tf (print \"mail.req.\" .Request.Kind \".\" .Request.Status) (printf \"#%d\" .Request.OrderID)}}{{if eq .Request.Status \"APPROVED\"}} {{if eq .Request.Kind \"cancellation\"}}{{t \"mail.req.cancelled\"}}{{else}}{{tf \"mail.req.refund\" (money .Request.Amount .Order.Currency) .Request.Method}}{{end}}{{end}}{{end}}{{with .Request.Note}}\n\n{{tf \"mail.req.note\" .}}{{end}}{{template \"orderlink\" .}}",
	},
	MailTicketReply: {
		Subject: `{{tf "mail.ticket.subject" .Ticket.Number}}`,
		HTML:    `{{template "hello" .}}<p>{{tf "mail.ticket.body" .Ticket.Number .Ticket.Subject}}</p><blockquote style="border-left:3px solid {{.Store.Color}};margin:0;padding-left:12px;white-space:pre-wrap">{{.Ticket.Message}}</blockquote>`,
		Text:    "{{template \"hello\" .}}\n\n{{tf \"mail.ticket.body\" .Ticket.Number .Ticket.Subject}}\n\n{{.Ticket.Message}}",
	},
	MailOwnerOrderPaid: {
		Subject: `New paid order #{{.Order.ID}}: {{.Order.Total}} {{.Order.Currency}}`,
		HTML:    `<p>Order <b>#{{.Order.ID}}</b> was paid ({{.Order.PaymentMethod}}).</p>{{template "order" .}}<p>Customer: {{.Order.ReceiverName}} &lt;{{.Order.Email}}&gt;, {{.Order.Phone}}</p>`,
		Text:    "Order #{{.Order.ID}} was paid ({{.Order.PaymentMethod}}).\n\n{{template \"order\" .}}\n\nCustomer: {{.Order.ReceiverName}} <{{.Order.Email}}>, {{.Order.Phone}}",
	},
	MailOwnerRequest: {
		Subject: `New {{.Request.Kind}} request for order #{{.Request.OrderID}}`,
		HTML:    `<p>A shopper asks for a <b>{{.Request.Kind}}</b> of order <b>#{{.Request.OrderID}}</b>{{if eq .Request.Kind "refund"}} ({{.Request.Amount}}){{end}}.</p><p>Reason: {{.Request.Reason}}</p><p>Decide it in the admin panel.</p>`,
		Text:    "A shopper asks for a {{.Request.Kind}} of order #{{.Request.OrderID}}{{if eq .Request.Kind \"refund\"}} ({{.Request.Amount}}){{end}}.\n\nReason: {{.Request.Reason}}\n\nDecide it in the admin panel.",
	},
	MailOwnerTicket: {
		Subject: `{{.Ticket.From}} on ticket {{.Ticket.Number}}: {{.Ticket.Subject}}`,
		HTML:    `<p>{{.Ticket.From}} on ticket <b>{{.Ticket.Number}}</b> ({{.Ticket.Subject}}):</p><blockquote style="border-left:3px solid {{.Store.Color}};margin:0;padding-left:12px;white-space:pre-wrap">{{.Ticket.Message}}</blockquote>`,
		Text:    "{{.Ticket.From}} on ticket {{.Ticket.Number}} ({{.Ticket.Subject}}):\n\n{{.Ticket.Message}}",
	},
	MailOwnerContact: {
		Subject: `Contact form: {{or .Contact.Subject "a message"}} from {{.Contact.Name}}`,
		HTML:    `<p>From {{.Contact.Name}} &lt;{{.Contact.Email}}&gt;{{with .Contact.Phone}}, {{.}}{{end}}</p>{{with .Contact.Subject}}<p><b>{{.}}</b></p>{{end}}<blockquote style="border-left:3px solid {{.Store.Color}};margin:0;padding-left:12px;white-space:pre-wrap">{{.Contact.Message}}</blockquote>`,
		Text:    "From {{.Contact.Name}} <{{.Contact.Email}}>{{with .Contact.Phone}}, {{.}}{{end}}\n{{with .Contact.Subject}}Subject: {{.}}\n{{end}}\n{{.Contact.Message}}",
	},
	MailOwnerLowStock: {
		Subject: `Low stock: {{.Product.Name}} ({{.Product.Stock}} left)`,
		HTML:    `<p><b>{{.Product.Name}}</b> (product {{.Product.ID}}) is down to <b>{{.Product.Stock}}</b>, under its low-stock threshold of {{.Product.Threshold}}.</p>`,
		Text:    "{{.Product.Name}} (product {{.Product.ID}}) is down to {{.Product.Stock}}, under its low-stock threshold of {{.Product.Threshold}}.",
	},
	MailOwnerWebhookOff: {
		Subject: `Webhook endpoint disabled: {{.Endpoint.URL}}`,
		HTML:    `<p>The webhook endpoint <code>{{.Endpoint.URL}}</code> was disabled.</p><p>{{.Endpoint.Reason}}</p><p>Fix the receiver, enable the endpoint again in the admin panel and redeliver what it missed.</p>`,
		Text:    "The webhook endpoint {{.Endpoint.URL}} was disabled.\n\n{{.Endpoint.Reason}}\n\nFix the receiver, enable the endpoint again in the admin panel and redeliver what it missed.",
	},
	MailOwnerTest: {
		Subject: `Test mail from {{.Store.Name}}`,
		HTML:    `<p>This is a test mail: the store's mail settings work.</p>`,
		Text:    "This is a test mail: the store's mail settings work.",
	},
}

// MailKinds lists every kind, sorted.
func MailKinds() []string { return slices.Sorted(maps.Keys(DefaultMailTemplates)) }

// The shared parts: the order table and the layout around every body.
const mailOrderHTML = `{{define "hello"}}<p>{{if .Name}}{{tf "mail.hello.name" .Name}}{{else}}{{t "mail.hello"}}{{end}}</p>{{end}}{{define "order"}}<table role="presentation" width="100%" cellspacing="0" cellpadding="6" style="border-collapse:collapse;font-size:14px;margin:12px 0">
<tr style="background:#f6f7f9"><th align="left">{{t "mail.order.item"}}</th><th align="right">{{t "mail.order.qty"}}</th><th align="right">{{t "mail.order.price"}}</th><th align="right">{{t "mail.order.total"}}</th></tr>
{{range .Order.Items}}<tr><td style="border-top:1px solid #e5e7eb">{{.Name}}</td><td align="right" style="border-top:1px solid #e5e7eb">{{.Quantity}}</td><td align="right" style="border-top:1px solid #e5e7eb">{{money .UnitPrice $.Order.Currency}}</td><td align="right" style="border-top:1px solid #e5e7eb">{{money .LineTotal $.Order.Currency}}</td></tr>
{{end}}<tr><td colspan="3" align="right">{{t "mail.order.subtotal"}}</td><td align="right">{{money .Order.Subtotal .Order.Currency}}</td></tr>
{{if .Order.Discount}}<tr><td colspan="3" align="right">{{t "mail.order.discount"}}{{with .Order.CouponCode}} ({{.}}){{end}}</td><td align="right">-{{money .Order.Discount .Order.Currency}}</td></tr>{{end}}
<tr><td colspan="3" align="right">{{t "mail.order.delivery"}}</td><td align="right">{{money .Order.DeliveryFee .Order.Currency}}</td></tr>
{{range .Order.TaxLines}}<tr><td colspan="3" align="right">{{if $.Order.PricesIncludeTax}}{{tf "mail.order.tax.incl" .Name .Rate}}{{else}}{{tf "mail.order.tax" .Name .Rate}}{{end}}</td><td align="right">{{money .Amount $.Order.Currency}}</td></tr>
{{end}}<tr><td colspan="3" align="right"><b>{{t "mail.order.total"}}</b></td><td align="right"><b>{{money .Order.Total .Order.Currency}}</b></td></tr>
</table>
<p style="font-size:14px"><b>{{t "mail.order.number"}}</b> #{{.Order.ID}}<br>{{with .Order.InvoiceNumber}}<b>{{t "mail.order.invoice"}}</b> {{.}}<br>{{end}}<b>{{if .Order.Pickup}}{{t "mail.order.pickup"}}{{else}}{{t "mail.order.deliverto"}}{{end}}</b> {{.Order.ReceiverName}}{{with .Order.Address}}, {{.}}{{end}}{{with .Order.Phone}}, {{.}}{{end}}</p>{{end}}
{{define "orderlink"}}{{with .OrderURL}}<p><a href="{{.}}" style="color:{{$.Store.Color}}">{{t "mail.orderlink"}}</a></p>{{end}}{{end}}`

const mailOrderText = `{{define "hello"}}{{if .Name}}{{tf "mail.hello.name" .Name}}{{else}}{{t "mail.hello"}}{{end}}{{end}}{{define "order"}}{{t "mail.order.number"}} #{{.Order.ID}}
{{range .Order.Items}}  {{.Quantity}} x {{.Name}} @ {{money .UnitPrice $.Order.Currency}} = {{money .LineTotal $.Order.Currency}}
{{end}}{{t "mail.order.subtotal"}}: {{money .Order.Subtotal .Order.Currency}}
{{if .Order.Discount}}{{t "mail.order.discount"}}{{with .Order.CouponCode}} ({{.}}){{end}}: -{{money .Order.Discount .Order.Currency}}
{{end}}{{t "mail.order.delivery"}}: {{money .Order.DeliveryFee .Order.Currency}}
{{range .Order.TaxLines}}{{if $.Order.PricesIncludeTax}}{{tf "mail.order.tax.incl" .Name .Rate}}{{else}}{{tf "mail.order.tax" .Name .Rate}}{{end}}: {{money .Amount $.Order.Currency}}
{{end}}{{t "mail.order.total"}}: {{money .Order.Total .Order.Currency}}{{with .Order.InvoiceNumber}}
{{t "mail.order.invoice"}} {{.}}{{end}}

{{if .Order.Pickup}}{{t "mail.order.pickup"}}{{else}}{{t "mail.order.deliverto"}}{{end}} {{.Order.ReceiverName}}{{with .Order.Address}}, {{.}}{{end}}{{with .Order.Phone}}, {{.}}{{end}}{{end}}
{{define "orderlink"}}{{with .OrderURL}}

{{t "mail.orderlink"}}: {{.}}{{end}}{{end}}`

const mailLayoutHTML = `<!doctype html>
<html>
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>{{.Subject}}</title></head>
<body style="margin:0;padding:24px;background:#f6f7f9;font-family:-apple-system,Segoe UI,Helvetica,Arial,sans-serif;color:#1f2328">
<table role="presentation" width="100%" cellspacing="0" cellpadding="0"><tr><td align="center">
<table role="presentation" width="560" cellspacing="0" cellpadding="0" style="background:#ffffff;border-radius:8px;border-top:4px solid {{.Data.Store.Color}}">
<tr><td style="padding:24px 24px 8px 24px;font-size:18px;font-weight:600">{{if .Data.Store.LogoURL}}<img src="{{.Data.Store.LogoURL}}" alt="{{.Data.Store.Name}}" height="40" style="display:block;height:40px;border:0;margin-bottom:8px">{{end}}{{.Data.Store.Name}}</td></tr>
<tr><td style="padding:8px 24px;font-size:15px;line-height:1.5">{{.Body}}</td></tr>
<tr><td style="padding:12px 24px 24px 24px;font-size:13px;color:#57606a">&mdash; {{if .Data.Store.URL}}<a href="{{.Data.Store.URL}}" style="color:{{.Data.Store.Color}}">{{.Data.Store.Name}}</a>{{else}}{{.Data.Store.Name}}{{end}}</td></tr>
</table>
</td></tr></table>
</body>
</html>`

var (
	mailLayout = htmltemplate.Must(htmltemplate.New("layout").Parse(mailLayoutHTML))
	// defaultMailParts are the built-in templates by language and kind.
	defaultMailParts = mustParseDefaults()
)

type parsedMail struct {
	subject *texttemplate.Template
	html    *htmltemplate.Template
	text    *texttemplate.Template
}

// Built-in templates are parsed once per language: a broken one fails at
// start-up.
func mustParseDefaults() map[string]map[string]*parsedMail {
	out := map[string]map[string]*parsedMail{}
	for _, lang := range Locales {
		out[lang] = map[string]*parsedMail{}
		for k, t := range DefaultMailTemplates {
			p, err := parseMailTemplate(t, mailLang(lang, k))
			if err != nil {
				panic("mail template " + k + ": " + err.Error())
			}
			out[lang][k] = p
		}
	}
	return out
}

// parseMailTemplate parses t with the functions of language lang.
func parseMailTemplate(t MailTemplate, lang string) (*parsedMail, error) {
	var p parsedMail
	var err error
	mailFuncs := mailFuncsOf(lang)
	if p.subject, err = texttemplate.New("subject").Funcs(mailFuncs).Option("missingkey=error").Parse(t.Subject); err != nil {
		return nil, Invalid("subject", err.Error())
	}
	if p.html, err = htmltemplate.New("html").Funcs(mailFuncs).Option("missingkey=error").Parse(mailOrderHTML); err == nil {
		_, err = p.html.Parse(t.HTML)
	}
	if err != nil {
		return nil, Invalid("html", err.Error())
	}
	if p.text, err = texttemplate.New("text").Funcs(mailFuncs).Option("missingkey=error").Parse(mailOrderText); err == nil {
		_, err = p.text.Parse(t.Text)
	}
	if err != nil {
		return nil, Invalid("text", err.Error())
	}
	return &p, nil
}

var scriptRE = regexp.MustCompile(`(?i)<\s*(script|iframe|object|embed|form)\b|\bon[a-z]+\s*=|javascript:`)

// CheckMailTemplate parses t and renders it with sample data of kind: the
// check a store override passes on save. Errors: validation_failed.
func CheckMailTemplate(kind string, t MailTemplate) error {
	if _, ok := DefaultMailTemplates[kind]; !ok {
		return Invalid("kind", "unknown mail kind")
	}
	var v Validation
	v.Text("subject", t.Subject, true, 300)
	v.Text("html", t.HTML, true, 50000)
	v.Text("text", t.Text, true, 50000)
	v.Check(!scriptRE.MatchString(t.HTML), "html", "must not contain scripts, event handlers, forms or embedded objects")
	if err := v.Err(); err != nil {
		return err
	}
	p, err := parseMailTemplate(t, "en")
	if err != nil {
		return err
	}
	_, err = p.render(SampleMailData(kind, Brand{Name: "Sample Shop", Color: "#1f6feb", URL: "https://shop.example"}))
	return err
}

type renderedMail struct{ Subject, HTML, Text string }

func (p *parsedMail) render(d MailData) (renderedMail, error) {
	var subj, body, text strings.Builder
	if err := p.subject.Execute(&subj, d); err != nil {
		return renderedMail{}, Invalid("subject", err.Error())
	}
	if err := p.html.ExecuteTemplate(&body, "html", d); err != nil {
		return renderedMail{}, Invalid("html", err.Error())
	}
	if err := p.text.ExecuteTemplate(&text, "text", d); err != nil {
		return renderedMail{}, Invalid("text", err.Error())
	}
	subject := oneLine(subj.String())
	var html strings.Builder
	err := mailLayout.Execute(&html, struct {
		Subject string
		Body    htmltemplate.HTML
		Data    MailData
	}{subject, htmltemplate.HTML(body.String()), d}) // body is html/template output: escaped already
	if err != nil {
		return renderedMail{}, err
	}
	t := strings.TrimRight(text.String(), "\n") + "\n\n-- \n" + d.Store.Name
	if d.Store.URL != "" {
		t += "\n" + d.Store.URL
	}
	return renderedMail{Subject: "[" + oneLine(d.Store.Name) + "] " + subject, HTML: html.String(), Text: t + "\n"}, nil
}

// BrandOf reads a store's branding from its config; url falls back to
// publicURL.
func BrandOf(st *Store, publicURL string) Brand {
	var cfg struct {
		ThemeColor string            `json:"theme_color"`
		Store      map[string]string `json:"store"`
	}
	_ = json.Unmarshal(st.Config, &cfg)
	b := Brand{Name: st.Name, LogoURL: cfg.Store["logo"], Color: cfg.ThemeColor, URL: cfg.Store["url"]}
	if n := strings.TrimSpace(cfg.Store["name"]); n != "" {
		b.Name = n
	}
	if !colorRE.MatchString(b.Color) {
		b.Color = "#1f6feb"
	}
	if !strings.HasPrefix(b.LogoURL, "https://") && !strings.HasPrefix(b.LogoURL, "http://") {
		b.LogoURL = ""
	}
	if !strings.HasPrefix(b.URL, "https://") && !strings.HasPrefix(b.URL, "http://") {
		b.URL = publicURL
	}
	return b
}

var colorRE = regexp.MustCompile(`^#[0-9a-fA-F]{3}([0-9a-fA-F]{3})?$`)

// RenderMail composes a mail of kind to to, with the store's override of the
// kind when it has a valid one, else the built-in template.
func RenderMail(st *Store, kind, to string, d MailData) (Mail, error) {
	lang := mailLang(st.Settings().Lang(), kind)
	p := defaultMailParts[lang][kind]
	if p == nil {
		return Mail{}, Errorf(EInternal, "unknown mail kind %q", kind)
	}
	if o, ok := st.MailTemplates[kind]; ok {
		if po, err := parseMailTemplate(o, lang); err == nil {
			if r, err := po.render(d); err == nil {
				return testMarked(Mail{StoreID: st.ID, Kind: kind, To: oneLine(to), Subject: r.Subject, Text: r.Text, HTML: r.HTML}, d, lang), nil
			}
		}
	}
	r, err := p.render(d)
	if err != nil {
		return Mail{}, err
	}
	return testMarked(Mail{StoreID: st.ID, Kind: kind, To: oneLine(to), Subject: r.Subject, Text: r.Text, HTML: r.HTML}, d, lang), nil
}

// testMarked marks a mail about a test order: "[TEST] " in its subject
// (after the store's "[Name] ") and a note above its body, whatever its
// template ("TEST ORDER: this was a test payment; no money moved.", in the
// mail's language).
func testMarked(m Mail, d MailData, lang string) Mail {
	if d.Order == nil || !d.Order.Test {
		return m
	}
	i := 0
	if j := strings.Index(m.Subject, "] "); strings.HasPrefix(m.Subject, "[") && j > 0 {
		i = j + 2
	}
	m.Subject = m.Subject[:i] + "[TEST] " + m.Subject[i:]
	note := i18n.Builtin().For(lang).T("mail.test")
	m.Text = note + "\n\n" + m.Text
	m.HTML = `<p style="background:#fff3cd;color:#664d03;padding:8px;font-weight:bold">` + htmltemplate.HTMLEscapeString(note) + "</p>" + m.HTML
	return m
}

// SampleMailData is the data previews and template checks render with.
func SampleMailData(kind string, b Brand) MailData {
	v := uint64(7)
	o := &OrderView{ID: 1042, Status: OrderConfirmed, PaymentStatus: PaymentPaid, PaymentMethod: WalletA, ReceiverName: "Ann Example",
		Phone: "+1 555 0100", Address: "1 Main Street, Springfield", Email: "ann@example.com", Currency: "USD",
		Items: []OrderItemView{{ProductID: 3, Name: "Blue mug", UnitPrice: 1250, Quantity: 2, LineTotal: 2500},
			{ProductID: 5, VariantID: &v, Name: "T-shirt (M)", UnitPrice: 1999, Quantity: 1, LineTotal: 1999}},
		Subtotal: 4499, DeliveryFee: 500, Total: 4999,
		OrderTaxView: OrderTaxView{TaxLines: []TaxLine{}, CreditNotes: []CreditNote{}}}
	d := MailData{Store: b, Name: "Ann", Code: "123456", Order: o, Cancelled: "store",
		Request:  &RequestMail{Kind: "refund", Status: RequestApproved, Reason: "Arrived broken", Note: "Sorry about that.", Method: "original method", Amount: 1250, OrderID: o.ID},
		Ticket:   &TicketMail{Number: "TKT-000012", Subject: "Where is my parcel?", Message: "It left our warehouse today.", From: "Ann Example"},
		Contact:  &ContactView{Name: "Bo Example", Email: "bo@example.com", Subject: "Wholesale", Message: "Do you sell in bulk?", Metadata: map[string]string{}},
		Product:  &ProductMail{ID: 3, Name: "Blue mug", Stock: 2, Threshold: 5},
		Endpoint: &EndpointMail{URL: "https://hooks.example/storefront", Reason: "disabled automatically: every delivery failed for 60h0m0s; last error: HTTP 500"},
	}
	if b.URL != "" {
		d.OrderURL = strings.TrimSuffix(b.URL, "/") + "/orders/1042-SampleSignature/"
	}
	_ = kind
	return d
}

// MailTemplateView is one kind as the admin sees it: the template in force
// and whether the store overrides the built-in one.
type MailTemplateView struct {
	Kind       string `json:"kind"`
	Subject    string `json:"subject"`
	HTML       string `json:"html"`
	Text       string `json:"text"`
	Overridden bool   `json:"overridden"`
}

// MailTemplates lists every kind of a store.
func (st *Store) MailTemplateViews() []MailTemplateView {
	out := []MailTemplateView{}
	for _, k := range MailKinds() {
		out = append(out, st.MailTemplateView(k))
	}
	return out
}

// MailTemplateView returns one kind of a store (built-in when not overridden).
func (st *Store) MailTemplateView(kind string) MailTemplateView {
	t, over := st.MailTemplates[kind]
	if !over {
		t = DefaultMailTemplates[kind]
	}
	return MailTemplateView{Kind: kind, Subject: t.Subject, HTML: t.HTML, Text: t.Text, Overridden: over}
}

// SetMailTemplate overrides (t non-nil) or restores (nil) a kind's template,
// after checking that it parses and renders sample data.
// Errors: validation_failed, not_found.
func (ss *StoreService) SetMailTemplate(id uint64, kind string, t *MailTemplate) (*Store, error) {
	if _, ok := DefaultMailTemplates[kind]; !ok {
		return nil, NotFound("mail template")
	}
	if t != nil {
		if err := CheckMailTemplate(kind, *t); err != nil {
			return nil, err
		}
	}
	return ss.update(id, nil, func(st *Store) error {
		if t == nil {
			delete(st.MailTemplates, kind)
			return nil
		}
		if st.MailTemplates == nil {
			st.MailTemplates = map[string]MailTemplate{}
		}
		st.MailTemplates[kind] = *t
		return nil
	})
}

// PreviewMail renders a kind for st with sample data (the override when
// there is one). draft, when non-nil, is rendered instead (the panel's
// preview before save). Errors: not_found, validation_failed.
func (s *Services) PreviewMail(st *Store, kind string, draft *MailTemplate) (Mail, error) {
	if _, ok := DefaultMailTemplates[kind]; !ok {
		return Mail{}, NotFound("mail template")
	}
	d := SampleMailData(kind, BrandOf(st, s.Opt.PublicURL))
	if draft != nil {
		if err := CheckMailTemplate(kind, *draft); err != nil {
			return Mail{}, err
		}
		tmp := *st
		tmp.MailTemplates = map[string]MailTemplate{kind: *draft}
		return RenderMail(&tmp, kind, "", d)
	}
	return RenderMail(st, kind, "", d)
}

// TestMail renders a kind with sample data and queues it to to (the admin
// who asked). Errors: not_found, validation_failed.
func (s *Services) TestMail(st *Store, kind, to string) (*Mail, error) {
	m, err := s.PreviewMail(st, kind, nil)
	if err != nil {
		return nil, err
	}
	m.To, m.Subject = to, "[Test] "+m.Subject
	err = s.DB.Update(func(tx Tx) error { return queueMail(tx, &m) })
	if err != nil {
		return nil, err
	}
	s.Kick()
	return &m, nil
}
