package app_test

import (
	"encoding/json"
	"testing"

	"storefront/app"
)

func TestEmptySlices(t *testing.T) {
	type inner struct {
		Tags []string `json:"tags"`
	}
	type outer struct {
		Images []string          `json:"images"`
		Raw    json.RawMessage   `json:"raw"`
		In     *inner            `json:"in"`
		List   []inner           `json:"list"`
		M      map[string]any    `json:"m"`
		Hidden []string          `json:"-"`
		Bytes  []byte            `json:"bytes"`
		Ptrs   map[string]*inner `json:"ptrs"`
	}
	orig := &outer{Raw: json.RawMessage(`{"a":null}`), In: &inner{}, List: []inner{{}, {Tags: []string{"x"}}},
		M: map[string]any{"v": []int(nil), "n": nil}, Ptrs: map[string]*inner{"p": {}}}
	got, _ := json.Marshal(app.EmptySlices(orig))
	want := `{"images":[],"raw":{"a":null},"in":{"tags":[]},"list":[{"tags":[]},{"tags":["x"]}],"m":{"n":null,"v":[]},"bytes":null,"ptrs":{"p":{"tags":[]}}}`
	if string(got) != want {
		t.Fatalf("got %s, want %s", got, want)
	}
	if orig.Images != nil || orig.In.Tags != nil || orig.List[0].Tags != nil {
		t.Fatal("the original was modified")
	}
	if s := app.EmptySlices("x"); s != "x" {
		t.Fatalf("got %v, want x", s)
	}
}
