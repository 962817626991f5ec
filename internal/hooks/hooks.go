// Package hooks lets gate's own packages (gatectl's lock and probe
// commands, the gateway) reach what package runtime keeps from embedders:
// the manifest a Gate was opened from, and opening a Gate from a manifest
// already parsed. A reader of the answers (gatectl check, the HTTP API's
// status) needs neither: a runtime.Status carries what it prints. An embedder opens a file with runtime.Open and never needs the
// manifest's types, which are gate's own (internal/manifest).
//
// Package runtime sets the functions when it is initialised; they take
// and return runtime's types as any, since runtime imports this package
// and not the other way round.
package hooks

import (
	"context"

	"github.com/gate-dev/gate/internal/manifest"
)

var (
	// gateManifest returns the manifest of a *runtime.Gate, or nil.
	gateManifest func(gate any) *manifest.Manifest
	// openManifest is runtime's Open for a parsed manifest: cfg is a
	// runtime.GateConfig, the result a *runtime.Gate.
	openManifest func(ctx context.Context, m *manifest.Manifest, cfg any) (any, error)
)

// Set is how package runtime hands over its functions, once, at init.
func Set(manifestOf func(gate any) *manifest.Manifest, open func(ctx context.Context, m *manifest.Manifest, cfg any) (any, error)) {
	gateManifest, openManifest = manifestOf, open
}

// Manifest returns the manifest gate (a *runtime.Gate) was opened from,
// or nil for a Gate built in code.
func Manifest(gate any) *manifest.Manifest { return gateManifest(gate) }

// OpenManifest opens a Gate from m with cfg (a runtime.GateConfig) and
// returns it as G, the caller's *runtime.Gate.
func OpenManifest[G any](ctx context.Context, m *manifest.Manifest, cfg any) (G, error) {
	g, err := openManifest(ctx, m, cfg)
	if err != nil {
		var zero G
		return zero, err
	}
	return g.(G), nil
}
