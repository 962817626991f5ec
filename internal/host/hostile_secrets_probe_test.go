package host_test

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gate-dev/gate/hostfuncs"
	"github.com/gate-dev/gate/internal/host"
	"github.com/gate-dev/gate/internal/testsvc"
	"github.com/gate-dev/gate/runtime"
)

// The hostile tests of secrets, played by a real probe: relay.wat, run by
// the engine with its budget, against real loopback peers and the real
// Redis. One class of each group of hostile_secrets_*_test.go is here, so
// that the pipeline as a tool's probe meets it (the engine's instance,
// its limits, the run's redaction of its reason) is what is tested, not
// only the host functions.

// relayWasm is the relay probe, built from relay.wat by gen.sh.
const relayWasm = "testdata/secrets/relay.wasm"

// reportLine is one step of the relay's report: the operation, the status
// the host answered, and what the host handed over.
type reportLine struct {
	op     byte
	status int32
	data   string
}

// parseReport reads the relay's report.
func parseReport(t testing.TB, report string) []reportLine {
	t.Helper()
	var out []reportLine
	for _, line := range strings.Split(strings.TrimSuffix(report, "\n"), "\n") {
		if line == "" {
			continue
		}
		head, data, ok := strings.Cut(line, ":")
		require.True(t, ok, "report line %q", line)
		st, err := strconv.Atoi(head[1:])
		require.NoError(t, err, "report line %q", line)
		out = append(out, reportLine{op: head[0], status: int32(st), data: unescapeReport(t, data)})
	}
	return out
}

// unescapeReport undoes the relay's %XX, which is all it escapes.
func unescapeReport(t testing.TB, s string) string {
	t.Helper()
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '%' {
			b.WriteByte(s[i])
			continue
		}
		require.Less(t, i+2, len(s), "a cut escape in %q", s)
		c, err := strconv.ParseUint(s[i+1:i+3], 16, 8)
		require.NoError(t, err)
		b.WriteByte(byte(c))
		i += 2
	}
	return b.String()
}

// of returns the report's lines of operation op.
func of(lines []reportLine, op byte) []reportLine {
	var out []reportLine
	for _, l := range lines {
		if l.op == op {
			out = append(out, l)
		}
	}
	return out
}

// data is what the host handed over in the lines, put together.
func data(lines []reportLine) string {
	var b strings.Builder
	for _, l := range lines {
		b.WriteString(l.data)
	}
	return b.String()
}

// relay runs the relay probe, granted g and a sink of its own for the
// report, with env as its environment, steps as its config and answer as
// what it answers, and returns the run's result and the report. A run
// that fails (it ended at its budget, or had no time left to report: a
// loaded machine, not the probe) is tried twice more; the last must not
// fail.
func relay(t testing.TB, g host.Grants, env map[string]string, answer string, steps ...string) (runtime.Result, []reportLine) {
	t.Helper()
	res, report := runRelay(t, g, env, answer, steps...)
	require.NotEqual(t, runtime.Failed, res.Outcome, "%v", res.Err)
	require.NotNil(t, report, "the relay never reported")
	return res, report
}

// runRelay is relay for a run that may fail: the report is nil when none
// came.
func runRelay(t testing.TB, g host.Grants, env map[string]string, answer string, steps ...string) (runtime.Result, []reportLine) {
	t.Helper()
	reports := make(chan string, 4)
	sink, _ := host.HostilePeer(t, func(c net.Conn) {
		b, _ := io.ReadAll(io.LimitReader(c, 8<<20))
		reports <- string(b)
	})
	cfg := map[string]string{"sink": sink, "answer": answer}
	for i, s := range steps {
		cfg[strconv.Itoa(i+1)] = s
	}
	ctx := context.Background()
	e, err := runtime.NewEngine(ctx, runtime.NewEngineConfig().WithLookupEnv(func(k string) (string, bool) {
		v, ok := env[k]
		return v, ok
	}))
	require.NoError(t, err)
	t.Cleanup(func() { e.Close(ctx) })
	m, err := e.CompileFile(ctx, relayWasm)
	require.NoError(t, err)
	p, err := e.NewProbe(ctx, "relay", m, runtime.ProbeConfig{Grants: hostfuncs.Grants(host.MergeGrants(g, host.Reach(sink))), Config: cfg})
	require.NoError(t, err)
	var res runtime.Result
	for range 3 {
		if res = p.Run(ctx); res.Outcome != runtime.Failed {
			break
		}
	}
	// A run that answered has sent its report whole (else it raises), and
	// it comes as soon as the sink reads it; one that failed may have sent
	// part of one, or none.
	wait := 20 * time.Second
	if res.Outcome == runtime.Failed {
		wait = time.Second
	}
	select {
	case last := <-reports:
		// The last run's report is the last sent: the runs were one after
		// another, and each reported before it ended.
		for more := true; more; {
			select {
			case r := <-reports:
				last = r
			default:
				more = false
			}
		}
		return res, parseReport(t, last)
	case <-time.After(wait):
		return res, nil
	}
}

// TestProbeSecretCutBodyWindow: the host's cuts, as a probe meets them. A
// service that repeats what it is sent; the probe places the raw body
// window's cut 50 bytes into a copy of the value. The secret's long name
// makes its placeholder four fifths of the value's length: short enough
// that redaction shrinks a raw window past the kept one (what the cut
// needs), long enough that the host fills the kept window from 80 KiB of
// raw body. With a one-letter name it reads and redacts half a megabyte,
// which a run under the race detector on a loaded machine cannot always
// do within its 100 ms.
func TestProbeSecretCutBodyWindow(t *testing.T) {
	origin, _ := host.HostileHTTP(t, http.HandlerFunc(host.RepeatHandler))
	dest := origin + "/"
	const name = "A_SECRET_WHOSE_NAME_MAKES_ITS_PLACEHOLDER_FOUR_FIFTHS_OF_THE_VALUES_LEN"
	v := host.HostileValue(61, 100)
	window := host.MaxHTTPBody + host.MaxSecret
	pad := (window - 50) % (len(v) + 1)
	req := fmt.Sprintf("POST %s/repeat?times=3000&pad=%d\n\n${secret:%s},", origin, pad, name)
	res, report := runRelay(t, host.MergeGrants(host.Reach(dest), host.BoundSecret(name, dest)), map[string]string{name: v}, "0",
		"h"+req, "b40000") // the window's end, where the cut is: the report fits the bytes-out bound
	t.Logf("the run: %v %q; the report: %v", res.Outcome, res.Reason, report)
	// The body held the value: withheld whole, the run cut off (it could
	// not reach its sink), and the secret spent, so that a run after it
	// (runRelay tries a failed run again) is refused it before sending.
	for _, l := range report {
		host.AssertNoLeak(t, v, "what the probe read", l.data, req)
	}
	host.AssertNoLeak(t, v, "the run's result", fmt.Sprintf("%+v", res))
	if report != nil {
		require.Len(t, of(report, 'h'), 1, "%v", report)
		assert.Equal(t, host.StatusDenied, of(report, 'h')[0].status, "a later run: the secret is spent")
	}
}

// TestProbeSecretEncodedBody: an encoding the probe asks for. With
// Accept-Encoding: gzip the body comes back compressed.
func TestProbeSecretEncodedBody(t *testing.T) {
	origin, _ := host.HostileHTTP(t, http.HandlerFunc(host.EncodedTokenHandler))
	dest := origin + "/"
	v := host.SpecialValue(62)
	req := "GET " + origin + "/token?ce=asked\nAuthorization: ${secret:P}\nAccept-Encoding: gzip\n"
	_, report := relay(t, host.MergeGrants(host.Reach(dest), host.BoundSecret("P", dest)), map[string]string{"P": v}, "0",
		"h"+req, "b")
	t.Logf("the request answered %d", of(report, 'h')[0].status)
	body := data(of(report, 'b'))
	for i, r := range append([]string{body}, host.Decodings([]byte(body))...) {
		host.AssertNoLeak(t, v, fmt.Sprintf("the body, decoded (%d)", i), r, req)
	}
}

// TestProbeSecretRedis: a peer that computes, the real Redis. Trusted by
// design: the probe may authenticate to the Redis the secret is bound to;
// the attack on another Redis is refused before anything is sent.
func TestProbeSecretRedis(t *testing.T) {
	v := host.HostileValue(63, 200)
	own := testsvc.Redis(t, v)
	other := testsvc.Redis(t, "")
	monitor := host.RedisMonitor(t, other)
	attack := "SET x ${secret:P}\r\nSTRLEN x\r\nGETRANGE x 0 9\r\n${secret:P}\r\n"
	_, report := relay(t, host.MergeGrants(host.Reach(own, other), host.BoundSecret("P", own)), map[string]string{"P": v}, "0",
		"c"+own, "sAUTH ${secret:P}\r\nPING\r\n", "r65536,10,2",
		"c"+other, "s"+attack, "r65536,10,3")
	sends, recvs := of(report, 's'), of(report, 'r')
	require.Len(t, sends, 2, "%v", report)
	assert.Equal(t, int32(len("AUTH ${secret:P}\r\nPING\r\n")), sends[0].status, "the honest use of the secret")
	assert.Equal(t, host.StatusDenied, sends[1].status, "the attack on another Redis is denied")
	t.Logf("what the probe read: %.300q", data(recvs))
	host.AssertNoLeak(t, v, "what the probe read", data(recvs), attack)
	host.AssertNoLeak(t, v, "what the other Redis ran", monitor())
}

// TestProbeSecretOraclePIN: redaction as an oracle. The probe never sends
// the secret; it sends a thousand candidates to the PIN's own destination,
// an echo, and watches which comes back as a placeholder.
func TestProbeSecretOraclePIN(t *testing.T) {
	echo, _ := host.HostilePeer(t, func(c net.Conn) { io.Copy(c, c) })
	var b strings.Builder
	for i := 4000; i < 5000; i++ {
		fmt.Fprintf(&b, "%d\n", i)
	}
	candidates := b.String()
	run := func(pin string) []string {
		_, report := relay(t, host.MergeGrants(host.Reach(echo), host.BoundSecret("PIN", echo)), map[string]string{"PIN": pin}, "0",
			"c"+echo, "s"+candidates, "r65536,20,20")
		back := data(of(report, 'r'))
		if i := strings.Index(back, "${secret:PIN}"); i >= 0 {
			t.Logf("PIN %s: the placeholder comes back at line %d, so the PIN is %d", pin, i/5, 4000+i/5)
		}
		return []string{fmt.Sprint(of(report, 's')[0].status), back}
	}
	a, c := run("4821"), run("4123")
	host.AssertSameObservations(t, "two PINs", a, c)
	host.AssertSameText(t, candidates, a[1], "the candidates come back as sent")
}

// TestProbeSecretLengthCopies: lengths. The destination echoes 1300
// copies of the value; what the probe reads must be the same for a value
// of 100 bytes and one of 101.
func TestProbeSecretLengthCopies(t *testing.T) {
	origin, _ := host.HostileHTTP(t, http.HandlerFunc(host.RepeatHandler))
	dest := origin + "/"
	run := func(n int) []string {
		_, report := relay(t, host.MergeGrants(host.Reach(dest), host.BoundSecret("P", dest)), map[string]string{"P": host.HostileValue(64, n)}, "0",
			"hPOST "+origin+"/repeat?times=1\n\n"+host.CopiesOfP(1300), "b", "HContent-Length")
		var out []string
		for _, l := range report {
			out = append(out, fmt.Sprintf("%c%d:%s", l.op, l.status, l.data))
		}
		t.Logf("%d bytes: %d placeholders kept of 1300", n, strings.Count(data(of(report, 'b')), "${secret:P}"))
		return out
	}
	host.AssertSameObservations(t, "values of 100 and 101 bytes", run(100), run(101))
}

// TestProbeSecretRedirects: where the value travels next. The value's
// destination redirects to another origin, which must not see it (in a
// Referer, say); and to a URL the grants deny, whose denial becomes the
// run's reason and must not hold it either.
func TestProbeSecretRedirects(t *testing.T) {
	v := host.SpecialValue(65)
	t.Run("another origin", func(t *testing.T) {
		var mu sync.Mutex
		var seenByOther []string
		other, _ := host.HostileHTTP(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			mu.Lock()
			defer mu.Unlock()
			seenByOther = append(seenByOther, r.RequestURI, r.Header.Get("Referer"))
		}))
		origin, _ := host.HostileHTTP(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, other+"/ok/land", http.StatusFound)
		}))
		g := host.MergeGrants(host.Reach(origin+"/ok/", other+"/ok/"), host.BoundSecret("P", origin+"/ok/"))
		_, report := relay(t, g, map[string]string{"P": v}, "0", "hGET "+origin+"/ok/go?key=${secret:P}\n")
		require.Positive(t, of(report, 'h')[0].status, "%v", report)
		mu.Lock()
		defer mu.Unlock()
		t.Logf("the other origin saw %q", seenByOther)
		host.AssertNoLeak(t, v, "what the other origin saw", strings.Join(seenByOther, "\n"))
	})
	t.Run("denied", func(t *testing.T) {
		origin, _ := host.HostileHTTP(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, "/elsewhere?k="+url.PathEscape(r.URL.Query().Get("key")), http.StatusFound)
		}))
		dest := origin + "/ok/"
		res, report := runRelay(t, host.MergeGrants(host.Reach(dest), host.BoundSecret("P", dest)), map[string]string{"P": v}, "1",
			"hGET "+origin+"/ok/go?key=${secret:P}\n")
		t.Logf("the run: %v; the report: %v", res.Outcome, report)
		// The 302's Location held the value: withheld whole, and the run
		// cut off; a later one is refused the spent secret.
		require.NotEmpty(t, res.Denials, "the redirect is denied")
		t.Logf("the reason: %q", res.Reason)
		host.AssertNoLeak(t, v, "the run's reason", res.Reason)
		host.AssertNoLeak(t, v, "the run's result", fmt.Sprintf("%+v", res))
	})
}

// TestProbeSecretBytesOut: the bytes-out bound, as a probe meets it: 64 KiB
// of placeholders of a 4 KiB value, sent to its own destination, put at
// most 64 KiB on the wire.
func TestProbeSecretBytesOut(t *testing.T) {
	peer, got := host.CountingPeer(t)
	v := host.HostileValue(66, host.MaxSecret)
	msg := host.Placeholders((host.MaxBytesOut - 1) / len("${secret:P}"))
	res, report := runRelay(t, host.MergeGrants(host.Reach(peer), host.BoundSecret("P", peer)), map[string]string{"P": v}, "0",
		"c"+peer, "s"+msg, "x")
	require.Eventually(t, func() bool { return got.Ends() > 0 }, 20*time.Second, time.Millisecond, "the peer never saw the connection end")
	t.Logf("the run: %v %v; the report: %v; the peer received %d bytes", res.Outcome, res.Err, of(report, 's'), got.Total())
	assert.LessOrEqual(t, got.Total(), int64(host.MaxBytesOut), "the bytes on the wire")
	// Nor does the send outlast the run's budget, as megabytes may.
	assert.NotEqual(t, runtime.Failed, res.Outcome, "%v", res.Err)
}
