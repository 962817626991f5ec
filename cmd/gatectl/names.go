package main

import (
	"fmt"
	"io"

	"github.com/gate-dev/gate/internal/manifest"
)

// namesCommand is the command the completion scripts run for the names
// check takes. main runs it before the table's dispatch, so it is in no
// usage, help or completion (a shell asks it, not a person), and nothing
// the commands reach leads to it.
const namesCommand = "__names"

// namesCmd is "gatectl __names [-m FILE]": every name check takes, one a
// line (the tools, the servers, then each server's [[servers.tools]]
// rules as SERVER#RULE, in manifest order), read from the manifest alone,
// parsed and checked, with no probe compiled or run, so that completing
// costs what reading the file costs. It never reads standard input (-m
// - is refused): the shell that asks has the terminal there.
func namesCmd(args []string, stdout, stderr io.Writer) int {
	const cmd = "gatectl " + namesCommand
	var manifestFlag string
	fs := newCommand(cmd, cmd+" [-m gate.toml]", stdout, stderr)
	fs.StringVar(&manifestFlag, "m", "", "the manifest")
	if code, done := fs.parseNoArgs(args); done {
		return code
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
	for _, name := range checkNames(m) {
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
