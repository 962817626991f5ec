// Package resolve answers gate.import: the resolvers of the built-in
// schemes ("bin:", "py:", "lib:") and the table of schemes, built-in and
// registered by a host app (runtime.EngineConfig.WithResolver), that the
// host asks.
package resolve

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sort"
	"strings"
	"sync"

	"github.com/gate-dev/gate/hostfuncs"
	"github.com/gate-dev/gate/internal/grants"
)

// Preparer is implemented by resolvers with a one-time setup (the Python
// resolver starts Python once). The engine calls Prepare when it loads a
// probe that may use the scheme, so the setup cost does not land inside a
// probe's budget. Prepare must be safe to call many times and concurrently
// with Resolve; a Prepare cut short by ctx may be retried.
type Preparer interface {
	Prepare(ctx context.Context) error
}

// ErrUnknownScheme is wrapped by errors for specs whose scheme has no
// registered resolver.
var ErrUnknownScheme = errors.New("unknown import scheme")

// Options configures NewResolvers. The zero value is valid and
// uses the defaults below.
type Options struct {
	// Python is the interpreter that decides "py:" specs: a name looked up
	// on PATH or a path. Default "python3", found on the PATH of the
	// process environment captured at construction, because that is the
	// Python an agent's tools would most likely run.
	Python string
	// PathEnv is the PATH searched for "bin:" specs. Default
	// os.Getenv("PATH"), read once at construction so that answers do not
	// change under a running probe.
	PathEnv string
	// CacheDir is where resolvers keep what they learned between
	// processes: the "py" resolver keeps what Python reported at its
	// start in CacheDir/gate-pyfacts-v1 and reuses it while the
	// interpreter and environment are unchanged, so a new process need not
	// start Python (see NewPythonResolverCached). It may be the engine's
	// compilation cache directory. Default "": nothing is kept.
	CacheDir string
}

// Resolvers maps import schemes ("bin", "py", "lib", ...) to resolvers.
// The zero value is not usable; use NewResolvers. It is safe for concurrent
// use, and Register may be called while other goroutines resolve.
type Resolvers struct {
	mu    sync.RWMutex
	byKey map[string]*resolverEntry
}

// NewResolvers returns Resolvers with the built-in schemes registered:
// "bin" (NewBinResolver), "py" (NewPythonResolver) and "lib"
// (NewLibResolver). Nothing is started here; the Python runs on the first
// Prepare or Resolve of a "py:" spec.
func NewResolvers(opts Options) *Resolvers {
	pathEnv := opts.PathEnv
	if pathEnv == "" {
		pathEnv = os.Getenv("PATH")
	}
	return &Resolvers{byKey: map[string]*resolverEntry{
		"bin": {scheme: "bin", res: NewBinResolver(pathEnv)},
		"py":  {scheme: "py", res: NewPythonResolverCached(opts.Python, opts.CacheDir)},
		"lib": {scheme: "lib", res: NewLibResolver()},
	}}
}

// Register makes res answer specs of the given scheme. The scheme must
// match [a-z][a-z0-9+.-]* (the URI scheme syntax, lower case only, so that
// a spec has one spelling). Registering an existing scheme, built-in ones
// included, replaces its resolver: that is how an embedder substitutes,
// say, a "py" resolver for a virtualenv. Calls already running keep the
// resolver they started with.
func (r *Resolvers) Register(scheme string, res hostfuncs.Resolver) error {
	if !grants.ValidScheme(scheme) {
		return fmt.Errorf("register import scheme %q: %w: scheme must match [a-z][a-z0-9+.-]*", scheme, grants.ErrBadSpec)
	}
	if res == nil {
		return fmt.Errorf("register import scheme %q: nil resolver", scheme)
	}
	r.mu.Lock()
	if r.byKey == nil {
		r.byKey = map[string]*resolverEntry{} // spare a zero Resolvers a panic
	}
	r.byKey[scheme] = &resolverEntry{scheme: scheme, res: res}
	r.mu.Unlock()
	return nil
}

// Resolve splits spec into "scheme:name" and asks that scheme's resolver
// whether name is present. A spec without a colon, with an invalid or empty
// scheme, or with an empty name yields an error wrapping grants.ErrBadSpec; a scheme
// with no resolver yields one wrapping ErrUnknownScheme. Errors from the
// resolver are returned prefixed with the spec unless they already name it.
//
// When ctx has a deadline or can be cancelled, Resolve returns once it is
// done whether or not the resolver has: the resolver's call is then left
// to finish on its own, and until it returns every spec of that scheme is
// answered with an error wrapping ErrResolverBusy instead of another call
// that would pile up behind it. A panic in a resolver is returned as an
// error.
func (r *Resolvers) Resolve(ctx context.Context, spec string) (bool, error) {
	if err := ctx.Err(); err != nil {
		return false, err
	}
	scheme, name, err := grants.SplitSpec(spec)
	if err != nil {
		return false, err
	}
	r.mu.RLock()
	e, ok := r.byKey[scheme]
	r.mu.RUnlock()
	if !ok {
		return false, fmt.Errorf("import %q: %w %q", spec, ErrUnknownScheme, scheme)
	}
	found, err := e.resolve(ctx, name)
	if err != nil {
		if !strings.HasPrefix(err.Error(), spec+":") {
			err = fmt.Errorf("%s: %w", spec, err)
		}
		return false, err
	}
	return found, nil
}

// Prepare runs the one-time setup of the resolvers of the given schemes
// that implement Preparer; with no schemes it prepares every registered
// resolver. Unknown schemes yield errors wrapping ErrUnknownScheme. It
// continues past failures and returns them joined, so one broken scheme
// does not leave the others cold.
func (r *Resolvers) Prepare(ctx context.Context, schemes ...string) error {
	r.mu.RLock()
	if len(schemes) == 0 {
		for s := range r.byKey {
			schemes = append(schemes, s)
		}
		sort.Strings(schemes)
	}
	todo := make([]hostfuncs.Resolver, 0, len(schemes))
	var errs []error
	for _, s := range schemes {
		e, ok := r.byKey[s]
		if !ok {
			errs = append(errs, fmt.Errorf("prepare %q: %w %q", s, ErrUnknownScheme, s))
			continue
		}
		todo = append(todo, e.res)
	}
	r.mu.RUnlock()
	for _, res := range todo {
		if err := ctx.Err(); err != nil {
			errs = append(errs, err)
			break
		}
		if p, ok := res.(Preparer); ok {
			if err := p.Prepare(ctx); err != nil {
				errs = append(errs, err)
			}
		}
	}
	return errors.Join(errs...)
}

// Schemes returns the registered schemes in sorted order.
func (r *Resolvers) Schemes() []string {
	r.mu.RLock()
	out := make([]string, 0, len(r.byKey))
	for s := range r.byKey {
		out = append(out, s)
	}
	r.mu.RUnlock()
	sort.Strings(out)
	return out
}

// resolverCheckPathName validates a bin: or lib: name: an absolute, clean
// path without ".." or a bare file name. Relative paths with a slash are
// rejected because their meaning would depend on the gate process's
// working directory, not the tool's.
func resolverCheckPathName(scheme, name string) error {
	switch {
	case name == "":
		return fmt.Errorf("%s:%s: %w: empty name", scheme, name, grants.ErrBadSpec)
	case strings.IndexByte(name, 0) >= 0:
		return fmt.Errorf("%s:%q: %w: NUL in name", scheme, name, grants.ErrBadSpec)
	case strings.HasPrefix(name, "/"):
		if err := grants.CheckSpecName(name); err != nil {
			return fmt.Errorf("%s:%s: %w: %w", scheme, name, grants.ErrBadSpec, err)
		}
		return nil
	case strings.Contains(name, "/"):
		return fmt.Errorf("%s:%s: %w: a path must be absolute", scheme, name, grants.ErrBadSpec)
	}
	return nil
}
