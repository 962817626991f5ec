package main

import (
	"context"
	"fmt"
	"github.com/gate-dev/gate/internal/hooks"
	"io"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/gate-dev/gate/internal/manifest"
	"github.com/gate-dev/gate/internal/safetext"
	"github.com/gate-dev/gate/runtime"
)

// probeRunTool is `gatectl probe run --tool NAME`: the probe of one tool
// (or server) of the manifest, run the way gate runs it, for the user who
// wants to know why a tool is hidden. Only that probe is compiled, under
// the manifest's [runtime] settings, so a slow module elsewhere in the
// manifest does not make the answer wait.
func probeRunTool(fs *command, f *probeRunFlags, pos []string, stdout, stderr io.Writer) int {
	const cmd = "gatectl probe run"
	if len(pos) > 0 {
		fmt.Fprintf(stderr, "%s: --tool %s takes no TARGET, got %q\n", cmd, f.tool, pos[0])
		return exitUsage
	}
	// The manifest decides what the probe gets; a flag that changed it
	// would answer a question nobody asked.
	for _, flag := range []string{"env", "dial", "import", "http", "secret", "insecure", "tls-ca", "proxy", "config", "budget", "memory", "python", "name"} {
		if fs.set(flag) {
			fmt.Fprintf(stderr, "%s: --%s does not go with --tool: the manifest says what the probe of %s gets\n", cmd, flag, f.tool)
			return exitUsage
		}
	}
	path := manifestPath(f.manifest)
	m, err := loadManifest(path)
	if err != nil {
		reportManifestError(stderr, cmd, path, err)
		return exitUsage
	}
	one := *m
	one.Skills, one.Tools, one.Servers = manifest.Skills{}, nil, nil
	var probeSpec *manifest.Probe
	for _, t := range m.Tools {
		if t.Name == f.tool {
			one.Tools, probeSpec = []manifest.Tool{t}, t.Probe
		}
	}
	for _, s := range m.Servers {
		if s.Name == f.tool && one.Tools == nil {
			one.Servers, probeSpec = []manifest.Server{s}, s.Probe
		}
	}
	if one.Tools == nil && one.Servers == nil {
		fmt.Fprintf(stderr, "%s: %s has no tool or server named %q%s\n", cmd, shownManifest(path), f.tool, nearNames(f.tool, m))
		return exitUsage
	}

	ctx := context.Background()
	cfg := runtime.NewGateConfig().
		WithEngine(withProgress(newEngineConfig().WithCacheDir(f.cacheDir).WithWarmup(!f.fresh), stderr))
	g, err := hooks.OpenManifest[*runtime.Gate](ctx, &one, cfg)
	if err != nil {
		reportManifestError(stderr, cmd, path, err)
		return exitUsage
	}
	defer g.Close(ctx)
	t, ok := g.Tools().Get(f.tool)
	if !ok {
		t, _ = g.Servers().Get(f.tool)
	}
	if t.Probe == nil {
		res := runtime.Result{Outcome: runtime.Available}
		if f.json {
			out := resultJSON(f.tool, nil, res)
			out.Module = "(none: always available)"
			writeJSON(stdout, out)
		} else {
			fmt.Fprintf(stdout, "%s: available (no probe: always available)\n", f.tool)
		}
		return exitOK
	}

	res := t.Probe.Run(ctx)
	probe, _ := t.Probe.(*runtime.Probe)
	if f.json {
		writeJSON(stdout, resultJSON(f.tool, probe, res))
		return outcomeCode(res)
	}
	printResult(stdout, f.tool, res, true, f.verbose)
	if probe != nil {
		printProbeSetup(stdout, probeSpec, probe)
	}
	return outcomeCode(res)
}

// printProbeSetup says what the probe ran with, so a denial can be read
// against the grants that caused it. ABI v2's grants and settings are
// shown when the probe has them.
func printProbeSetup(w io.Writer, spec *manifest.Probe, p *runtime.Probe) {
	t := safetext.Terminal
	list := func(l []string) string {
		if len(l) == 0 {
			return "-"
		}
		return t(strings.Join(l, ", "))
	}
	g := p.Grants()
	fmt.Fprintf(w, "  probe: %s, budget %s\n", t(spec.Label()), p.Budget().Round(time.Microsecond))
	v2 := ""
	if len(g.HTTP)+len(g.Secrets)+len(g.Insecure) > 0 {
		v2 = fmt.Sprintf("; http %s; secrets %s; insecure %s", list(g.HTTP), list(secretPairs(g.Secrets)), list(g.Insecure))
	}
	fmt.Fprintf(w, "  grants: env %s; dial %s; import %s%s\n", list(g.Env), list(g.Dial), list(g.Import), v2)
	if spec.TLSCA != "" {
		fmt.Fprintf(w, "  tls_ca: %s\n", t(spec.TLSCA))
	}
	if spec.Proxy {
		fmt.Fprintln(w, "  proxy: as HTTPS_PROXY, HTTP_PROXY and NO_PROXY say")
	}
	if cfg := p.Config(); len(cfg) > 0 {
		keys := make([]string, 0, len(cfg))
		for k := range cfg {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for i, k := range keys {
			v := cfg[k]
			if v == "" || strings.ContainsAny(v, " \"") {
				v = strconv.Quote(v) // a value with spaces stays one value
			}
			keys[i] = k + "=" + v
		}
		fmt.Fprintf(w, "  config: %s\n", t(strings.Join(keys, " ")))
	}
}

// nearNames is what follows the error for a name m has no tool or server
// of (nearNamesIn).
func nearNames(name string, m *manifest.Manifest) string {
	var all []string
	for _, t := range m.Tools {
		all = append(all, t.Name)
	}
	for _, s := range m.Servers {
		all = append(all, s.Name)
	}
	return nearNamesIn(name, all)
}

// nearNamesIn is what follows the error for a name that is not one of
// all: the closest names, or all of them when there are few and none is
// close.
func nearNamesIn(name string, all []string) string {
	if len(all) == 0 {
		return " (it has none)"
	}
	if s := didYouMean(name, all); s != "" {
		return s
	}
	if len(all) <= 10 {
		return "; it has " + strings.Join(all, ", ")
	}
	return fmt.Sprintf("; it has %s and %d more", strings.Join(all[:10], ", "), len(all)-10)
}
