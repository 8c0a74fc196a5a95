package panel

import (
	"regexp"
	"strconv"
	"strings"
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
