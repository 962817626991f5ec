package probes_test

import (
	"encoding/binary"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gate-dev/gate/hostfuncs"
	"github.com/gate-dev/gate/internal/probes"
	"github.com/gate-dev/gate/internal/testnet"
	"github.com/gate-dev/gate/internal/testsvc"
	"github.com/gate-dev/gate/runtime"
)

// pgSetup is a run against addr, granted to connect there.
func pgSetup(addr string, config map[string]string) setup {
	cfg := map[string]string{"addr": addr}
	for k, v := range config {
		cfg[k] = v
	}
	return setup{config: cfg, grants: hostfuncs.Grants{Dial: []string{addr}}}
}

// pgMsg is one backend message: its type, its length, its body.
func pgMsg(typ byte, body []byte) []byte {
	return append(binary.BigEndian.AppendUint32([]byte{typ}, uint32(4+len(body))), body...)
}

// pgError is an ErrorResponse as PostgreSQL sends it: severity twice
// (translated and not), SQLSTATE, message.
func pgError(severity, code, msg string) []byte {
	var b []byte
	for _, f := range []struct {
		k byte
		v string
	}{{'S', severity}, {'V', severity}, {'C', code}, {'M', msg}} {
		b = append(append(append(b, f.k), f.v...), 0)
	}
	return pgMsg('E', append(b, 0))
}

var (
	pgAuthOK   = pgMsg('R', []byte{0, 0, 0, 0})
	pgAuthSASL = pgMsg('R', []byte("\x00\x00\x00\x0aSCRAM-SHA-256\x00\x00"))
	pgReady    = pgMsg('Z', []byte{'I'})
)

// pgScript is a peer that answers a StartupMessage with reply.
func pgScript(t *testing.T, reply ...[]byte) string {
	// A StartupMessage ends with "gate-probe\0\0".
	return testsvc.Script(t, "gate-probe\x00\x00", []byte(strings.Join(byteStrings(reply), "")))
}

func byteStrings(b [][]byte) []string {
	s := make([]string, len(b))
	for i := range b {
		s[i] = string(b[i])
	}
	return s
}

func TestPostgresProbeRealServer(t *testing.T) {
	addr, socket := testsvc.Postgres(t)
	p := "postgres " + addr + ": "
	runProbeCases(t, probes.Postgres, []probeCase{
		{"accepting, default user postgres", pgSetup(addr, nil), runtime.Available, ""},
		{"trusted role, database named after it", pgSetup(addr, map[string]string{"user": testsvc.PGApp}), runtime.Available, ""},
		{"unix socket", pgSetup("unix:"+socket, map[string]string{"user": testsvc.PGApp, "database": "postgres"}),
			runtime.Available, ""},
		{"asks for a password", pgSetup(addr, map[string]string{"user": testsvc.PGPassword}), runtime.Available, ""},
		{"no such database", pgSetup(addr, map[string]string{"database": "nosuch"}), runtime.Unavailable,
			p + `FATAL 3D000: database "nosuch" does not exist`},
		{"trusted, no such role", pgSetup(addr, map[string]string{"user": "eve"}), runtime.Unavailable,
			p + `FATAL 28000: no pg_hba.conf entry for host "127.0.0.1", user "eve", database "eve", no encryption`},
	})
	t.Run("role rejected by pg_hba", func(t *testing.T) {
		got := runProbe(t, probes.Postgres, pgSetup(addr, map[string]string{"user": testsvc.PGRejected}))
		assert.Equal(t, runtime.Unavailable, got.Outcome)
		assert.True(t, strings.HasPrefix(got.Reason, p+`FATAL 28000: pg_hba.conf rejects connection for host "127.0.0.1", user "nobody"`), got.Reason)
	})
}

func TestPostgresProbePeers(t *testing.T) {
	startingUp := pgScript(t, pgError("FATAL", "57P03", "the database system is starting up"))
	tooMany := pgScript(t, pgError("FATAL", "53300", "sorry, too many clients already"))
	// A server that negotiates the version and notices something first.
	chatty := pgScript(t, pgMsg('v', []byte{0, 0, 0, 0, 0, 0, 0, 0}),
		pgMsg('N', []byte("SNOTICE\x00Mhello\x00\x00")), pgAuthSASL)
	notPG := pgScript(t, []byte("HTTP/1.1 400 Bad Request\r\n\r\n"))
	long := pgScript(t, pgError("FATAL", "XX000", strings.Repeat("é", 3000)))
	noCode := pgScript(t, pgMsg('E', []byte("SERROR\x00Mno code\x00\x00")))
	refused := testnet.ClosedAddr(t)
	hangup := testsvc.Serve(t, func(c net.Conn) { _, _ = c.Read(make([]byte, 512)) })
	// A trusting server, in pieces cut inside the type, the length and the
	// fields: the reader must put messages together across reads.
	answer := append(append([]byte(nil), pgAuthOK...), pgError("FATAL", "3D000", `database "x" does not exist`)...)
	trickle := testsvc.Serve(t, func(c net.Conn) {
		_, _ = c.Read(make([]byte, 512))
		if !writePieces(c, answer, 1, 4, 11, 20, len(answer)-1) {
			return
		}
		_, _ = c.Read(make([]byte, 1))
	})
	runProbeCases(t, probes.Postgres, []probeCase{
		{"starting up", pgSetup(startingUp, nil), runtime.Failed,
			"postgres " + startingUp + ": FATAL 57P03: the database system is starting up"},
		{"too many connections", pgSetup(tooMany, nil), runtime.Failed,
			"postgres " + tooMany + ": FATAL 53300: sorry, too many clients already"},
		{"version negotiated, notice, then a password asked", pgSetup(chatty, nil), runtime.Available, ""},
		{"not PostgreSQL", pgSetup(notPG, nil), runtime.Unavailable,
			"postgres " + notPG + ": unexpected answer; is it a PostgreSQL server?"},
		{"error without SQLSTATE", pgSetup(noCode, nil), runtime.Unavailable,
			"postgres " + noCode + ": ERROR (no SQLSTATE): no code"},
		{"refused", pgSetup(refused, nil), runtime.Unavailable, "postgres " + refused + ": connection refused"},
		{"closed before answering", pgSetup(hangup, nil), runtime.Failed,
			"postgres " + hangup + ": closed the connection before answering"},
		{"answer in pieces", pgSetup(trickle, nil), runtime.Unavailable,
			"postgres " + trickle + `: FATAL 3D000: database "x" does not exist`},
		{"addr not set", setup{}, runtime.Failed, `postgres probe: config "addr" is not set`},
		{"NUL in the user", pgSetup(refused, map[string]string{"user": "a\x00b"}), runtime.Failed,
			`postgres probe: config "user" must not hold a NUL byte`},
	})
	t.Run("long error", func(t *testing.T) {
		got := runProbe(t, probes.Postgres, pgSetup(long, nil))
		assert.Equal(t, runtime.Unavailable, got.Outcome)
		assert.True(t, strings.HasPrefix(got.Reason, "postgres "+long+": FATAL XX000: éé"), got.Reason)
		assert.LessOrEqual(t, len(got.Reason), 1024)
	})
	t.Run("never answers", func(t *testing.T) {
		mute := testsvc.Mute(t)
		requireTimedOut(t, runProbeOnce(t, probes.Postgres, pgSetup(mute, nil)), "postgres "+mute+": ")
	})
}

// TestPostgresProbeStartupAndTerminate checks the bytes on the wire: a
// v3.0 StartupMessage with the user, database and application_name, and a
// Terminate after ReadyForQuery.
func TestPostgresProbeStartupAndTerminate(t *testing.T) {
	got := make(chan []byte, 1)
	addr := testsvc.Serve(t, func(c net.Conn) {
		var in []byte
		buf := make([]byte, 512)
		replied := false
		_ = c.SetDeadline(time.Now().Add(10 * time.Second))
		for {
			n, err := c.Read(buf)
			in = append(in, buf[:n]...)
			if !replied && strings.HasSuffix(string(in), "gate-probe\x00\x00") {
				_, _ = c.Write(append(append(append([]byte(nil), pgAuthOK...), pgMsg('S', []byte("server_version\x0015\x00"))...), pgReady...))
				replied = true
			}
			if err != nil {
				got <- in
				return
			}
		}
	})
	res := runProbe(t, probes.Postgres, pgSetup(addr, map[string]string{"user": "u", "database": "d"}))
	require.Equal(t, runtime.Available, res.Outcome, res.Reason)
	in := <-got
	body := "\x00\x03\x00\x00user\x00u\x00database\x00d\x00application_name\x00gate-probe\x00\x00"
	want := string(binary.BigEndian.AppendUint32(nil, uint32(4+len(body)))) + body + "X\x00\x00\x00\x04"
	assert.Equal(t, want, string(in))
}

// FuzzPostgresReply answers the probe's StartupMessage with arbitrary
// bytes, then ends the connection, or holds it open when hang is set.
// Whatever they are, the probe answers by itself, says why when it is not
// available, and is available only after a message type that a PostgreSQL
// server may send first.
func FuzzPostgresReply(f *testing.F) {
	for _, seed := range [][]byte{pgAuthOK, pgAuthSASL, append(append([]byte(nil), pgAuthOK...), pgReady...),
		pgError("FATAL", "57P03", "starting"), pgError("FATAL", "28000", "no"), pgMsg('E', nil),
		pgMsg('R', nil), {'R', 0xff, 0xff, 0xff, 0xff}, {'S', 0, 0, 0, 4}, []byte("HTTP/1.1 200 OK\r\n")} {
		f.Add(seed, false)
		f.Add(seed, true)
	}
	r := newProbeRunner(f, probes.Postgres, nil)
	f.Cleanup(r.close)
	f.Fuzz(func(t *testing.T, reply []byte, hang bool) {
		addr := scriptReply(t, "gate-probe\x00\x00", reply, hang)
		got := r.run(t, pgSetup(addr, map[string]string{"timeout_ms": "20"}))
		requireAnswered(t, got, "postgres "+addr+": ")
		if got.Outcome == runtime.Available {
			require.GreaterOrEqual(t, len(reply), 5)
			assert.Contains(t, "RZSKNv", string(reply[:1]), "available on %q", reply)
		}
	})
}

// writePieces writes b cut at the given offsets, pausing between pieces so
// that they arrive apart. It reports whether all were written.
func writePieces(c net.Conn, b []byte, cuts ...int) bool {
	last := 0
	for _, cut := range append(cuts, len(b)) {
		if _, err := c.Write(b[last:cut]); err != nil {
			return false
		}
		last = cut
		time.Sleep(2 * time.Millisecond) // pieces apart, on purpose
	}
	return true
}
