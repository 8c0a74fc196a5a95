package panel

import (
	"net/url"
	"regexp"
	"storefront/app"
	"storefront/httpkit/pagekit"
	"strconv"
	"strings"

	"github.com/gofiber/fiber/v2"
)

// listLabels name one entry of a list field as a person counts it: the
// API's "variants[1].attributes" is the panel's "Variant row 2, attributes".
var listLabels = map[string]string{
	"variants":            "Variant row",
	"items":               "Line",
	"allowed_origins":     "Allowed origin",
	"callback_origins":    "Callback origin",
	"notification_emails": "Notification email",
	"delivery_options":    "Delivery option",
	"navigation":          "Navigation row",
	"images":              "Image",
	"tags":                "Tag",
}

var listIndex = regexp.MustCompile(`([A-Za-z_]+)\[(\d+)\]`)

// fieldLabel turns a validation error's field path (the API's errors key,
// 0-based: "items[0].quantity") into the words the panel shows ("Line 1,
// quantity"). Keys without a list index come back as they are.
func fieldLabel(key string) string {
	if !strings.Contains(key, "[") {
		return key
	}
	s := listIndex.ReplaceAllStringFunc(key, func(m string) string {
		sub := listIndex.FindStringSubmatch(m)
		n, err := strconv.Atoi(sub[2])
		if err != nil {
			return m
		}
		label, ok := listLabels[sub[1]]
		if !ok {
			label = strings.ReplaceAll(strings.TrimSuffix(sub[1], "s"), "_", " ")
			label = strings.ToUpper(label[:1]) + label[1:]
		}
		return label + " " + strconv.Itoa(n+1)
	})
	s = strings.ReplaceAll(s, ".", ", ")
	return strings.ReplaceAll(s, "_", " ")
}

// maxPanelForm bounds a form's values, as the server bounds a body (an
// upload's files have their own bounds).
const maxPanelForm = 1 << 20

// rawFields are read as typed, not trimmed.
var rawFields = map[string]bool{"description": true, "excerpt": true, "content": true, "message": true, "domains": true,
	"allowed_origins": true, "callback_origins": true}

// readForm reads the named fields of a urlencoded or multipart form with
// pagekit.DecodeForm: trimmed (a password and rawFields as typed), UTF-8
// text; a value that is not adds its problem to v (when not nil), and shows
// beside its field as the service's do.
func readForm(c *fiber.Ctx, v *app.Validation, names ...string) pagekit.Values {
	fields := make([]pagekit.Field, len(names))
	for i, n := range names {
		fields[i] = pagekit.Field{Name: n, Max: maxPanelForm}
		if strings.Contains(n, "password") {
			fields[i].Type = "password"
		}
		fields[i].Raw = rawFields[n]
	}
	body := c.Body()
	if mf, err := c.MultipartForm(); err == nil {
		body = []byte(url.Values(mf.Value).Encode())
	}
	vals, err := pagekit.DecodeForm(body, maxPanelForm, fields)
	for f, m := range pagekit.ProblemOf(err).Fields {
		if v != nil {
			v.Add(f, m)
		}
	}
	return vals
}

// formOn reads one checkbox or yes/no button of a form (readForm).
func formOn(c *fiber.Ctx, name string) bool { return readForm(c, nil, name).On(name) }
