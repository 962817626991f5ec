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

	"github.com/gate-dev/gate/internal/pathfmt"
	"github.com/gate-dev/gate/internal/safetext"
	"github.com/gate-dev/gate/internal/skillsview"
	"github.com/gate-dev/gate/runtime"
	"github.com/gate-dev/gate/skills"
)

// skillsFlags are skills' flags, and the flags every skills command
// shares.
type skillsFlags struct {
	manifest string
	paths    listFlag
	json     bool
}

func (f *skillsFlags) bind(fs *flag.FlagSet) {
	f.bindShared(fs)
	fs.BoolVar(&f.json, "json", false, "print JSON (shapes: docs/CLI.md)")
}

// bindShared adds the flags every skills command shares.
func (f *skillsFlags) bindShared(fs *flag.FlagSet) {
	fs.StringVar(&f.manifest, "m", "", "the manifest")
	fs.Var(&f.paths, "path", "a skills `DIR` to look at instead of the manifest's; repeatable")
}

// skillsPromptFlags are skills prompt's flags: no --json, since the
// prompt block is the output.
type skillsPromptFlags struct{ skillsFlags }

func (f *skillsPromptFlags) bind(fs *flag.FlagSet) { f.bindShared(fs) }

// doctorFlags are doctor skills' flags.
type doctorFlags struct {
	skillsFlags
	deep, requirements bool
}

func (f *doctorFlags) bind(fs *flag.FlagSet) {
	f.skillsFlags.bind(fs)
	fs.BoolVar(&f.deep, "deep", false, "probe every tool and server again instead of reading cached answers")
	fs.BoolVar(&f.requirements, "requirements", false, "show each skill's requirements and the files skipped or read leniently")
}

// openSkills opens the Gate whose skills a command looks at: the manifest
// (-m, $GATE_MANIFEST, or ./gate.toml when it exists), with --path
// replacing its skill paths; with --path and no manifest, the skills are
// validated against no tools and no servers.
func openSkills(ctx context.Context, cmd string, f *skillsFlags, stderr io.Writer) (*runtime.Gate, *skills.Manager, bool) {
	path := manifestPath(f.manifest)
	_, statErr := os.Stat(path)
	explicit := f.manifest != "" || os.Getenv("GATE_MANIFEST") != ""
	var g *runtime.Gate
	switch {
	case explicit || statErr == nil:
		var ok bool
		g, ok = openGateWith(ctx, cmd, path, false, stderr, func(c runtime.GateConfig) runtime.GateConfig {
			if len(f.paths) > 0 {
				c = c.WithSkillPaths(f.paths...)
			}
			return c
		})
		if !ok {
			return nil, nil, false
		}
	case len(f.paths) > 0:
		var err error
		g, err = runtime.New(ctx, runtime.NewGateConfig().WithSkillPaths(f.paths...))
		if err != nil {
			fmt.Fprintf(stderr, "%s: %v\n", cmd, err)
			return nil, nil, false
		}
	case errors.Is(statErr, fs.ErrNotExist):
		fmt.Fprintf(stderr, "%s: no --path DIR to look for skills in, and %s\n", cmd, noManifest(path))
		return nil, nil, false
	default:
		fmt.Fprintf(stderr, "%s: no manifest (%s: %v) and no --path DIR to look for skills in\n", cmd, path, statErr)
		return nil, nil, false
	}
	m := g.Skills(ctx)
	if m == nil {
		fmt.Fprintf(stderr, "%s: %s has no [skills] paths; give them there or with --path DIR\n", cmd, shownManifest(path))
		g.Close(ctx)
		return nil, nil, false
	}
	if w := g.SkillsLevelWarning(); w != "" {
		fmt.Fprintf(stderr, "%s: %s\n", cmd, safetext.Terminal(w))
	}
	return g, m, true
}

const skillsSynopsis = `gatectl skills [-m gate.toml] [--path DIR]... [--json]
       gatectl skills prompt [-m gate.toml] [--path DIR]...

Lists the skills, their state against the tools and servers available now,
and whether the model would be offered each; "prompt" prints the
<available_skills> block for the next model call (nothing when no skill is
offered). --path looks at skill folders instead of the manifest's.`

// skillsCmd is "gatectl skills": the skills and their state.
func skillsCmd(args []string, stdout, stderr io.Writer) int {
	var f skillsFlags
	return runSkills(args, &f, f.bind, false, stdout, stderr)
}

// skillsPrompt is "gatectl skills prompt": the <available_skills> block.
func skillsPrompt(args []string, stdout, stderr io.Writer) int {
	var f skillsPromptFlags
	return runSkills(args, &f.skillsFlags, f.bind, true, stdout, stderr)
}

// runSkills is skills and skills prompt, whose flags bind binds into f.
// Both share one usage text, under the name "gatectl skills".
func runSkills(args []string, f *skillsFlags, bind func(*flag.FlagSet), prompt bool, stdout, stderr io.Writer) int {
	if len(args) > 0 && args[0] == "help" { // as "gatectl probe help" does
		args = []string{"-h"}
	}
	fs := newCommand("gatectl skills", skillsSynopsis, stdout, stderr)
	bind(fs.FlagSet)
	if code, done := fs.parseNoArgs(args); done {
		return code
	}
	ctx := context.Background()
	g, m, ok := openSkills(ctx, "gatectl skills", f, stderr)
	if !ok {
		return exitUsage
	}
	defer g.Close(ctx)

	if prompt {
		if p := m.Prompt(); p != "" {
			fmt.Fprintln(stdout, p)
		}
		return exitOK
	}
	list := skillsview.NewList(m, pathfmt.Rel)
	if f.json {
		writeJSON(stdout, list)
		return exitOK
	}
	var t table
	t.add("SKILL", "STATE", "OFFERED", "ISSUES")
	for _, s := range list.Skills {
		offered := "no"
		if s.Offered {
			offered = "yes"
		}
		// A skill's name and the issues that quote its frontmatter are
		// whatever its author wrote: escaped before the table measures them.
		issues := strings.Join(append(append([]string{}, s.Errors...), s.Warnings...), "; ")
		t.add(safetext.Terminal(s.Name), string(s.State), offered, safetext.Terminal(issues))
	}
	// Fitted to a terminal, as check's table is (the issues wrapped under
	// their column, never cut); a pipe or a file gets every line whole.
	width := outputWidth(stdout, os.Getenv)
	t.fit(width)
	t.write(stdout)
	sum := skillsview.Summarize(m)
	summary := fmt.Sprintf("%d skills: %d active, %d degraded, %d unavailable; %d offered to the model (enforcement: %s).",
		sum.TotalSkills, sum.Active, sum.Degraded, sum.Unavailable, list.Offered, sum.EnforcementLevel)
	if width > 0 {
		summary = wrap(summary, width)
	}
	fmt.Fprintf(stdout, "\n%s\n", summary)
	printSkipped(stdout, list.Skipped)
	return exitOK
}

// printSkipped lists the SKILL.md files that are not skills, each at its
// file and line, escaped: no row of the table shows them, and a file that
// vanished without a word would look like a skill gate lost.
func printSkipped(w io.Writer, skipped []skills.Report) {
	if len(skipped) == 0 {
		return
	}
	fmt.Fprintln(w, "skipped, not skills:")
	for _, r := range skipped {
		fmt.Fprintf(w, "  %s\n", safetext.Terminal(r.String()))
	}
}

const doctorSynopsis = `gatectl doctor skills [-m gate.toml] [--path DIR]... [--deep] [--json]
                             [--requirements]

Checks every skill's requirements against the tools, servers, environment
variables and binaries available now, and reports the counts by state,
a sample of the issues and the warnings of reading each SKILL.md (at its
file and line). --requirements adds every skill's satisfied and
missing requirements and the files that were skipped or read leniently;
--deep probes every tool and server again instead of trusting cached
answers. Exit codes: 0 fine, 1 some skill unavailable under strict
enforcement, 2 bad input.`

// doctor is "gatectl doctor" without its one subcommand, skills (which
// the dispatch runs): help asked for is that subcommand's.
func doctor(args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 && isHelp(args[0]) {
		// "gatectl doctor -h" and "gatectl doctor help [skills]": the one
		// doctor command's usage.
		return doctorSkills([]string{"-h"}, stdout, stderr)
	}
	fmt.Fprintf(stderr, "gatectl doctor: want \"skills\"\n\nUsage: %s\n", doctorSynopsis)
	return exitUsage
}

// doctorSkills is "gatectl doctor skills": why skills are degraded or
// unavailable.
func doctorSkills(args []string, stdout, stderr io.Writer) int {
	var f doctorFlags
	fs := newCommand("gatectl doctor skills", doctorSynopsis, stdout, stderr)
	f.bind(fs.FlagSet)
	if code, done := fs.parseNoArgs(args); done {
		return code
	}
	ctx := context.Background()
	g, m, ok := openSkills(ctx, "gatectl doctor skills", &f.skillsFlags, stderr)
	if !ok {
		return exitUsage
	}
	defer g.Close(ctx)
	if f.deep {
		_, _ = g.Tools().Refresh(ctx)
		_, _ = g.Servers().Refresh(ctx)
		m.Clear() // env vars and binaries are read again too
		m = g.Skills(ctx)
	}

	report := skillsview.NewDoctor(m, f.requirements, pathfmt.Rel)
	if f.json {
		writeJSON(stdout, report)
	} else {
		printDoctor(stdout, report)
	}
	if m.Level() == skills.LevelStrict && report.Unavailable > 0 {
		return exitUnavailable
	}
	return exitOK
}

// printDoctor prints a doctor report for people. Skill names, paths and
// messages quote what skill authors wrote and the names of their folders:
// every one is escaped (safetext.Terminal).
func printDoctor(w io.Writer, r skillsview.Doctor) {
	t := safetext.Terminal
	fmt.Fprintf(w, "%d skills: %d active, %d degraded, %d unavailable (enforcement: %s)\n",
		r.TotalSkills, r.Active, r.Degraded, r.Unavailable, r.EnforcementLevel)
	if len(r.SampleIssues) > 0 {
		fmt.Fprintln(w, "issues:")
		for _, s := range r.SampleIssues {
			fmt.Fprintf(w, "  %s\n", t(s))
		}
	}
	if len(r.ParseWarnings) > 0 {
		fmt.Fprintln(w, "warnings:")
		for _, pw := range r.ParseWarnings {
			fmt.Fprintf(w, "  %s\n", t(pw.String()))
		}
	}
	printSkipped(w, r.Skipped)
	for _, s := range r.Skills {
		fmt.Fprintf(w, "\n%s  %s  %s\n", t(s.Name), s.State, t(s.Location))
		for _, kind := range s.Kinds() {
			if len(kind.Satisfied)+len(kind.Missing) == 0 {
				continue
			}
			fmt.Fprintf(w, "  %-9s", strings.ReplaceAll(kind.Kind, "_", " ")+":")
			if len(kind.Satisfied) > 0 {
				fmt.Fprintf(w, " ok %s", t(strings.Join(kind.Satisfied, ", ")))
			}
			if len(kind.Missing) > 0 {
				if len(kind.Satisfied) > 0 {
					fmt.Fprint(w, ";")
				}
				fmt.Fprintf(w, " missing %s", t(strings.Join(kind.Missing, ", ")))
			}
			fmt.Fprintln(w)
		}
		for _, e := range s.Errors {
			fmt.Fprintf(w, "  error:    %s\n", t(e))
		}
		for _, e := range s.Warnings {
			fmt.Fprintf(w, "  warning:  %s\n", t(e))
		}
		for _, e := range s.Notes {
			fmt.Fprintf(w, "  note:     %s\n", t(e))
		}
	}
	// The files skipped are listed above already.
	var files []skills.Report
	for _, f := range r.Files {
		if f.Kind != skills.ReportSkipped {
			files = append(files, f)
		}
	}
	if len(files) > 0 {
		fmt.Fprintln(w, "\nfiles:")
		for _, f := range files {
			fmt.Fprintf(w, "  %s: %s\n", f.Kind, t(f.String()))
		}
	}
}
