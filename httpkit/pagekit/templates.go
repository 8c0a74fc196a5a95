package pagekit

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"html/template"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// TemplateOptions say how a set of pages is parsed.
type TemplateOptions struct {
	// Dir is the folder of the .html files in the FS ("templates").
	Dir string
	// ThemeDir, when set, holds files that replace the embedded ones of the
	// same name, file by file (a missing file keeps the embedded one).
	ThemeDir string
	// Funcs are the template functions.
	Funcs template.FuncMap
	// Layout is the template every page is executed through ("layout",
	// from layout.html); "" makes every file a page of its own, executed
	// by its file name.
	Layout string
	// Block is the block every page file must define with a layout
	// ("main", "content").
	Block string
	// Need are the pages that must exist (a missing one fails the parse).
	Need []string
}

// Templates are parsed pages: each page file with the layout and the
// partials (files named _*.html), by name without .html. Parsed templates
// are safe for concurrent use.
type Templates struct {
	pages  map[string]*template.Template
	layout string
}

// ParseTemplates parses every page of opt.Dir in fsys. A broken or missing
// template is an error here, at start-up, never mid-request.
func ParseTemplates(fsys fs.FS, opt TemplateOptions) (*Templates, error) {
	files, err := fs.Glob(fsys, opt.Dir+"/*.html")
	if err != nil {
		return nil, err
	}
	shared := template.New("shared").Funcs(opt.Funcs) // the layout and partials, parsed once
	for _, f := range files {
		if n := path.Base(f); isShared(n, opt.Layout) {
			if err := parseFile(shared, fsys, opt, n, n); err != nil {
				return nil, err
			}
		}
	}
	ts := &Templates{pages: map[string]*template.Template{}, layout: opt.Layout}
	for _, f := range files {
		n := path.Base(f)
		if isShared(n, opt.Layout) {
			continue
		}
		t, err := shared.Clone() // each page gets its own copy of them
		if err != nil {
			return nil, err
		}
		tn := n
		if opt.Layout == "" {
			tn = strings.TrimSuffix(n, ".html")
		}
		if err := parseFile(t, fsys, opt, n, tn); err != nil {
			return nil, err
		}
		if opt.Layout != "" && (t.Lookup(opt.Layout) == nil || t.Lookup(opt.Block) == nil) {
			return nil, fmt.Errorf("template %s: needs the %s and a %s block", n, opt.Layout, opt.Block)
		}
		ts.pages[strings.TrimSuffix(n, ".html")] = t
	}
	for _, need := range opt.Need {
		if ts.pages[need] == nil {
			return nil, fmt.Errorf("template %s.html is missing", need)
		}
	}
	return ts, nil
}

func isShared(name, layout string) bool {
	return (layout != "" && name == layout+".html") || strings.HasPrefix(name, "_")
}

// parseFile parses file name into t as the template tn.
func parseFile(t *template.Template, fsys fs.FS, opt TemplateOptions, name, tn string) error {
	text, err := readTemplate(fsys, opt, name)
	if err == nil {
		_, err = t.New(tn).Parse(text)
	}
	if err != nil {
		return fmt.Errorf("template %s: %w", name, err)
	}
	return nil
}

// readTemplate reads name from the theme directory, else from fsys.
func readTemplate(fsys fs.FS, opt TemplateOptions, name string) (string, error) {
	if opt.ThemeDir != "" {
		b, err := os.ReadFile(filepath.Join(opt.ThemeDir, name))
		if err == nil {
			return string(b), nil
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return "", err
		}
	}
	b, err := fs.ReadFile(fsys, opt.Dir+"/"+name)
	return string(b), err
}

// Has reports whether the set has page name.
func (ts *Templates) Has(name string) bool { return ts.pages[name] != nil }

// Execute writes page name with data into buf, through the layout. A page
// is executed into a buffer so that a failing template never sends half a
// page.
func (ts *Templates) Execute(buf *bytes.Buffer, name string, data any) error {
	t := ts.pages[name]
	if t == nil {
		return fmt.Errorf("no page template %q", name)
	}
	if err := t.ExecuteTemplate(buf, cmp.Or(ts.layout, name), data); err != nil {
		return fmt.Errorf("page %s: %w", name, err)
	}
	return nil
}

// Clone is a copy of the set whose templates call funcs instead of the
// functions of the same names they were parsed with (a language's t, tf,
// money...): parse once, clone per variant. Cloning happens at start-up,
// before any page is executed.
func (ts *Templates) Clone(funcs template.FuncMap) (*Templates, error) {
	out := &Templates{pages: make(map[string]*template.Template, len(ts.pages)), layout: ts.layout}
	for name, t := range ts.pages {
		c, err := t.Clone()
		if err != nil {
			return nil, fmt.Errorf("page %s: %w", name, err)
		}
		out.pages[name] = c.Funcs(funcs)
	}
	return out, nil
}
