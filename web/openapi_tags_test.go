package web_test

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"
)

// tagGroups is the order /docs shows the operations in: the storefront first.
var tagGroups = []string{"Storefront", "Admin", "Operations"}

// tagName is the one naming style of tags: a capitalised noun phrase, with
// "Admin: " before the admin API's groups.
var tagName = regexp.MustCompile(`^(Admin: )?[A-Z][a-z]+( [a-z]+)*$`)

// TestOpenAPITags: every operation has exactly one tag, listed in the
// document's tags; every listed tag is in exactly one x-tagGroups group, the
// groups are Storefront, Admin, Operations in that order, and the tags list
// follows the groups' order; admin paths carry "Admin: " tags and storefront
// paths never do.
func TestOpenAPITags(t *testing.T) {
	t.Parallel()
	doc, tree := loadDoc(t)
	var top struct {
		Tags []struct {
			Name        string `json:"name"`
			Description string `json:"description"`
		} `json:"tags"`
		Groups []struct {
			Name string   `json:"name"`
			Tags []string `json:"tags"`
		} `json:"x-tagGroups"`
	}
	raw, _ := json.Marshal(tree)
	if err := json.Unmarshal(raw, &top); err != nil {
		t.Fatal(err)
	}
	listed := map[string]int{}
	for i, tag := range top.Tags {
		if _, dup := listed[tag.Name]; dup {
			t.Errorf("tag %q listed twice", tag.Name)
		}
		listed[tag.Name] = i
		if !tagName.MatchString(tag.Name) {
			t.Errorf("tag %q: want a capitalised noun phrase, with an \"Admin: \" prefix for the admin API", tag.Name)
		}
		if tag.Description == "" {
			t.Errorf("tag %q has no description", tag.Name)
		}
	}
	var order []string
	inGroup := map[string]string{}
	for i, g := range top.Groups {
		if i >= len(tagGroups) || g.Name != tagGroups[i] {
			t.Errorf("x-tagGroups[%d] is %q, want the groups %v in that order", i, g.Name, tagGroups)
		}
		for _, name := range g.Tags {
			if _, ok := listed[name]; !ok {
				t.Errorf("group %q names tag %q, which the tags list lacks", g.Name, name)
			}
			if other, ok := inGroup[name]; ok {
				t.Errorf("tag %q is in groups %q and %q", name, other, g.Name)
			}
			inGroup[name] = g.Name
			order = append(order, name)
		}
	}
	if len(top.Groups) != len(tagGroups) {
		t.Errorf("got %d tag groups, want %d", len(top.Groups), len(tagGroups))
	}
	for i, tag := range top.Tags {
		if inGroup[tag.Name] == "" {
			t.Errorf("tag %q is in no x-tagGroups group", tag.Name)
		} else if i < len(order) && order[i] != tag.Name {
			t.Errorf("tags[%d] is %q, want %q (the tags list follows the groups)", i, tag.Name, order[i])
		}
	}
	used := map[string]bool{}
	eachOperation(t, doc, func(method, path string, op operation) {
		where := method + " " + path
		if len(op.Tags) != 1 {
			t.Errorf("%s: got tags %q, want exactly one", where, op.Tags)
			return
		}
		tag := op.Tags[0]
		used[tag] = true
		if _, ok := listed[tag]; !ok {
			t.Errorf("%s: tag %q is not in the document's tags list", where, tag)
		}
		admin := strings.HasPrefix(path, "/api/v1/admin/") && !strings.HasPrefix(path, "/api/v1/admin/backups/")
		if admin != strings.HasPrefix(tag, "Admin: ") {
			t.Errorf("%s: tag %q; admin API paths (and only they) take an \"Admin: \" tag", where, tag)
		}
		if strings.HasPrefix(path, "/api/v1/business/website/") && inGroup[tag] != "Storefront" {
			t.Errorf("%s: tag %q is not in the Storefront group", where, tag)
		}
	})
	var hooks struct {
		Webhooks map[string]map[string]operation `json:"webhooks"`
	}
	if err := json.Unmarshal(raw, &hooks); err != nil {
		t.Fatal(err)
	}
	for event, item := range hooks.Webhooks {
		for method, op := range item {
			if len(op.Tags) != 1 {
				t.Errorf("webhook %s %s: got tags %q, want exactly one", event, method, op.Tags)
				continue
			}
			used[op.Tags[0]] = true
			if _, ok := listed[op.Tags[0]]; !ok {
				t.Errorf("webhook %s %s: tag %q is not in the document's tags list", event, method, op.Tags[0])
			}
		}
	}
	for name := range listed {
		if !used[name] {
			t.Errorf("tag %q is listed but no operation uses it", name)
		}
	}
}

// TestOpenAPINullableIDs: one convention for a missing id: type
// ["integer", "null"] (never OpenAPI 3.0's nullable, never a oneOf with null).
func TestOpenAPINullableIDs(t *testing.T) {
	t.Parallel()
	_, tree := loadDoc(t)
	var walk func(path string, node any)
	walk = func(path string, node any) {
		switch n := node.(type) {
		case map[string]any:
			if _, ok := n["nullable"]; ok {
				t.Errorf("%s: nullable is OpenAPI 3.0; use type [\"T\", \"null\"]", path)
			}
			if props, ok := n["properties"].(map[string]any); ok {
				for name, p := range props {
					ps, _ := p.(map[string]any)
					if !(name == "id" || strings.HasSuffix(name, "_id")) || ps == nil {
						continue
					}
					raw, _ := json.Marshal(ps)
					if strings.Contains(string(raw), `"null"`) && !strings.Contains(string(raw), `"type":["integer","null"]`) && !strings.Contains(string(raw), `"type":["string","null"]`) {
						t.Errorf("%s/%s: a nullable id must be type [\"integer\", \"null\"], got %s", path, name, raw)
					}
				}
			}
			for k, v := range n {
				walk(path+"/"+k, v)
			}
		case []any:
			for _, v := range n {
				walk(path+"/*", v)
			}
		}
	}
	walk("", tree)
}

// TestOpenAPIAmountsSent: every amount a request sends is MoneyInput (a
// string or a number, as app.Money decodes), never Money (the answers'
// two-decimal string), so the document accepts what the server accepts.
func TestOpenAPIAmountsSent(t *testing.T) {
	t.Parallel()
	doc, _ := loadDoc(t)
	var uses func(node any, seen map[string]bool) bool
	uses = func(node any, seen map[string]bool) bool {
		switch n := node.(type) {
		case map[string]any:
			if ref, ok := n["$ref"].(string); ok {
				name := strings.TrimPrefix(ref, "#/components/schemas/")
				if name == "Money" {
					return true
				}
				if seen[name] {
					return false
				}
				seen[name] = true
				return uses(doc.Components.Schemas[name], seen)
			}
			for _, v := range n {
				if uses(v, seen) {
					return true
				}
			}
		case []any:
			for _, v := range n {
				if uses(v, seen) {
					return true
				}
			}
		}
		return false
	}
	eachOperation(t, doc, func(method, path string, op operation) {
		if op.OperationID == "receiveStripeWebhook" || strings.HasPrefix(path, "/api/v1/payments/") {
			return // a provider's own format
		}
		if uses(op.RequestBody, map[string]bool{}) {
			t.Errorf("%s %s: the request body refers to Money; amounts sent are MoneyInput", method, path)
		}
	})
}
