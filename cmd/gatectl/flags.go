package main

import (
	"flag"
	"fmt"
	"io"
	"strings"
)

// listFlag is a repeatable string flag: --env A --env B.
type listFlag []string

func (l *listFlag) String() string { return strings.Join(*l, ",") }

func (l *listFlag) Set(s string) error {
	*l = append(*l, s)
	return nil
}

// newFlagSet returns a FlagSet that reports errors instead of exiting and
// prints its usage to w.
func newFlagSet(name, synopsis string, w io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(w)
	fs.Usage = func() {
		fmt.Fprintf(w, "Usage: %s\n\nFlags:\n", synopsis)
		fs.PrintDefaults()
	}
	return fs
}

// parseInterleaved parses flags that may come before, between or after
// positional arguments (gatectl probe run x.wasm --env A), which the flag
// package alone stops at. "--" ends flag parsing.
func parseInterleaved(fs *flag.FlagSet, args []string) ([]string, error) {
	var positional []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		rest := fs.Args()
		if consumed := len(args) - len(rest); consumed > 0 && args[consumed-1] == "--" {
			return append(positional, rest...), nil
		}
		if len(rest) == 0 {
			return positional, nil
		}
		positional = append(positional, rest[0])
		args = rest[1:]
	}
}

// parseNoArgs parses a command that takes flags only.
func parseNoArgs(cmd string, fs *flag.FlagSet, args []string, stderr io.Writer) bool {
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return false
	}
	if len(pos) > 0 {
		fmt.Fprintf(stderr, "%s: unexpected argument %q\n", cmd, pos[0])
		return false
	}
	return true
}
