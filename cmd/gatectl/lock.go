package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"github.com/gate-dev/gate/internal/hooks"
	"io"
	"os"
	"os/signal"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/gate-dev/gate/internal/logq"
	"github.com/gate-dev/gate/internal/manifest"
	"github.com/gate-dev/gate/internal/mcpgw"
	"github.com/gate-dev/gate/internal/safetext"
	"github.com/gate-dev/gate/internal/toollock"
	"github.com/gate-dev/gate/runtime"
)

const lockSynopsis = `gatectl mcp lock [-m gate.toml] [--check] [-v] [SERVER...]

Connects to every MCP server the manifest's [[servers]] entries name with
command or url (or to the SERVERs named), lists their tools as the gateway
offers them, and writes beside the manifest (gate.toml: gate.lock) a
SHA-256 of each part of each tool's definition: title, description, input
schema, output schema, annotations. A server with pin = true then offers
only the tools that match; pin = "strict" also hides those the lock does
not know. It prints what it added (+), changed (~, with the parts) and
removed (-). A server it cannot reach keeps its entries; it says so and
exits 1. With --check it writes nothing, and exits 1 when the lock differs
from what the servers offer. Exit codes: 0 done, 1 a server not reached
or (--check) a difference, 2 bad input.`

// lockFlags are mcp lock's flags.
type lockFlags struct {
	manifest       string
	check, verbose bool
}

func (f *lockFlags) bind(fs *flag.FlagSet) {
	fs.StringVar(&f.manifest, "m", "", "the manifest")
	fs.StringVar(&f.manifest, "manifest", "", "the manifest (as -m)")
	fs.BoolVar(&f.check, "check", false, "write nothing: print how the lock differs from what the servers offer, and exit 1 if it does")
	fs.BoolVar(&f.verbose, "v", false, "log what the gateway logs about the servers (their stderr, their state) to stderr")
}

// lockSettle bounds the wait for every server to be listed or to fail:
// the gateway's connect and listing bounds, and a second.
const lockSettle = mcpgw.DefaultConnectTimeout + mcpgw.DefaultListTimeout + time.Second

func mcpLock(args []string, stdout, stderr io.Writer) int {
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGINT)
	defer stop()
	return mcpLockContext(ctx, args, stdout, stderr)
}

// mcpLockContext is mcp lock, stopped early when ctx is done.
func mcpLockContext(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	const cmd = "gatectl mcp lock"
	var f lockFlags
	fs := newCommand(cmd, lockSynopsis, stdout, stderr)
	f.bind(fs.FlagSet)
	names, code, done := fs.parse(args)
	if done {
		return code
	}
	path := manifestPath(f.manifest)
	if refuseStdinManifest(stderr, cmd, path, "the lock file goes beside the manifest") {
		return exitUsage
	}
	log := logq.New(stderr, cmd)
	defer log.Close(logClose)
	svc, err := runtime.OpenService(ctx, path, runtime.NewServiceConfig().WithGate(runtime.NewGateConfig().
		WithEngine(newEngineConfig().WithCacheDir(defaultCacheDir()))))
	if err != nil {
		reportManifestError(log, cmd, path, err)
		return exitUsage
	}
	defer within(logClose, func() { _ = svc.Close(context.Background()) })
	m := hooks.Manifest(svc.Gate())
	servers, ok := upstreamTargets(cmd, m, names, path, log)
	if !ok {
		return exitUsage
	}
	// The manifest's path as given names the lock file in what is
	// printed (gate.lock, not /home/me/project/gate.lock).
	lockFile := toollock.PathFor(path)
	old, err := toollock.Read(lockFile)
	switch {
	case toollock.IsMissing(err):
		old = &toollock.File{}
	case err != nil:
		fmt.Fprintf(log, "%s: %s; fix it, or remove it to lock every server afresh\n", cmd, safetext.Terminal(err.Error()))
		return exitUsage
	}

	cfg := mcpgw.NewConfig().WithVersion(version())
	if f.verbose {
		cfg = cfg.WithLog(log)
	}
	reached := listUpstreams(ctx, svc, mcpgw.New(svc, cfg), servers)

	diff := lockDiff{file: old}
	for _, s := range servers {
		r := reached[s]
		if !r.ready {
			diff.unreached = append(diff.unreached, fmt.Sprintf("%s: not reached (%s); its %d entries are kept", s, r.why, len(old.Server(s))))
			continue
		}
		diff.server(s, r.entries)
	}
	if len(names) == 0 {
		// Servers the manifest no longer names go.
		for _, s := range old.Servers() {
			if !slices.Contains(servers, s) {
				diff.server(s, nil)
			}
		}
	}
	diff.print(stdout)
	if f.check {
		switch {
		case len(diff.lines) > 0:
			fmt.Fprintf(stdout, "%s differs from what the servers offer: gatectl mcp lock accepts it\n", lockFile)
			return exitUnavailable
		case len(diff.unreached) > 0:
			return exitUnavailable
		}
		fmt.Fprintf(stdout, "%s matches what %d server(s) offer\n", lockFile, len(servers))
		return exitOK
	}
	out := toollock.Format(diff.file)
	if had, err := os.ReadFile(lockFile); err != nil || !bytes.Equal(had, out) {
		if err := toollock.Write(lockFile, diff.file); err != nil {
			fmt.Fprintf(log, "%s: %s\n", cmd, safetext.Terminal(err.Error()))
			return exitUsage
		}
		fmt.Fprintf(stdout, "wrote %s: %d tool(s) of %d server(s)\n", lockFile, len(diff.file.Entries), len(diff.file.Servers()))
	} else {
		fmt.Fprintf(stdout, "%s is up to date: %d tool(s) of %d server(s)\n", lockFile, len(diff.file.Entries), len(diff.file.Servers()))
	}
	if len(diff.unreached) > 0 {
		return exitUnavailable
	}
	return exitOK
}

// upstreamTargets is the upstream servers of m that cmd works on: those
// named, or every one. A name that is not an upstream server is an error
// that names it, with the nearest names.
func upstreamTargets(cmd string, m *manifest.Manifest, names []string, path string, log io.Writer) ([]string, bool) {
	var all []string
	for _, s := range m.Servers {
		if s.Upstream != nil {
			all = append(all, s.Name)
		}
	}
	if len(names) == 0 {
		if len(all) == 0 {
			fmt.Fprintf(log, "%s: %s names no MCP server ([[servers]] with command or url)\n", cmd, safetext.Terminal(path))
			return nil, false
		}
		return all, true
	}
	good := true
	for _, n := range names {
		if !slices.Contains(all, n) {
			fmt.Fprintf(log, "%s: %s\n", cmd, safetext.Terminal(fmt.Sprintf("%s has no MCP server named %q%s", path, n, nearNamesIn(n, all))))
			good = false
		}
	}
	return names, good
}

// reach is what listing one server came to.
type reach struct {
	ready   bool
	entries []toollock.Entry
	why     string
}

// listUpstreams runs gw until each of servers is listed or has failed
// once (within lockSettle), and returns what each came to.
func listUpstreams(ctx context.Context, svc *runtime.Service, gw *mcpgw.Gateway, servers []string) map[string]reach {
	out := map[string]reach{}
	settleUpstreams(ctx, svc, gw, servers, lockSettle, func(first map[string]settled, _ time.Duration) {
		for _, s := range servers {
			entries, ready, why := gw.LockEntries(s)
			if f, ok := first[s]; ok && !ready && f.event.Reason != "" {
				why = "it is down: " + f.event.Reason
			} else if !ok && !ready {
				why = fmt.Sprintf("%s after %v", why, lockSettle)
			}
			out[s] = reach{ready: ready, entries: entries, why: safetext.Terminal(why)}
		}
	})
	return out
}

// lockDiff is the lock file as it becomes, and the lines that say how.
type lockDiff struct {
	file      *toollock.File
	lines     []string // + added, ~ changed, - removed
	unreached []string
}

// server replaces server's entries with fresh, noting each difference.
func (d *lockDiff) server(server string, fresh []toollock.Entry) {
	old := d.file.Server(server)
	for _, e := range fresh {
		sums, known := d.file.Lookup(server, e.Tool)
		switch {
		case !known:
			d.lines = append(d.lines, fmt.Sprintf("+ %s %s", server, e.Tool))
		case sums != e.Sums:
			parts := sums.Differ(e.Sums)
			names := make([]string, len(parts))
			for i, p := range parts {
				names[i] = p.String()
			}
			d.lines = append(d.lines, fmt.Sprintf("~ %s %s: %s", server, e.Tool, strings.Join(names, ", ")))
		}
	}
	for _, e := range old {
		if !slices.ContainsFunc(fresh, func(f toollock.Entry) bool { return f.Tool == e.Tool }) {
			d.lines = append(d.lines, fmt.Sprintf("- %s %s", server, e.Tool))
		}
	}
	d.file = d.file.Replace(server, fresh)
}

func (d *lockDiff) print(w io.Writer) {
	for _, l := range d.lines {
		fmt.Fprintln(w, l)
	}
	for _, u := range d.unreached {
		fmt.Fprintf(w, "! %s\n", u)
	}
}
