package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"

	"github.com/gate-dev/gate/internal/safefile"
	"github.com/gate-dev/gate/internal/safetext"
)

// initSynopsis is init's help, with what it looks for listed from the
// tables of init_survey.go.
var initSynopsis = `gatectl init [-m gate.toml | --stdout] [--force]

Writes a manifest to start from: a commented tool for each thing it finds
on this machine, or an example to edit when it finds nothing. It looks
only here: which API keys are set (their names, never their values),
which services the environment names (the address and names only, never
a password) or accept a connection at their usual local address, and
which programs are on PATH. It refuses to replace a file unless --force.
The manifest is -m (- for stdout), else $GATE_MANIFEST, else ./gate.toml.
Exit codes: 0 written, 2 bad input or the file exists.

It looks for:
` + initLooksFor()

// initLooksFor lists the three tables for the help, wrapped.
func initLooksFor() string {
	var keys, named, services, bins []string
	for _, k := range apiKeys {
		keys = append(keys, k.vars...)
	}
	for _, n := range namedServices {
		named = append(named, n.vars...)
	}
	for _, s := range localServices {
		services = append(services, string(s.kind)+":"+s.addr)
	}
	for _, p := range programs {
		bins = append(bins, p.bin)
	}
	var b strings.Builder
	for _, l := range []struct {
		label string
		words []string
	}{{"API keys", keys}, {"services", append(named, services...)}, {"programs", bins}} {
		b.WriteString(fmt.Sprintf("  %-10s", l.label+":") + strings.ReplaceAll(wrap(strings.Join(l.words, " "), 64), "\n", "\n"+strings.Repeat(" ", 12)) + "\n")
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// initFlags are init's flags.
type initFlags struct {
	manifest      string
	stdout, force bool
}

func (f *initFlags) bind(fs *flag.FlagSet) {
	fs.StringVar(&f.manifest, "m", "", "the manifest to write (- for stdout)")
	fs.BoolVar(&f.stdout, "stdout", false, "write the manifest to stdout")
	fs.BoolVar(&f.force, "force", false, "replace the manifest if it exists")
}

func initCmd(args []string, stdout, stderr io.Writer) int {
	return initOn(thisMachine(os.Getenv), args, stdout, stderr)
}

// initOn is gatectl init looking at m.
func initOn(m machine, args []string, stdout, stderr io.Writer) int {
	var f initFlags
	c := newCommand("gatectl init", initSynopsis, stdout, stderr)
	f.bind(c.FlagSet)
	if code, done := c.parseNoArgs(args); done {
		return code
	}
	toStdout := f.stdout || f.manifest == "-"
	if f.stdout && f.manifest != "" && f.manifest != "-" {
		fmt.Fprintf(stderr, "gatectl init: --stdout and -m %s: want one of them\n", safetext.Terminal(f.manifest))
		return exitUsage
	}
	found := m.look(context.Background())
	for _, p := range found.problems {
		fmt.Fprintf(stderr, "gatectl init: %s; no tool for it\n", safetext.Terminal(p))
	}
	if toStdout {
		stdout.Write(renderManifest(found, "gate.toml"))
		return exitOK
	}
	path := manifestPath(f.manifest)
	shown := safetext.Terminal(path)
	if err := safefile.Write(path, renderManifest(found, path), 0o644, f.force); err != nil {
		if !f.force && errors.Is(err, fs.ErrExist) {
			fmt.Fprintf(stderr, "gatectl init: %s exists; --force replaces it\n", shown)
		} else {
			fmt.Fprintf(stderr, "gatectl init: cannot write %s: %s\n", shown, safetext.Terminal(err.Error()))
		}
		return exitUsage
	}
	fmt.Fprintf(stdout, "gatectl init: wrote %s: %s\n", shown, found.summary())
	fmt.Fprintf(stdout, "next: gatectl check -m %s\n", safetext.Terminal(shellWord(path)))
	return exitOK
}

// shellWord is s as one word a shell reads as s: quoted only if it needs
// to be.
func shellWord(s string) string {
	plain := func(r rune) bool {
		return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9' || strings.ContainsRune("_./:@%+=,-", r)
	}
	if s != "" && !strings.ContainsFunc(s, func(r rune) bool { return !plain(r) }) {
		return s
	}
	return shellQuote(s)
}

// summary says what a survey found, for the line after the file is written.
func (s survey) summary() string {
	if s.count() == 0 {
		return "found nothing here, so one example tool to edit"
	}
	var parts []string
	for _, p := range []struct {
		n          int
		one, other string
	}{{len(s.keys), "API key", "API keys"}, {len(s.named) + len(s.services), "service", "services"}, {len(s.programs), "program", "programs"}} {
		switch {
		case p.n == 1:
			parts = append(parts, "1 "+p.one)
		case p.n > 1:
			parts = append(parts, fmt.Sprintf("%d %s", p.n, p.other))
		}
	}
	tools := "tools"
	if s.count() == 1 {
		tools = "tool"
	}
	return fmt.Sprintf("%d %s (%s)", s.count(), tools, strings.Join(parts, ", "))
}
