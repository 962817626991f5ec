package main

import (
	"errors"
	"fmt"
	"io"

	"github.com/gate-dev/gate/internal/safetext"
	"github.com/gate-dev/gate/internal/toollock"
	"github.com/gate-dev/gate/runtime"
)

// checkPin is a pinned server in `gatectl check`: what its lock file
// holds of it. check connects to no MCP server (it runs probes, never a
// server's command), so whether the tools still match is what
// `gatectl mcp lock --check` tells, which each line points at.
type checkPin struct {
	Server string `json:"server"`
	Pin    string `json:"pin"`  // true or strict
	Lock   string `json:"lock"` // the lock file's path
	// Locked is how many of the server's tools the lock file has.
	Locked int `json:"locked"`
	// Error is why the lock file cannot be used, which hides every tool
	// of the server; "" when it can (a missing file is an empty lock).
	Error string `json:"error,omitempty"`
}

// pinsOf is the pinned servers, in manifest order, with what their lock
// file holds of each; path is the manifest's path as given, which names
// the lock file ("-", standard input, names none). The file is read
// once, and only if a server is pinned.
func pinsOf(pinned []runtime.PinnedServer, path string) []checkPin {
	if len(pinned) == 0 {
		return nil
	}
	var lock string
	var file *toollock.File
	var readErr error
	if path == stdinManifest {
		// A manifest on standard input has no beside.
		readErr = errors.New("the manifest came from standard input, which has no lock file beside it; check the manifest's file")
	} else {
		lock = toollock.PathFor(path)
		file, readErr = toollock.Read(lock)
		if toollock.IsMissing(readErr) {
			file, readErr = &toollock.File{}, nil
		}
	}
	out := make([]checkPin, 0, len(pinned))
	for _, s := range pinned {
		p := checkPin{Server: s.Name, Pin: s.Pin, Lock: lock}
		if readErr != nil {
			p.Error = readErr.Error()
		} else {
			p.Locked = len(file.Server(s.Name))
		}
		out = append(out, p)
	}
	return out
}

// printPins writes a line per pinned server.
func printPins(w io.Writer, pins []checkPin) {
	if len(pins) == 0 {
		return
	}
	fmt.Fprintln(w)
	for _, p := range pins {
		name, lock := safetext.Terminal(p.Server), safetext.Terminal(p.Lock)
		if p.Error != "" {
			fmt.Fprintf(w, "pinned server %s: its tools are hidden: the lock file cannot be used: %s\n", name, safetext.Terminal(p.Error))
			continue
		}
		fmt.Fprintf(w, "pinned server %s (pin = %s): %d tool(s) in %s; gatectl mcp lock --check %s compares them with what it offers now\n",
			name, pinValue(p.Pin), p.Locked, lock, name)
	}
}

// pinValue is p as the manifest writes it: true, or "strict" quoted.
func pinValue(p string) string {
	if p == "strict" {
		return `"strict"`
	}
	return p
}
