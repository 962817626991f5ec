// Package pathfmt shows file paths to people: relative to the working
// directory when they are below it, as they were probably written, and
// absolute otherwise.
package pathfmt

import (
	"os"
	"path/filepath"
	"strings"
)

// Rel returns path relative to the working directory when path is below
// it, else path unchanged.
func Rel(path string) string {
	wd, err := os.Getwd()
	if err != nil || path == "" {
		return path
	}
	rel, err := filepath.Rel(wd, path)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return path
	}
	return rel
}

// RelAny is Rel, but also climbs out of the working directory ("../x"):
// for a probe module named in a manifest, which sits anywhere.
func RelAny(path string) string {
	wd, err := os.Getwd()
	if err != nil || path == "" {
		return path
	}
	if rel, err := filepath.Rel(wd, path); err == nil {
		return rel
	}
	return path
}
