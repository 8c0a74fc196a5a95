package main

import (
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strings"
	"testing"
)

var changelogVersion = regexp.MustCompile(`(?m)^## \[(\d+\.\d+\.\d+)\]`)

// TestChangelogMatchesTags: every version CHANGELOG.md announces as released
// (## [X.Y.Z]) has its git tag vX.Y.Z, and every such tag its section; what
// is not tagged stays under Unreleased. Skipped outside a git checkout (an
// unpacked release archive).
func TestChangelogMatchesTags(t *testing.T) {
	out, err := exec.Command("git", "tag", "--list", "v[0-9]*.[0-9]*.[0-9]*").Output()
	if err != nil {
		t.Skipf("not a git checkout (%v): the tags are not compared", err)
	}
	tags := strings.Fields(string(out))
	raw, err := os.ReadFile("CHANGELOG.md")
	if err != nil {
		t.Fatal(err)
	}
	var announced []string
	for _, m := range changelogVersion.FindAllStringSubmatch(string(raw), -1) {
		announced = append(announced, "v"+m[1])
		if !slices.Contains(tags, "v"+m[1]) {
			t.Errorf("CHANGELOG.md announces %s, but there is no git tag v%s: keep it under Unreleased or tag it", m[1], m[1])
		}
	}
	for _, tag := range tags {
		if !slices.Contains(announced, tag) {
			t.Errorf("git tag %s has no section in CHANGELOG.md", tag)
		}
	}
	if !strings.Contains(string(raw), "\n## [Unreleased]\n") {
		t.Error("CHANGELOG.md has no ## [Unreleased] section")
	}
}
