package main

import (
	"runtime/debug"
	"strings"
	"time"
)

// version reports the module version gatectl was built from, and the
// wazero version that compiled its probes (the compilation cache is keyed
// by it).
func version() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "(unknown)"
	}
	return formatVersion(info)
}

// revisionLength is how much of a commit hash a version shows, as git's
// short hashes and Go's pseudo-versions do.
const revisionLength = 12

// formatVersion is the version of the build info describes: its module
// version when it was built from a tagged release (v1.4.0); else, for a
// build from a clone, the commit it was built from, "+dirty" when the work
// tree had changes, and the commit's time (UTC), from the vcs.* settings
// the go command records:
//
//	devel 8d18794a1b2c+dirty 2026-12-02T03:56:25Z (wazero v1.9.0)
//
// That replaces both what older go commands wrote for a clone, "(devel)",
// and the pseudo-version newer ones write (v0.0.0-20261202035625-
// 8d18794a1b2c+dirty), which reads like a release. A build without vcs.*
// settings (go run, -buildvcs=false, a git worktree, whose .git the go
// command does not recognise) stays "(devel)".
func formatVersion(info *debug.BuildInfo) string {
	v := info.Main.Version
	if devel, ok := develVersion(info.Settings); ok && (v == "" || v == "(devel)" || strings.Contains(v, devel.revision)) {
		v = devel.String()
	} else if v == "" {
		v = "(devel)"
	}
	for _, d := range info.Deps {
		if d.Path == "github.com/tetratelabs/wazero" {
			v += " (wazero " + d.Version + ")"
		}
	}
	return v
}

// devel is what the vcs.* settings say of a build from a clone.
type devel struct {
	revision string // its first revisionLength characters
	dirty    bool
	at       time.Time // zero when not recorded
}

func (d devel) String() string {
	v := "devel " + d.revision
	if d.dirty {
		v += "+dirty"
	}
	if !d.at.IsZero() {
		v += " " + d.at.UTC().Format(time.RFC3339)
	}
	return v
}

// develVersion reads the vcs.* settings, and reports whether they name a
// revision.
func develVersion(settings []debug.BuildSetting) (devel, bool) {
	var d devel
	for _, s := range settings {
		switch s.Key {
		case "vcs.revision":
			d.revision = s.Value[:min(len(s.Value), revisionLength)]
		case "vcs.time":
			d.at, _ = time.Parse(time.RFC3339Nano, s.Value) // zero if it is not a time
		case "vcs.modified":
			d.dirty = s.Value == "true"
		}
	}
	return d, d.revision != ""
}
