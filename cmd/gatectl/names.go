package main

import (
	"fmt"
	"io"

	"github.com/gate-dev/gate/internal/manifest"
	"github.com/gate-dev/gate/internal/safetext"
)

// namesCommand is the command the completion scripts run for the names
// check takes. main runs it before the table's dispatch, so it is in no
// usage, help or completion (a shell asks it, not a person), and nothing
// the commands reach leads to it.
const namesCommand = "__names"

// nameSet is a set of a manifest's names that a command's arguments
// are, as completion asks gatectl __names for them; "" for none.
type nameSet string

const (
	// namesCheck are the names check takes (checkNames).
	namesCheck nameSet = "check"
	// namesServers are the MCP servers: the [[servers]] entries with
	// command or url, which mcp lock and mcp check take.
	namesServers nameSet = "servers"
)

// namesCmd is "gatectl __names [-m FILE] [check|servers]": every name of
// the set (check's when none is named: what scripts written before the
// sets asked) one a line, in manifest order, read from the manifest
// alone, parsed and checked, with no probe compiled or run, so that
// completing costs what reading the file costs. It never reads standard
// input (-m - is refused): the shell that asks has the terminal there.
func namesCmd(args []string, stdout, stderr io.Writer) int {
	const cmd = "gatectl " + namesCommand
	var manifestFlag string
	fs := newCommand(cmd, cmd+" [-m gate.toml] [check|servers]", stdout, stderr)
	fs.StringVar(&manifestFlag, "m", "", "the manifest")
	sets, code, done := fs.parse(args)
	if done {
		return code
	}
	set := namesCheck
	switch {
	case len(sets) > 1:
		fmt.Fprintf(stderr, "%s: want one set of names, got %d\n", cmd, len(sets))
		return exitUsage
	case len(sets) == 1:
		set = nameSet(sets[0])
	}
	if set != namesCheck && set != namesServers {
		fmt.Fprintf(stderr, "%s: %s is no set of names: want %s or %s\n", cmd, safetext.Terminal(fmt.Sprintf("%q", string(set))), namesCheck, namesServers)
		return exitUsage
	}
	path := manifestPath(manifestFlag)
	if refuseStdinManifest(stderr, cmd, path, "completion has no manifest to read there") {
		return exitUsage
	}
	m, err := loadManifest(path)
	if err != nil {
		reportManifestError(stderr, cmd, path, err)
		return exitUsage
	}
	names := checkNames(m)
	if set == namesServers {
		names = nil
		for _, s := range m.Servers {
			if s.Upstream != nil {
				names = append(names, s.Name)
			}
		}
	}
	for _, name := range names {
		fmt.Fprintln(stdout, name)
	}
	return exitOK
}

// checkNames are the names of m that check takes, in the order check
// lists them: its tools, its servers, then its servers' rules.
func checkNames(m *manifest.Manifest) []string {
	var names []string
	for _, t := range m.Tools {
		names = append(names, t.Name)
	}
	for _, s := range m.Servers {
		names = append(names, s.Name)
	}
	for _, s := range m.Servers {
		if s.Upstream != nil {
			for _, r := range s.Upstream.Tools {
				names = append(names, manifest.UpstreamRuleName(s.Name, r.Rule()))
			}
		}
	}
	return names
}
