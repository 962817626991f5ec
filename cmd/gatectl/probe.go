package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"github.com/gate-dev/gate/internal/host"
	"github.com/gate-dev/gate/internal/inspect"
	"github.com/gate-dev/gate/internal/limits"
	"github.com/gate-dev/gate/internal/statusview"
	"io"
	"path/filepath"
	"strings"
	"time"

	"github.com/gate-dev/gate/hostfuncs"
	"github.com/gate-dev/gate/internal/probes"
	"github.com/gate-dev/gate/internal/safefile"
	"github.com/gate-dev/gate/internal/safetext"
	"github.com/gate-dev/gate/runtime"
)

// probeRunSynopsis is probe run's help above its flags. The standard
// probes it names are package probes' kinds, each as help texts write it.
var probeRunSynopsis = `gatectl probe run TARGET [--env NAME]... [--dial ADDR]...
           [--import SPEC]... [--http URL-PREFIX]... [--secret NAME=DEST]...
           [--insecure ADDR]... [--tls-ca FILE] [--proxy] [--config K=V]...
           [--json]
       gatectl probe run --tool NAME [-m gate.toml] [--json] [-v] [--fresh]

` + wrap("TARGET is FILE.wasm, or a standard probe: "+kindForms()+`. A standard probe is
granted what its target names, the secrets it names too (bearer=NAME,
password=NAME), bound to its target; a module file is granted only what
the flags name. --secret binds a secret to one destination, written as
--dial (streams) or --http (requests) is; the probe's placeholder for it
is refused anywhere else.`, 74) + `
--tls-ca and --proxy apply to either, as tls_ca and proxy do in a manifest.
--tool runs the probe of a manifest's tool (or server) exactly as gate
does: its module or shorthand, grants, config and budget, under the
manifest's [runtime]; it prints what the probe was denied and logged.
Exit codes: 0 available, 1 unavailable, 2 bad input, 3 probe error.`

// kindForms lists the standard probes as help texts write them:
// "env:VAR[,VAR...], tcp:HOST:PORT, ...".
func kindForms() string {
	var forms []string
	for _, k := range probes.Kinds() {
		forms = append(forms, k.Form())
	}
	return strings.Join(forms, ", ")
}

// wrap fills text's words into lines of at most width bytes (a longer
// word gets a line of its own).
func wrap(text string, width int) string {
	var b strings.Builder
	line := 0
	for _, w := range strings.Fields(text) {
		switch {
		case line == 0:
		case line+1+len(w) > width:
			b.WriteByte('\n')
			line = 0
		default:
			b.WriteByte(' ')
			line++
		}
		b.WriteString(w)
		line += len(w)
	}
	return b.String()
}

// probeRunFlags are probe run's flags.
type probeRunFlags struct {
	env, dial, imports, config listFlag
	http, insecure             listFlag
	secrets                    secretFlag
	tlsCA                      string
	proxy                      bool
	json, verbose, fresh       bool
	budget                     time.Duration
	memory                     string
	cacheDir                   string
	python                     string
	name                       string
	tool, manifest             string
}

func (f *probeRunFlags) bind(fs *flag.FlagSet) {
	fs.Var(&f.env, "env", "grant reading the environment variable `NAME` (or pattern, AWS_*); repeatable")
	fs.Var(&f.dial, "dial", "grant connecting to `ADDR` (host:port, unix:/path, or a pattern); repeatable")
	fs.Var(&f.imports, "import", "grant looking up `SPEC` (py:psycopg2, bin:*, lib:...); repeatable")
	fs.Var(&f.http, "http", "grant requesting URLs under `URL-PREFIX` (https://host/path/, http://127.0.0.1:*/, unix:/path.sock:/_ping); repeatable")
	fs.Var(&f.secrets, "secret", "grant sending the variable of `NAME=DEST` as ${secret:NAME}, to DEST only (127.0.0.1:6379, tls:host:port, unix:/path, https://host/path/), never readable by the probe; repeatable, NAME again adds a destination")
	fs.Var(&f.insecure, "insecure", "grant TLS without verification to `ADDR` (host:port, or a pattern), also granted by --dial or --http; repeatable")
	fs.StringVar(&f.tlsCA, "tls-ca", "", "verify the probe's TLS peers against the PEM certificates in `FILE`, not the system roots")
	fs.BoolVar(&f.proxy, "proxy", false, "send the probe's HTTP requests through the proxy HTTPS_PROXY, HTTP_PROXY and NO_PROXY name (default: none)")
	fs.Var(&f.config, "config", "set the probe config `K=V`; repeatable")
	fs.BoolVar(&f.json, "json", false, "print the result as JSON")
	fs.BoolVar(&f.verbose, "v", false, "also print the probe's output and logs")
	fs.BoolVar(&f.fresh, "fresh", false, "run on a fresh instance, instantiated inside the budget (no warm-up)")
	fs.DurationVar(&f.budget, "budget", limits.MaxBudget, "the probe's budget (at most 100ms)")
	fs.StringVar(&f.memory, "memory", "32MiB", "memory cap per probe instance")
	fs.StringVar(&f.cacheDir, "cache-dir", defaultCacheDir(), "where compiled probes are kept (\"\" for none; env GATE_CACHE_DIR)")
	fs.StringVar(&f.python, "python", "python3", "the Python whose import path answers py: specs")
	fs.StringVar(&f.name, "name", "", "the probe's name in reasons and errors (default: TARGET)")
	fs.StringVar(&f.tool, "tool", "", "run the probe of the manifest's tool (or server) `NAME`, with its grants, config and budget")
	fs.StringVar(&f.manifest, "m", "", "the manifest of --tool (default $GATE_MANIFEST, else ./gate.toml)")
}

func probeRun(args []string, stdout, stderr io.Writer) int {
	var f probeRunFlags
	fs := newCommand("gatectl probe run", probeRunSynopsis, stdout, stderr)
	f.bind(fs.FlagSet)
	pos, code, done := fs.parse(args)
	if done {
		return code
	}
	if f.tool != "" {
		return probeRunTool(fs, &f, pos, stdout, stderr)
	}
	if fs.set("m") {
		fmt.Fprintln(stderr, "gatectl probe run: -m goes with --tool NAME")
		return exitUsage
	}
	if len(pos) != 1 {
		fmt.Fprintf(stderr, "gatectl probe run: want one TARGET, got %d\n\nUsage: %s\n", len(pos), probeRunSynopsis)
		return exitUsage
	}
	target := pos[0]
	cfg, err := parseConfig(f.config)
	if err != nil {
		fmt.Fprintf(stderr, "gatectl probe run: %v\n", err)
		return exitUsage
	}
	memory, err := parseSize(f.memory)
	if err != nil {
		fmt.Fprintf(stderr, "gatectl probe run: --memory: %v\n", err)
		return exitUsage
	}
	name := f.name
	if name == "" {
		name = target
	}
	pcfg := runtime.ProbeConfig{
		Grants: hostfuncs.Grants{Env: f.env, Dial: f.dial, Import: f.imports, HTTP: f.http, Secrets: f.secrets, Insecure: f.insecure},
		Proxy:  f.proxy,
	}
	if f.tlsCA != "" {
		if pcfg.TLSRootCAs, err = host.LoadTLSCA(f.tlsCA); err != nil {
			fmt.Fprintf(stderr, "gatectl probe run: --tls-ca: %v\n", err)
			return exitUsage
		}
	}

	ctx := context.Background()
	engine, err := runtime.NewEngine(ctx, withProgress(newEngineConfig().
		WithBudget(f.budget).
		WithMemoryLimit(memory).
		WithCacheDir(f.cacheDir).
		WithPython(f.python).
		WithWarmup(!f.fresh), stderr))
	if err != nil {
		fmt.Fprintf(stderr, "gatectl probe run: %v\n", err)
		return exitUsage
	}
	defer engine.Close(ctx)

	var probe *runtime.Probe
	if isModulePath(target) {
		var m *runtime.Module
		if m, err = engine.CompileFile(ctx, target); err == nil {
			pcfg.Config = cfg
			probe, err = engine.NewProbe(ctx, name, m, pcfg)
		}
	} else {
		if len(cfg) > 0 {
			err = errors.New("--config does not apply to a standard probe: its target is its config")
		} else {
			// The shorthand's own grants (its secrets among them) are
			// merged with the flags' by StandardProbe.
			probe, err = engine.StandardProbe(ctx, name, target, pcfg)
		}
	}
	if err != nil {
		fmt.Fprintf(stderr, "gatectl probe run: %v\n", err)
		return exitUsage
	}

	res := probe.Run(ctx)
	if f.json {
		writeJSON(stdout, resultJSON(name, probe, res))
	} else {
		printResult(stdout, name, res, f.verbose, f.verbose)
	}
	return outcomeCode(res)
}

// outcomeCode is probe run's exit code for a result.
func outcomeCode(res runtime.Result) int {
	switch res.Outcome {
	case runtime.Available:
		return exitOK
	case runtime.Unavailable:
		return exitUnavailable
	}
	return exitProbeError
}

// isModulePath tells a file from a shorthand: a shorthand's kind is one of
// a few words followed by a colon; anything else ending in .wasm or
// holding a path separator before any colon is a file. A URL
// ("https://host/probe.wasm") is an http shorthand, whatever it ends in.
func isModulePath(target string) bool {
	if kind, _, ok := strings.Cut(target, "://"); ok && !strings.ContainsAny(kind, `/\.`) {
		return false
	}
	if strings.HasSuffix(target, ".wasm") {
		return true
	}
	kind, _, ok := strings.Cut(target, ":")
	return !ok || strings.ContainsRune(kind, filepath.Separator)
}

func parseConfig(kvs []string) (map[string]string, error) {
	if len(kvs) == 0 {
		return nil, nil
	}
	cfg := make(map[string]string, len(kvs))
	for _, kv := range kvs {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || k == "" {
			return nil, fmt.Errorf("--config %q: want KEY=VALUE", kv)
		}
		cfg[k] = v
	}
	return cfg, nil
}

// parseSize reads "32MiB", "512KiB", "1GiB", "65536".
func parseSize(s string) (uint64, error) {
	units := []struct {
		suffix string
		mult   uint64
	}{{"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10}, {"B", 1}}
	num, mult := s, uint64(1)
	for _, u := range units {
		if strings.HasSuffix(s, u.suffix) {
			num, mult = strings.TrimSpace(strings.TrimSuffix(s, u.suffix)), u.mult
			break
		}
	}
	var n uint64
	if _, err := fmt.Sscanf(num, "%d", &n); err != nil || fmt.Sprint(n) != num {
		return 0, fmt.Errorf("%q: want a size like 32MiB, 512KiB or 65536", s)
	}
	return n * mult, nil
}

// printResult prints a probe's answer for people; logs adds its log
// entries, verbose its output and error detail too. Everything the probe
// or its name controls is escaped (safetext.Terminal).
func printResult(w io.Writer, name string, res runtime.Result, logs, verbose bool) {
	name = safetext.Terminal(name)
	how := "fresh instance"
	if !res.Fresh {
		how = "reused instance"
	}
	switch res.Outcome {
	case runtime.Available:
		fmt.Fprintf(w, "%s: available (%s, %s)\n", name, roundDuration(res.Elapsed), how)
	case runtime.Unavailable:
		reason := safetext.Terminal(res.Reason)
		if reason == "" {
			reason = "(the probe gave no reason)"
		}
		fmt.Fprintf(w, "%s: unavailable: %s (%s, %s)\n", name, reason, roundDuration(res.Elapsed), how)
	default:
		fmt.Fprintf(w, "%s: error: %s (%s)\n", name, safetext.Terminal(res.Reason), roundDuration(res.Elapsed))
	}
	for _, d := range res.Denials {
		fmt.Fprintf(w, "  denied: %s\n", safetext.Terminal(d))
	}
	for _, n := range res.Notes {
		fmt.Fprintf(w, "  note: %s\n", safetext.Terminal(n))
	}
	if logs || verbose {
		for _, l := range res.Logs {
			fmt.Fprintf(w, "  log %s: %s\n", l.Level, safetext.Terminal(l.Message))
		}
		if res.LogsDropped > 0 {
			fmt.Fprintf(w, "  log: %d more entries dropped\n", res.LogsDropped)
		}
	}
	if !verbose {
		return
	}
	if res.Output != "" {
		fmt.Fprintf(w, "  output:\n    %s\n", indentLines(safetext.TerminalLines(strings.TrimRight(res.Output, "\n"))))
	}
	var perr *runtime.ProbeError
	if errors.As(res.Err, &perr) && perr.Detail() != "" {
		fmt.Fprintf(w, "  detail:\n    %s\n", indentLines(safetext.TerminalLines(perr.Detail())))
	}
}

func indentLines(s string) string { return strings.ReplaceAll(s, "\n", "\n    ") }

func roundDuration(d time.Duration) time.Duration {
	switch {
	case d < time.Millisecond:
		return d.Round(time.Microsecond)
	case d < time.Second:
		return d.Round(10 * time.Microsecond)
	}
	return d.Round(time.Millisecond)
}

// probeResultJSON is the stable shape of `gatectl probe run --json`.
type probeResultJSON struct {
	Probe       string                `json:"probe"`
	Module      string                `json:"module"`
	SHA256      string                `json:"sha256"`
	Outcome     string                `json:"outcome"` // available | unavailable | error
	Reason      string                `json:"reason"`
	ElapsedMS   float64               `json:"elapsed_ms"`
	QueuedMS    float64               `json:"queued_ms"`
	Fresh       bool                  `json:"fresh"`
	Error       *statusview.ErrorInfo `json:"error"`
	Denials     []string              `json:"denials"`
	Notes       []string              `json:"notes"`
	Logs        []logJSON             `json:"logs"`
	LogsDropped int                   `json:"logs_dropped"`
	Output      string                `json:"output"`
	Grants      grantsJSON            `json:"grants"`
	// CodeInfo adds "code", "retryable" and "action" to an answer that is
	// not available.
	*statusview.CodeInfo
}

type logJSON struct {
	Level   string `json:"level"`
	Message string `json:"message"`
}

type grantsJSON struct {
	Env      []string            `json:"env"`
	Dial     []string            `json:"dial"`
	Import   []string            `json:"import"`
	HTTP     []string            `json:"http"`
	Secrets  map[string][]string `json:"secrets"` // name -> destinations
	Insecure []string            `json:"insecure"`
}

// resultJSON is a run's --json shape; p is nil for a tool without a probe.
func resultJSON(name string, p *runtime.Probe, res runtime.Result) probeResultJSON {
	var g hostfuncs.Grants
	var module, sha string
	if p != nil {
		g, module, sha = p.Grants(), p.Module().Name(), p.Module().SHA256()
	}
	out := probeResultJSON{
		Probe:       name,
		Module:      module,
		SHA256:      sha,
		Outcome:     res.Outcome.String(),
		Reason:      res.Reason,
		ElapsedMS:   float64(res.Elapsed.Microseconds()) / 1000,
		QueuedMS:    float64(res.Queued.Microseconds()) / 1000,
		Fresh:       res.Fresh,
		Denials:     nonNil(res.Denials),
		Notes:       nonNil(res.Notes),
		Logs:        []logJSON{},
		LogsDropped: res.LogsDropped,
		Output:      res.Output,
		Grants: grantsJSON{Env: nonNil(g.Env), Dial: nonNil(g.Dial), Import: nonNil(g.Import),
			HTTP: nonNil(g.HTTP), Secrets: nonNilMap(g.Secrets), Insecure: nonNil(g.Insecure)},
	}
	for _, l := range res.Logs {
		out.Logs = append(out.Logs, logJSON{Level: l.Level.String(), Message: l.Message})
	}
	out.Error = statusview.Error(res.Err)
	out.CodeInfo = statusview.Code(res.Code)
	return out
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

func nonNilMap(m map[string][]string) map[string][]string {
	if m == nil {
		return map[string][]string{}
	}
	return m
}

func writeJSON(w io.Writer, v any) {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v)
}

const probeInspectSynopsis = `gatectl probe inspect FILE.wasm [--json] [--memory SIZE]

Shows a module's imports, exports, memory and entry point, the probe ABI
version it needs (2 when it imports a function version 2 added, such as
gate.connect or gate.http; else 1), and every way it breaks the ABI.
Exit codes: 0 conforms, 1 breaks the ABI, 2 unreadable or not WebAssembly.`

// probeInspectFlags are probe inspect's flags.
type probeInspectFlags struct {
	json   bool
	memory string
}

func (f *probeInspectFlags) bind(fs *flag.FlagSet) {
	fs.BoolVar(&f.json, "json", false, "print the inspection as JSON")
	fs.StringVar(&f.memory, "memory", "32MiB", "the memory cap to check the module's minimum against")
}

func probeInspect(args []string, stdout, stderr io.Writer) int {
	var f probeInspectFlags
	fs := newCommand("gatectl probe inspect", probeInspectSynopsis, stdout, stderr)
	f.bind(fs.FlagSet)
	pos, code, done := fs.parse(args)
	if done {
		return code
	}
	if len(pos) != 1 {
		fmt.Fprintf(stderr, "gatectl probe inspect: want one FILE.wasm, got %d\n\nUsage: %s\n", len(pos), probeInspectSynopsis)
		return exitUsage
	}
	memory, err := parseSize(f.memory)
	if err != nil {
		fmt.Fprintf(stderr, "gatectl probe inspect: --memory: %v\n", err)
		return exitUsage
	}
	cfg := newEngineConfig().WithMemoryLimit(memory)
	b, err := safefile.Read(pos[0], int64(cfg.MaxModuleSize()))
	if err != nil {
		fmt.Fprintf(stderr, "gatectl probe inspect: %v\n", err)
		if errors.Is(err, safefile.ErrTooLarge) {
			return exitUnavailable // a module, but one gate refuses to load
		}
		return exitUsage
	}
	info, err := inspect.Module(b, inspect.Limits{MaxModule: cfg.MaxModuleSize(), MemoryLimit: cfg.MemoryLimit()})
	if err != nil {
		fmt.Fprintf(stderr, "gatectl probe inspect: %s: %v\n", pos[0], err)
		return exitUsage
	}
	if f.json {
		writeJSON(stdout, inspectJSON(pos[0], info))
	} else {
		printInspection(stdout, pos[0], info)
	}
	if len(info.Violations) > 0 {
		return exitUnavailable
	}
	return exitOK
}

type inspectionJSON struct {
	File       string              `json:"file"`
	Size       int                 `json:"size"`
	SHA256     string              `json:"sha256"`
	Entry      string              `json:"entry"`
	ABIVersion int                 `json:"abi_version"`
	Conforms   bool                `json:"conforms"`
	Imports    []inspect.Item      `json:"imports"`
	Exports    []inspect.Item      `json:"exports"`
	Memory     *inspect.MemoryInfo `json:"memory"`
	Violations []inspect.Violation `json:"violations"`
}

func inspectJSON(file string, info *inspect.Inspection) inspectionJSON {
	out := inspectionJSON{
		File: file, Size: info.Size, SHA256: info.SHA256, Entry: string(info.Entry),
		ABIVersion: info.ABIVersion, Conforms: len(info.Violations) == 0,
		Imports: info.Imports, Exports: info.Exports, Memory: info.Memory, Violations: info.Violations,
	}
	if out.Imports == nil {
		out.Imports = []inspect.Item{}
	}
	if out.Exports == nil {
		out.Exports = []inspect.Item{}
	}
	if out.Violations == nil {
		out.Violations = []inspect.Violation{}
	}
	return out
}

// printInspection prints an inspection for people. Import and export
// names are the module's to choose, any bytes at all: they are escaped.
func printInspection(w io.Writer, file string, info *inspect.Inspection) {
	t := safetext.Terminal
	fmt.Fprintf(w, "%s: %d bytes, sha256 %s\n", t(file), info.Size, info.SHA256)
	entry := string(info.Entry)
	if entry == "" {
		entry = "none"
	}
	fmt.Fprintf(w, "entry:   %s\n", t(entry))
	if m := info.Memory; m != nil {
		max := "no max"
		if m.HasMax {
			max = fmt.Sprintf("max %d", m.MaxPages)
		}
		fmt.Fprintf(w, "memory:  min %d pages, %s, exported=%t\n", m.MinPages, max, m.Exported)
	} else {
		fmt.Fprintln(w, "memory:  none")
	}
	fmt.Fprintf(w, "imports: %d\n", len(info.Imports))
	for _, it := range info.Imports {
		fmt.Fprintf(w, "  %s.%s  %s\n", t(it.Module), t(it.Name), t(strings.TrimSpace(it.Kind+" "+it.Type)))
	}
	fmt.Fprintf(w, "exports: %d\n", len(info.Exports))
	for _, it := range info.Exports {
		fmt.Fprintf(w, "  %s  %s\n", t(it.Name), t(strings.TrimSpace(it.Kind+" "+it.Type)))
	}
	// The version the module needs: a v1 module's verdict reads as it
	// always has.
	if len(info.Violations) == 0 {
		fmt.Fprintf(w, "ABI v%d:  conforms\n", info.ABIVersion)
		return
	}
	fmt.Fprintf(w, "ABI v%d:  %d violation(s)\n", info.ABIVersion, len(info.Violations))
	for _, v := range info.Violations {
		fmt.Fprintf(w, "  - %s\n", t(v.Msg))
	}
}
