package probes_test

// TEMPORARY: a stand-in for the v2 host functions while the real ones are
// being built; removed once runtime answers gate.connect for real.

import (
	"context"
	"crypto/tls"
	"encoding/binary"
	"errors"
	"io"
	"net"
	"os"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"

	"github.com/gate-dev/gate/probes"
	"github.com/gate-dev/gate/runtime"
)

type fakeRun struct {
	s        setup
	conns    map[int32]net.Conn
	next     int32
	lastErr  string
	reason   string
	deadline time.Time
}

type fakeKey struct{}

func fr(ctx context.Context) *fakeRun { return ctx.Value(fakeKey{}).(*fakeRun) }

func rd(m api.Module, p, n uint32) []byte {
	b, _ := m.Memory().Read(p, n)
	return append([]byte(nil), b...)
}

func into(m api.Module, v string, buf, cap uint32) int32 {
	n := min(uint32(len(v)), cap)
	m.Memory().Write(buf, []byte(v[:n]))
	return int32(len(v))
}

func (f *fakeRun) wait(ms int32) time.Time {
	d := f.deadline.Add(-5 * time.Millisecond)
	if ms > 0 {
		if t := time.Now().Add(time.Duration(ms) * time.Millisecond); t.Before(d) {
			return t
		}
	}
	return d
}

func (f *fakeRun) fail(err error) int32 {
	f.lastErr = err.Error()
	var ne net.Error
	switch {
	case errors.Is(err, syscall.ECONNREFUSED), errors.Is(err, syscall.ENOENT):
		return -3
	case errors.As(err, &ne) && ne.Timeout():
		return -4
	case errors.Is(err, syscall.ECONNRESET), errors.Is(err, syscall.EPIPE):
		return -9
	}
	return -5
}

var secretRE = regexp.MustCompile(`\$\{secret:([A-Za-z_][A-Za-z0-9_]*)\}`)

func fakeHost(t testing.TB) wazero.Runtime {
	ctx := context.Background()
	r := wazero.NewRuntime(ctx)
	t.Cleanup(func() { r.Close(ctx) })
	_, err := r.NewHostModuleBuilder("gate").
		NewFunctionBuilder().WithFunc(func(ctx context.Context, m api.Module, k, kn, buf, cap uint32) int32 {
		v, ok := fr(ctx).s.config[string(rd(m, k, kn))]
		if !ok {
			return -1
		}
		return into(m, v, buf, cap)
	}).Export("config").
		NewFunctionBuilder().WithFunc(func(ctx context.Context, m api.Module, p, n uint32) {
		fr(ctx).reason = string(rd(m, p, n))
	}).Export("reason").
		NewFunctionBuilder().WithFunc(func(ctx context.Context, m api.Module, buf, cap uint32) int32 {
		f := fr(ctx)
		if f.lastErr == "" {
			return -1
		}
		return into(m, f.lastErr, buf, cap)
	}).Export("last_error").
		NewFunctionBuilder().WithFunc(func(ctx context.Context, m api.Module, p, n uint32, flags, ms int32) int32 {
		f := fr(ctx)
		addr := string(rd(m, p, n))
		network, isTLS := "tcp", false
		if a, ok := strings.CutPrefix(addr, "unix:"); ok {
			network, addr = "unix", a
		} else if a, ok := strings.CutPrefix(addr, "tls:"); ok {
			isTLS, addr = true, a
		}
		d := net.Dialer{Deadline: f.wait(ms)}
		c, err := d.Dial(network, addr)
		if err != nil {
			return f.fail(err)
		}
		if isTLS {
			host, _, _ := net.SplitHostPort(addr)
			tc := tls.Client(c, &tls.Config{ServerName: host, RootCAs: f.s.roots})
			c.SetDeadline(f.wait(ms))
			if err := tc.Handshake(); err != nil {
				c.Close()
				var ne net.Error
				if errors.As(err, &ne) && ne.Timeout() {
					return f.fail(err)
				}
				f.lastErr = err.Error()
				return -8
			}
			c.SetDeadline(time.Time{})
			c = tc
		}
		f.next++
		f.conns[f.next] = c
		return f.next
	}).Export("connect").
		NewFunctionBuilder().WithFunc(func(ctx context.Context, m api.Module, h int32, p, n uint32) int32 {
		f := fr(ctx)
		c := f.conns[h]
		if c == nil {
			return -10
		}
		var missing string
		out := secretRE.ReplaceAllStringFunc(string(rd(m, p, n)), func(s string) string {
			name := secretRE.FindStringSubmatch(s)[1]
			v, ok := f.s.env[name]
			if !ok || v == "" {
				missing = name
			}
			return v
		})
		if missing != "" {
			f.lastErr = "secret " + missing + " is not set"
			return -1
		}
		c.SetWriteDeadline(f.wait(0))
		if _, err := c.Write([]byte(out)); err != nil {
			return f.fail(err)
		}
		return int32(n)
	}).Export("send").
		NewFunctionBuilder().WithFunc(func(ctx context.Context, m api.Module, h int32, buf, cap uint32, ms int32) int32 {
		f := fr(ctx)
		c := f.conns[h]
		if c == nil {
			return -10
		}
		c.SetReadDeadline(f.wait(ms))
		b := make([]byte, cap)
		n, err := c.Read(b)
		if n > 0 {
			m.Memory().Write(buf, b[:n])
			return int32(n)
		}
		if err == io.EOF {
			return 0
		}
		return f.fail(err)
	}).Export("recv").
		NewFunctionBuilder().WithFunc(func(ctx context.Context, m api.Module, h int32) int32 {
		f := fr(ctx)
		c := f.conns[h]
		if c == nil {
			return -10
		}
		c.Close()
		delete(f.conns, h)
		return 0
	}).Export("close").
		NewFunctionBuilder().WithFunc(func(ctx context.Context, m api.Module, h int32, out uint32) int32 {
		f := fr(ctx)
		tc, ok := f.conns[h].(*tls.Conn)
		if !ok {
			return -1
		}
		na := tc.ConnectionState().PeerCertificates[0].NotAfter
		b := binary.LittleEndian.AppendUint64(nil, uint64(na.Unix()))
		b = binary.LittleEndian.AppendUint64(b, uint64(int64(time.Until(na)/time.Second)))
		m.Memory().Write(out, b)
		return 1
	}).Export("tls").
		Instantiate(ctx)
	require.NoError(t, err)
	return r
}

func runFake(t testing.TB, kind probes.Kind, s setup) outcome {
	r := fakeHost(t)
	wasm, _ := probes.Wasm(kind)
	if os.Getenv("FAKE_WASM_DIR") != "" {
		var err error
		wasm, err = os.ReadFile(os.Getenv("FAKE_WASM_DIR") + "/" + string(kind) + ".wasm")
		require.NoError(t, err)
	}
	f := &fakeRun{s: s, conns: map[int32]net.Conn{}, deadline: time.Now().Add(100 * time.Millisecond)}
	defer func() {
		for _, c := range f.conns {
			c.Close()
		}
	}()
	ctx := context.WithValue(context.Background(), fakeKey{}, f)
	mod, err := r.Instantiate(ctx, wasm)
	require.NoError(t, err)
	res, err := mod.ExportedFunction("probe").Call(ctx)
	require.NoError(t, err)
	o := outcome{Outcome: runtime.Outcome(min(res[0], 2)), Reason: f.reason}
	return o
}
