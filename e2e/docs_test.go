package e2e

import (
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"storefront/app/config"

	"github.com/knadh/koanf/parsers/yaml"
)

// The documents TestDocsStayTrue reads: the README and every page of docs/
// (docs/spec holds read-only copies of the contract and is left out).
func docFiles(t *testing.T) []string {
	t.Helper()
	pages, err := filepath.Glob("../docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	files := append([]string{"../README.md"}, pages...)
	sort.Strings(files[1:])
	return files
}

// notKeys look like configuration keys in the docs but name other things.
var notKeys = map[string]bool{
	"cache.evict": true, "orders.expire": true, "audit.prune": true, // cron job names
	"demo.json": true, // app/demo's data file
	"shop.js":   true, // the shop's script (shop/static)
}

var (
	mdLink     = regexp.MustCompile(`\[[^\]]*\]\(([^)\s]+)\)`)
	codeSpan   = regexp.MustCompile("`([^`\n]+)`")
	makeTarget = regexp.MustCompile(`\bmake ([a-z][a-z0-9-]*)`)
	subcommand = regexp.MustCompile(`\bstorefront ([a-z][a-z-]*)`)
	dottedKey  = regexp.MustCompile(`^[a-z_]+(\.[a-z0-9_*]+)+$`)
	envVar     = regexp.MustCompile(`STOREFRONT_[A-Z0-9_]*[A-Z0-9]`)
	heading    = regexp.MustCompile(`(?m)^#{1,6} +(.+?) *$`)
	repoPath   = regexp.MustCompile(`^[A-Za-z0-9_.-]+(/[A-Za-z0-9_.*-]+)+/?$`)
	bareFile   = regexp.MustCompile(`^[A-Za-z0-9_-]+\.(go|sh)$`)
)

// TestDocsStayTrue checks what the README and docs/*.md name against the
// tree, without starting a server: every relative link points at a file that
// exists (and a heading of it, for an #anchor), every `make X` is a Makefile
// target, every `storefront CMD` a command of the binary, every configuration
// key (`http.addr`) a key of the config with a line in config.example.yaml,
// every STOREFRONT_ variable a key's variable, and every repository path in
// code (`storage/batch.go`, or a bare `batch.go`) a file that exists.
func TestDocsStayTrue(t *testing.T) {
	targets := makeTargets(t)
	commands := binaryCommands(t)
	keys, example := configKeys(t)
	files := fileNames(t)
	sections := map[string]bool{}
	for k := range keys {
		sections[strings.SplitN(k, ".", 2)[0]] = true
	}
	for _, file := range docFiles(t) {
		raw, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		name := strings.TrimPrefix(file, "../")
		prose, code := splitCode(string(raw))
		for _, m := range mdLink.FindAllStringSubmatch(codeSpan.ReplaceAllString(prose, ""), -1) {
			if msg := checkLink(file, m[1]); msg != "" {
				t.Errorf("%s: link %s: %s", name, m[1], msg)
			}
		}
		for _, c := range code {
			for _, m := range makeTarget.FindAllStringSubmatch(c, -1) {
				if !targets[m[1]] {
					t.Errorf("%s: `make %s`: no such target in the Makefile", name, m[1])
				}
			}
			for _, m := range subcommand.FindAllStringSubmatch(c, -1) {
				if !commands[m[1]] {
					t.Errorf("%s: `storefront %s`: no such command in main.go's usage", name, m[1])
				}
			}
			// STYLE.md is the house style guide's copy: its paths are examples.
			if repoPath.MatchString(c) && name != "docs/STYLE.md" && !pathExists(c) {
				t.Errorf("%s: `%s`: no such file in the repository", name, c)
			}
			if bareFile.MatchString(c) && name != "docs/STYLE.md" && !files[c] {
				t.Errorf("%s: `%s`: no file of that name in the repository", name, c)
			}
			if dottedKey.MatchString(c) && sections[strings.SplitN(c, ".", 2)[0]] && !notKeys[c] {
				if msg := checkKey(c, keys, example); msg != "" {
					t.Errorf("%s: `%s`: %s", name, c, msg)
				}
			}
		}
		for _, v := range envVar.FindAllString(string(raw), -1) {
			if strings.HasPrefix(v, "STOREFRONT_TEST_") || strings.HasPrefix(v, "STOREFRONT_BENCH_") {
				continue // the test and benchmark switches, not configuration
			}
			if k := config.EnvKey(v); !keys[k] {
				t.Errorf("%s: %s names no configuration key (%q)", name, v, k)
			}
		}
	}
}

// splitCode returns the text outside fenced blocks, and every code span and
// fenced line (where commands, targets and keys are written).
func splitCode(text string) (string, []string) {
	var prose strings.Builder
	var code []string
	fenced := false
	for _, line := range strings.Split(text, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			fenced = !fenced
			continue
		}
		if fenced {
			code = append(code, strings.TrimSpace(line))
			continue
		}
		prose.WriteString(line + "\n")
		for _, m := range codeSpan.FindAllStringSubmatch(line, -1) {
			code = append(code, m[1])
		}
	}
	return prose.String(), code
}

// pathExists reports whether a path named in code (`storage/batch.go`,
// `web/openapi/*.json`) is in the repository. Only paths below a top-level
// folder of the repository count: `api/v1/...` and the like are not files.
func pathExists(p string) bool {
	top := strings.SplitN(p, "/", 2)[0]
	if st, err := os.Stat("../" + top); err != nil || !st.IsDir() || top == "." || top == ".." {
		return true // not a path of the repository (a URL path, ./data)
	}
	m, err := filepath.Glob("../" + strings.TrimSuffix(p, "/"))
	return err == nil && len(m) > 0
}

// fileNames are the base names of the repository's Go and shell files.
func fileNames(t *testing.T) map[string]bool {
	t.Helper()
	out := map[string]bool{}
	err := filepath.WalkDir("..", func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == ".tools" || d.Name() == "node_modules" || d.Name() == "data") {
			return filepath.SkipDir
		}
		if bareFile.MatchString(d.Name()) {
			out[d.Name()] = true
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// checkLink returns what is wrong with a link of file, or "".
func checkLink(file, link string) string {
	if strings.Contains(link, "://") || strings.HasPrefix(link, "mailto:") {
		return "" // outside the tree
	}
	path, anchor, _ := strings.Cut(link, "#")
	target := file
	if path != "" {
		target = filepath.Join(filepath.Dir(file), path)
	}
	st, err := os.Stat(target)
	if err != nil {
		return "no such file"
	}
	if anchor == "" || st.IsDir() || !strings.HasSuffix(target, ".md") {
		return ""
	}
	raw, err := os.ReadFile(target)
	if err != nil {
		return err.Error()
	}
	if !anchors(string(raw))[anchor] {
		return "no heading with that anchor"
	}
	return ""
}

// anchors are the ids GitHub gives a markdown file's headings: lower case,
// punctuation dropped, spaces to dashes, -1, -2 ... on repeats.
func anchors(text string) map[string]bool {
	prose, _ := splitCode(text)
	out, seen := map[string]bool{}, map[string]int{}
	for _, m := range heading.FindAllStringSubmatch(prose, -1) {
		var b strings.Builder
		for _, r := range strings.ToLower(m[1]) {
			switch {
			case r == ' ':
				b.WriteRune('-')
			case r == '-' || r == '_' || ('a' <= r && r <= 'z') || ('0' <= r && r <= '9') || r > 127:
				b.WriteRune(r)
			}
		}
		id := b.String()
		if n := seen[id]; n > 0 {
			out[id+"-"+strconv.Itoa(n)] = true
		} else {
			out[id] = true
		}
		seen[id]++
	}
	return out
}

// checkKey returns what is wrong with a configuration key named in the docs;
// `mail.smtp.*` stands for the keys below mail.smtp.
func checkKey(key string, keys, example map[string]bool) string {
	if prefix, ok := strings.CutSuffix(key, ".*"); ok {
		for k := range keys {
			if strings.HasPrefix(k, prefix+".") {
				return ""
			}
		}
		return "no configuration key below it"
	}
	if _, deprecated := config.Deprecated[key]; deprecated {
		return "" // still accepted, with a warning (one release)
	}
	switch {
	case !keys[key]:
		return "no such configuration key (app/config Defaults)"
	case !example[key]:
		return "missing from config.example.yaml"
	}
	return ""
}

// makeTargets are the Makefile's targets.
func makeTargets(t *testing.T) map[string]bool {
	t.Helper()
	raw, err := os.ReadFile("../Makefile")
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]bool{}
	for _, m := range regexp.MustCompile(`(?m)^([a-z0-9][a-z0-9-]*):`).FindAllStringSubmatch(string(raw), -1) {
		out[m[1]] = true
	}
	if !out["run"] || !out["test"] {
		t.Fatalf("found no run and test targets in the Makefile: %v", out)
	}
	return out
}

// binaryCommands are the commands main.go's usage lists.
func binaryCommands(t *testing.T) map[string]bool {
	t.Helper()
	raw, err := os.ReadFile("../main.go")
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]bool{"help": true}
	for _, m := range regexp.MustCompile(`(?m)^  storefront ([a-z][a-z-]*)`).FindAllStringSubmatch(string(raw), -1) {
		out[m[1]] = true
	}
	if !out["serve"] {
		t.Fatalf("found no serve command in main.go's usage: %v", out)
	}
	return out
}

// configKeys are the keys of the config (app/config Defaults) and those
// config.example.yaml sets.
func configKeys(t *testing.T) (keys, example map[string]bool) {
	t.Helper()
	keys = map[string]bool{}
	for _, k := range config.Keys() {
		keys[k] = true
	}
	raw, err := os.ReadFile("../config.example.yaml")
	if err != nil {
		t.Fatal(err)
	}
	doc, err := yaml.Parser().Unmarshal(raw)
	if err != nil {
		t.Fatalf("config.example.yaml: %v", err)
	}
	example = map[string]bool{}
	flatten("", doc, example)
	return keys, example
}

func flatten(prefix string, m map[string]any, out map[string]bool) {
	for k, v := range m {
		if sub, ok := v.(map[string]any); ok {
			flatten(prefix+k+".", sub, out)
			continue
		}
		out[prefix+k] = true
	}
}
