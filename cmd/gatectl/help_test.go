package main

import (
	"bytes"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestHelp: help that was asked for, in any of the ways people ask, is
// the answer (stdout, exit 0) and says the same thing every way; a usage
// mistake is an error (stderr, exit 2).
func TestHelp(t *testing.T) {
	// probe run's --cache-dir default is shown; pin it.
	t.Setenv("GATE_CACHE_DIR", "/var/cache/gate")
	tests := []struct {
		golden string
		ways   [][]string
	}{
		{"help.txt", [][]string{{"help"}, {"-h"}, {"--help"}, {"-help"}}},
		{"help_check.txt", [][]string{{"help", "check"}, {"check", "-h"}, {"check", "--help"}, {"check", "-m", "x.toml", "-h"}}},
		{"help_schema.txt", [][]string{{"help", "schema"}, {"schema", "-h"}}},
		{"help_serve.txt", [][]string{{"help", "serve"}, {"serve", "-h"}, {"serve", "--help"}}},
		{"help_skills.txt", [][]string{{"help", "skills"}, {"skills", "-h"}, {"skills", "help"}}},
		{"help_doctor.txt", [][]string{{"help", "doctor"}, {"doctor", "-h"}, {"doctor", "help"}, {"doctor", "--help"}, {"doctor", "skills", "-h"}}},
		{"help_probe.txt", [][]string{{"help", "probe"}, {"probe", "-h"}, {"probe", "--help"}, {"probe", "help"}}},
		{"help_probe_run.txt", [][]string{{"help", "probe", "run"}, {"probe", "run", "-h"}, {"probe", "help", "run"}, {"probe", "run", "env:HOME", "--help"}}},
		{"help_probe_inspect.txt", [][]string{{"help", "probe", "inspect"}, {"probe", "inspect", "-h"}}},
	}
	for _, tt := range tests {
		t.Run(tt.golden, func(t *testing.T) {
			for i, args := range tt.ways {
				var stdout, stderr bytes.Buffer
				code := run(args, &stdout, &stderr)
				assert.Equal(t, exitOK, code, "gatectl %s", strings.Join(args, " "))
				assert.Empty(t, stderr.String(), "gatectl %s", strings.Join(args, " "))
				if i == 0 {
					golden(t, tt.golden, stdout.String())
				} else {
					assert.Equal(t, readGolden(t, tt.golden), stdout.String(), "gatectl %s", strings.Join(args, " "))
				}
			}
		})
	}
}

func TestVersion(t *testing.T) {
	for _, args := range [][]string{{"version"}, {"--version"}, {"-version"}} {
		var stdout, stderr bytes.Buffer
		assert.Equal(t, exitOK, run(args, &stdout, &stderr), "gatectl %s", args[0])
		assert.Regexp(t, regexp.MustCompile(`^gatectl \S.*\n$`), stdout.String())
		assert.Empty(t, stderr.String())
	}
	var stdout, stderr bytes.Buffer
	assert.Equal(t, exitUsage, run([]string{"version", "extra"}, &stdout, &stderr))
	assert.Contains(t, stderr.String(), `unexpected argument "extra"`)
}

// TestUsageErrors: a mistake goes to stderr with the usage, exit 2, and
// nothing on stdout.
func TestUsageErrors(t *testing.T) {
	tests := []struct {
		args   []string
		stderr string
	}{
		{nil, "Usage:\n  gatectl check"},
		{[]string{"frob"}, `gatectl: unknown command "frob"`},
		{[]string{"help", "frob"}, `gatectl help: unknown command "frob"`},
		{[]string{"check", "--frob"}, "flag provided but not defined: -frob\nUsage: gatectl check"},
		{[]string{"schema", "extra"}, `gatectl schema: unexpected argument "extra"`},
		{[]string{"probe"}, "gatectl probe: want a command\n\nUsage:\n  gatectl probe run"},
		{[]string{"probe", "frob"}, `gatectl probe: unknown command "frob" (want run or inspect)`},
		{[]string{"probe", "run", "--frob"}, "flag provided but not defined: -frob\nUsage: gatectl probe run"},
		{[]string{"doctor"}, `gatectl doctor: want "skills"`},
		{[]string{"skills", "--deep"}, "flag provided but not defined: -deep"},
	}
	for _, tt := range tests {
		var stdout, stderr bytes.Buffer
		code := run(tt.args, &stdout, &stderr)
		assert.Equal(t, exitUsage, code, "gatectl %v", tt.args)
		assert.Empty(t, stdout.String(), "gatectl %v", tt.args)
		assert.Contains(t, stderr.String(), tt.stderr, "gatectl %v", tt.args)
	}
}
