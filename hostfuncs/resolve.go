package hostfuncs

import (
	"context"

	"github.com/gate-dev/gate/internal/grants"
)

// A Resolver answers whether one kind of dependency is present on this host.
//
// Resolvers run inside a probe's time budget, so implementations must not
// start a process per call and should return ctx.Err() promptly once ctx is
// done. One that does not is not waited for: the engine returns at the
// deadline, leaves the call to finish in the background, and asks that
// resolver nothing more until it has.
//
// Files a resolver reads are chosen by configuration that a probe may
// influence (a path in the spec, a directory on sys.path), so the built-in
// ones stat before they open, open only regular files, without blocking,
// and read a bounded amount; a host app's resolver that touches files
// should do the same.
type Resolver interface {
	// Resolve reports whether name (the spec without its "scheme:" prefix)
	// is present. An error means the question could not be answered (for
	// example, the configured Python is missing); callers treat it as "not
	// found" and show the error to the user.
	Resolve(ctx context.Context, name string) (bool, error)
}

// ResolverFunc adapts an ordinary function to the Resolver interface.
type ResolverFunc func(ctx context.Context, name string) (bool, error)

// Resolve calls f(ctx, name).
func (f ResolverFunc) Resolve(ctx context.Context, name string) (bool, error) {
	return f(ctx, name)
}

// ErrBadSpec is wrapped by errors for specs that are malformed: no
// "scheme:" prefix, an empty name, ".." anywhere in the name, a path name
// that is not clean, or a name the scheme's resolver rejects (a relative
// path for bin: or lib:, an invalid module name for py:).
var ErrBadSpec = grants.ErrBadSpec
