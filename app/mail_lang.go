package app

import (
	"fmt"
	htmltemplate "html/template"
	"strings"

	"storefront/app/i18n"
)

// A shopper's mail speaks the store's language (Settings.Lang): its
// templates call t, tf and tfb for the mail.* texts of app/i18n and money
// for amounts (the locale's format), bound per language when a template is
// parsed. The owner's mails stay English, as the panel is.

// ownerMailKinds are the kinds sent to the store's staff.
var ownerMailKinds = map[string]bool{MailOwnerOrderPaid: true, MailOwnerRequest: true, MailOwnerTicket: true,
	MailOwnerContact: true, MailOwnerLowStock: true, MailOwnerWebhookOff: true, MailOwnerTest: true}

// mailLang is the language of a mail of kind from a store of language lang.
func mailLang(lang, kind string) string {
	if ownerMailKinds[kind] {
		return "en"
	}
	return lang
}

// mailFuncsOf are the template functions of a mail in lang.
func mailFuncsOf(lang string) map[string]any {
	l := i18n.Builtin().For(lang)
	return map[string]any{
		"lower": strings.ToLower,
		"t":     l.T,
		"tf":    l.TF,
		// tfb is tf with its arguments bold (html): the order number of a sentence
		"tfb": func(key string, args ...any) htmltemplate.HTML {
			bold := make([]any, len(args))
			for i, a := range args {
				bold[i] = "<b>" + htmltemplate.HTMLEscapeString(fmt.Sprint(a)) + "</b>"
			}
			return htmltemplate.HTML(fmt.Sprintf(htmltemplate.HTMLEscapeString(l.Format(key, args...)), bold...))
		},
		"money": func(m Money, currency string) string { return l.Money(int64(m), currency) },
		// cancelledBy names who cancelled an order: request, expired or store
		"cancelledBy": func(by string) string {
			if by == "request" || by == "expired" {
				return by
			}
			return "store"
		},
	}
}
