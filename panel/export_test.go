package panel

import "io/fs"

// PanelFS is the embedded panel files, for tests that break a copy of them.
var PanelFS fs.FS = panelFS

// ParsePanel parses the panel's templates and static files from fsys, as
// Register does at start-up.
func ParsePanel(fsys fs.FS) error {
	_, err := parsePanel(fsys)
	return err
}
