package resolve

import (
	"context"
	"errors"
	"fmt"
	"github.com/gate-dev/gate/hostfuncs"
	"github.com/gate-dev/gate/internal/grants"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestResolversBuiltins(t *testing.T) {
	rtestPython(t)
	r := NewResolvers(Options{})
	assert.Equal(t, []string{"bin", "lib", "py"}, r.Schemes())
	require.NoError(t, r.Prepare(context.Background(), "py", "lib", "bin"))

	cases := []struct {
		spec string
		want bool
	}{
		{"bin:sh", true},
		{"bin:no-such-binary-xyz", false},
		{"py:json", true},
		{"py:no_such_module_xyz", false},
		{"lib:libc.so.6", true},
		{"lib:libnope.so.9", false},
		{"bin:/bin/sh", true}, // only the first colon separates
	}
	for _, tc := range cases {
		got, err := r.Resolve(context.Background(), tc.spec)
		require.NoError(t, err, tc.spec)
		assert.Equal(t, tc.want, got, tc.spec)
	}
}

func TestResolversBadSpecs(t *testing.T) {
	r := NewResolvers(Options{Python: "no-such-python-xyz"})
	cases := []struct {
		spec    string
		wantErr error
		msg     string
	}{
		{"nocolon", grants.ErrBadSpec, `import "nocolon": bad import spec: want scheme:name`},
		{"py:", grants.ErrBadSpec, `import "py:": bad import spec: empty name`},
		{":json", grants.ErrBadSpec, ""},
		{"Py:json", grants.ErrBadSpec, ""},
		{"", grants.ErrBadSpec, ""},
		{"k8s:pod", ErrUnknownScheme, `import "k8s:pod": unknown import scheme "k8s"`},
		{"py:a..b", grants.ErrBadSpec, `import "py:a..b": bad import spec: ".." is not allowed`},
		{"bin:./x", grants.ErrBadSpec, "bin:./x: bad import spec"},
		{"lib:a/b.so", grants.ErrBadSpec, "lib:a/b.so: bad import spec"},
	}
	for _, tc := range cases {
		got, err := r.Resolve(context.Background(), tc.spec)
		assert.False(t, got, tc.spec)
		require.ErrorIs(t, err, tc.wantErr, tc.spec)
		if tc.msg != "" {
			assert.True(t, strings.HasPrefix(err.Error(), tc.msg), "%s: error %q", tc.spec, err)
		}
	}
}

func TestResolversRegister(t *testing.T) {
	r := NewResolvers(Options{})
	pods := map[string]bool{"web": true}
	require.NoError(t, r.Register("k8s", hostfuncs.ResolverFunc(func(ctx context.Context, name string) (bool, error) {
		if name == "broken" {
			return false, errors.New("cluster unreachable")
		}
		return pods[name], nil
	})))
	assert.Equal(t, []string{"bin", "k8s", "lib", "py"}, r.Schemes())

	got, err := r.Resolve(context.Background(), "k8s:web")
	require.NoError(t, err)
	assert.True(t, got)
	got, err = r.Resolve(context.Background(), "k8s:db")
	require.NoError(t, err)
	assert.False(t, got)
	_, err = r.Resolve(context.Background(), "k8s:broken")
	assert.EqualError(t, err, "k8s:broken: cluster unreachable", "errors name the spec")

	for _, bad := range []string{"", "K8s", "1abc", "a_b", "a:b", "a b"} {
		assert.ErrorIs(t, r.Register(bad, hostfuncs.ResolverFunc(nil)), grants.ErrBadSpec, "%q", bad)
	}
	for _, good := range []string{"a", "svc+tcp", "x.y-z9"} {
		assert.NoError(t, r.Register(good, hostfuncs.ResolverFunc(func(context.Context, string) (bool, error) { return true, nil })), good)
	}
	assert.Error(t, r.Register("nilres", nil))

	// Built-in schemes may be replaced.
	require.NoError(t, r.Register("bin", hostfuncs.ResolverFunc(func(context.Context, string) (bool, error) { return false, nil })))
	got, err = r.Resolve(context.Background(), "bin:sh")
	require.NoError(t, err)
	assert.False(t, got)
}

type rtestPreparer struct {
	calls atomic.Int32
	err   error
}

func (p *rtestPreparer) Resolve(context.Context, string) (bool, error) { return true, nil }
func (p *rtestPreparer) Prepare(context.Context) error {
	p.calls.Add(1)
	return p.err
}

func TestResolversPrepare(t *testing.T) {
	r := NewResolvers(Options{Python: "no-such-python-xyz"})
	ok, broken := &rtestPreparer{}, &rtestPreparer{err: errors.New("setup failed")}
	require.NoError(t, r.Register("ok", ok))
	require.NoError(t, r.Register("broken", broken))

	require.NoError(t, r.Prepare(context.Background(), "ok", "bin", "lib"))
	assert.Equal(t, int32(1), ok.calls.Load())

	err := r.Prepare(context.Background(), "nope", "broken", "ok")
	assert.ErrorIs(t, err, ErrUnknownScheme)
	assert.ErrorContains(t, err, "setup failed")
	assert.Equal(t, int32(2), ok.calls.Load(), "a failure does not stop the others")

	// No schemes: all of them, including the broken Python.
	err = r.Prepare(context.Background())
	assert.ErrorContains(t, err, `py: python "no-such-python-xyz" not found on PATH`)
	assert.Equal(t, int32(3), ok.calls.Load())

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	assert.ErrorIs(t, r.Prepare(ctx, "ok"), context.Canceled)
	_, err = r.Resolve(ctx, "ok:x")
	assert.ErrorIs(t, err, context.Canceled)
}

// Many goroutines resolve while others register; run with -race.
func TestResolversHammer(t *testing.T) {
	rtestPython(t)
	r := NewResolvers(Options{})
	specs := []string{"bin:sh", "py:json", "py:email.mime.text", "lib:libc.so.6", "bin:nope-xyz", "py:nope_xyz"}
	want := map[string]bool{"bin:sh": true, "py:json": true, "py:email.mime.text": true, "lib:libc.so.6": true}

	var wg sync.WaitGroup
	errs := make(chan error, 1000)
	for g := range 32 {
		wg.Go(func() {
			for i := range 40 {
				spec := specs[(g+i)%len(specs)]
				if i%5 == 0 {
					spec = fmt.Sprintf("s%d:x", (g+i)%8) // may or may not be registered yet
				}
				got, err := r.Resolve(context.Background(), spec)
				switch {
				case strings.HasPrefix(spec, "s"):
					if err != nil && !errors.Is(err, ErrUnknownScheme) || err == nil && !got {
						errs <- fmt.Errorf("%s: %v %v", spec, got, err)
					}
				case err != nil || got != want[spec]:
					errs <- fmt.Errorf("%s: %v %v", spec, got, err)
				}
			}
		})
	}
	for g := range 8 {
		wg.Go(func() {
			for range 20 {
				if err := r.Register(fmt.Sprintf("s%d", g), hostfuncs.ResolverFunc(func(context.Context, string) (bool, error) { return true, nil })); err != nil {
					errs <- err
				}
				_ = r.Schemes()
				if err := r.Prepare(context.Background(), "lib"); err != nil {
					errs <- err
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		assert.NoError(t, err)
	}
	assert.Len(t, r.Schemes(), 3+8)
}

func BenchmarkResolvers(b *testing.B) {
	rtestPython(b)
	r := NewResolvers(Options{})
	require.NoError(b, r.Prepare(context.Background()))
	for _, spec := range []string{"bin:sh", "py:json", "lib:libc.so.6"} {
		b.Run(spec, func(b *testing.B) {
			ctx := context.Background()
			b.ReportAllocs()
			for b.Loop() {
				if _, err := r.Resolve(ctx, spec); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
