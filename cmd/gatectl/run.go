package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// Exit codes shared by every command.
const (
	exitOK          = 0 // available, or the command did what was asked
	exitUnavailable = 1 // a probe answered "unavailable", or a check found a problem
	exitUsage       = 2 // bad flags, a bad file, a bad manifest
	exitProbeError  = 3 // a probe raised: trapped, overran, misused the ABI
)

const usage = `gatectl: decide which agent tools can run right now

Usage:
  gatectl check [-m gate.toml] [--json] [NAME...]
                                       which tools and servers can run right now, and why not
  gatectl schema [-m gate.toml] [--format openai|anthropic|mcp]
                                       the tool schema a model would be offered
  gatectl serve [-m gate.toml] [--addr 127.0.0.1:7311]
                                       keep answers fresh and serve them over HTTP (docs/HTTP.md)
  gatectl mcp [-m gate.toml]          an MCP server over stdio that offers only the tools that can run now (docs/MCP.md)
  gatectl skills [-m gate.toml] [--path DIR]... [--json]
                                       skills, their state, and whether the model is offered each
  gatectl skills prompt [-m gate.toml] [--path DIR]...
                                       the <available_skills> block for the next model call
  gatectl doctor skills [-m gate.toml] [--path DIR]... [--deep] [--json] [--requirements]
                                       why skills are degraded or unavailable
  gatectl probe run TARGET [flags]     run one probe and print its answer
  gatectl probe run --tool NAME [-m gate.toml]
                                       run a manifest tool's probe with its grants, config and budget
  gatectl probe inspect FILE.wasm      show a module's imports, exports and ABI verdict
  gatectl version                      also gatectl --version
  gatectl help [COMMAND]               also gatectl COMMAND -h

TARGET is a probe module (FILE.wasm) or a standard probe:
  env:VAR[,VAR...]          every variable set and non-empty
  tcp:HOST:PORT             the address accepts a connection (also tcp:unix:/path)
  import:SPEC[,SPEC...]     bin:NAME, py:MODULE, lib:LIBRARY are importable

The manifest is -m, else $GATE_MANIFEST, else ./gate.toml.
Run "gatectl help COMMAND" or "gatectl COMMAND -h" for a command's flags.
Exit codes: 0 available, 1 unavailable, 2 bad input, 3 probe error.
`

// run is gatectl without the process around it, so tests drive it.
//
// Help that was asked for ("gatectl help [COMMAND]", "-h", "--help",
// "COMMAND -h") goes to stdout with exit 0, since it is the answer; a
// usage mistake goes to stderr with exit 2.
func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return exitUsage
	}
	switch args[0] {
	case "check":
		return check(args[1:], stdout, stderr)
	case "schema":
		return schemaCmd(args[1:], stdout, stderr)
	case "serve":
		return serve(args[1:], stdout, stderr)
	case "mcp":
		return mcpCmd(args[1:], stdout, stderr)
	case "skills":
		return skillsCmd(args[1:], stdout, stderr)
	case "doctor":
		return doctor(args[1:], stdout, stderr)
	case "probe":
		return runProbe(args[1:], stdout, stderr)
	case "version", "--version", "-version":
		if len(args) > 1 && !(len(args) == 2 && isHelp(args[1])) {
			fmt.Fprintf(stderr, "gatectl version: unexpected argument %q\n", args[1])
			return exitUsage
		}
		fmt.Fprintln(stdout, "gatectl", version())
		return exitOK
	case "help":
		if len(args) == 1 {
			fmt.Fprint(stdout, usage)
			return exitOK
		}
		// "gatectl help probe run" is "gatectl probe run -h".
		if !isCommand(args[1]) {
			fmt.Fprintf(stderr, "gatectl help: unknown command %q\n\n%s", args[1], usage)
			return exitUsage
		}
		return run(append(append([]string{}, args[1:]...), "-h"), stdout, stderr)
	case "-h", "-help", "--help":
		fmt.Fprint(stdout, usage)
		return exitOK
	}
	fmt.Fprintf(stderr, "gatectl: unknown command %q\n\n%s", args[0], usage)
	return exitUsage
}

// isHelp reports whether arg asks for help.
func isHelp(arg string) bool {
	switch arg {
	case "-h", "-help", "--help", "help":
		return true
	}
	return false
}

func isCommand(name string) bool {
	switch name {
	case "check", "schema", "serve", "mcp", "skills", "doctor", "probe", "version":
		return true
	}
	return false
}

const probeUsage = `Usage:
  gatectl probe run TARGET [flags]            run one probe and print its answer
  gatectl probe run --tool NAME [-m gate.toml] [flags]
                                              run a manifest's tool's probe with its grants and config
  gatectl probe inspect FILE.wasm [flags]     show a module's imports, exports and ABI verdict

Run "gatectl probe run -h" or "gatectl probe inspect -h" for the flags.
`

func runProbe(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprintf(stderr, "gatectl probe: want a command\n\n%s", probeUsage)
		return exitUsage
	}
	switch args[0] {
	case "run":
		return probeRun(args[1:], stdout, stderr)
	case "inspect":
		return probeInspect(args[1:], stdout, stderr)
	}
	if isHelp(args[0]) {
		if len(args) > 1 { // "gatectl probe help run"
			return runProbe(append(append([]string{}, args[1:]...), "-h"), stdout, stderr)
		}
		fmt.Fprint(stdout, probeUsage)
		return exitOK
	}
	fmt.Fprintf(stderr, "gatectl probe: unknown command %q (want run or inspect)\n\n%s", args[0], probeUsage)
	return exitUsage
}

// defaultCacheDir is where compiled probes are kept between runs:
// $GATE_CACHE_DIR, else the user's cache directory. "" disables the cache.
func defaultCacheDir() string {
	if d, ok := os.LookupEnv("GATE_CACHE_DIR"); ok {
		return d
	}
	if d, err := os.UserCacheDir(); err == nil {
		return filepath.Join(d, "gate", "wazero")
	}
	return ""
}
