package main

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/gate-dev/gate/internal/hooks"
	"github.com/gate-dev/gate/internal/manifest"
	"github.com/gate-dev/gate/runtime"
)

// stdinManifest is the manifest path that means standard input: -m -.
const stdinManifest = "-"

// stdinName is what messages and positions call a manifest read from
// standard input, as a file's name is used for one read from a file.
const stdinName = "<stdin>"

// manifestStdin is where -m - reads the manifest from: the process's
// standard input. The tests give it what a pipe would.
var manifestStdin io.Reader = os.Stdin

// shownManifest is how messages name the manifest at path.
func shownManifest(path string) string {
	if path == stdinManifest {
		return stdinName
	}
	return path
}

// loadManifest reads and checks the manifest at path, or for "-" the one
// on standard input: read once, to its end, and at most the manifest
// size limit of it (one byte more tells Parse it is over), its relative
// paths resolved against the working directory, as a file's are against
// its own.
func loadManifest(path string) (*manifest.Manifest, error) {
	m, _, err := loadManifestSource(path)
	return m, err
}

// loadManifestSource is loadManifest that also returns, for "-", the
// bytes read from standard input: nothing else holds them, and the
// problems found after parsing show their lines from them.
func loadManifestSource(path string) (*manifest.Manifest, []byte, error) {
	if path != stdinManifest {
		fitMemoryToManifest(path)
		m, err := manifest.Load(path)
		return m, nil, err
	}
	src, err := io.ReadAll(io.LimitReader(manifestStdin, manifest.DefaultMaxBytes+1))
	if err != nil {
		return nil, nil, manifest.Errors{{Pos: manifest.Position{File: stdinName}, Msg: "cannot read manifest: " + err.Error()}}
	}
	fitMemoryToSize(int64(len(src)))
	m, err := manifest.Parse(stdinName, src)
	return m, src, err
}

// openManifestGate is runtime.Open for the manifest at path, or for "-"
// the one on standard input. Like runtime.Open it ends before the runtime
// answers anything: it reads the input that the answers come from. The
// problems of a manifest on standard input show their source lines from
// what was read: there is no file to read them again from.
func openManifestGate(ctx context.Context, path string, cfg runtime.GateConfig) (*runtime.Gate, error) {
	if path != stdinManifest {
		fitMemoryToManifest(path)
		return runtime.Open(ctx, path, cfg)
	}
	m, src, err := loadManifestSource(path)
	if err != nil {
		return nil, err
	}
	g, err := hooks.OpenManifest[*runtime.Gate](ctx, m, cfg)
	if err != nil {
		manifest.ShowSource(err, stdinName, src)
	}
	return g, err
}

// refuseStdinManifest reports, for a command that reads its manifest
// more than once (serve and mcp re-read it when it changes) or needs a
// place beside it (mcp lock's lock file), that -m - is not for it, and
// returns true; false for any other path.
func refuseStdinManifest(w io.Writer, cmd, path, why string) bool {
	if path != stdinManifest {
		return false
	}
	fmt.Fprintf(w, "%s: -m - (the manifest on standard input) is not for this command: %s; give the manifest's file\n", cmd, why)
	return true
}
