package testsvc

import (
	"bufio"
	"crypto/tls"
	"crypto/x509"
	"encoding/binary"
	"errors"
	"io"
	"net"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// redisSay sends one inline command per line and returns one reply line
// per command.
func redisSay(t *testing.T, addr string, cmds ...string) []string {
	t.Helper()
	c, err := net.DialTimeout("tcp", addr, 5*time.Second)
	require.NoError(t, err)
	defer c.Close()
	require.NoError(t, c.SetDeadline(time.Now().Add(10*time.Second)))
	r := bufio.NewReader(c)
	var out []string
	for _, cmd := range cmds {
		_, err := c.Write([]byte(cmd + "\r\n"))
		require.NoError(t, err)
		line, err := r.ReadString('\n')
		require.NoError(t, err)
		out = append(out, strings.TrimSuffix(line, "\r\n"))
	}
	return out
}

func TestRedis(t *testing.T) {
	t.Run("no password", func(t *testing.T) {
		addr := Redis(t, "")
		assert.Equal(t, []string{"+PONG"}, redisSay(t, addr, "PING"))
	})
	t.Run("password", func(t *testing.T) {
		addr := Redis(t, "s3cret")
		got := redisSay(t, addr, "PING", "AUTH wrong", "AUTH s3cret", "PING")
		assert.True(t, strings.HasPrefix(got[0], "-NOAUTH"), got[0])
		assert.True(t, strings.HasPrefix(got[1], "-WRONGPASS"), got[1])
		assert.Equal(t, []string{"+OK", "+PONG"}, got[2:])
	})
}

// TestRedisStopsAtCleanup checks that the server is gone once the test
// that started it has ended.
func TestRedisStopsAtCleanup(t *testing.T) {
	var addr string
	t.Run("run", func(t *testing.T) { addr = Redis(t, "") })
	_, err := net.DialTimeout("tcp", addr, time.Second)
	require.Error(t, err, "redis still answers on %s after its test ended", addr)
}

// pgStartup sends a v3.0 StartupMessage for user and database and returns
// the first message's type and body.
func pgStartup(t *testing.T, network, addr, user, database string) (byte, []byte) {
	t.Helper()
	c, err := net.DialTimeout(network, addr, 5*time.Second)
	require.NoError(t, err)
	defer c.Close()
	require.NoError(t, c.SetDeadline(time.Now().Add(10*time.Second)))
	body := []byte{0, 3, 0, 0}
	for _, kv := range []string{"user", user, "database", database} {
		body = append(append(body, kv...), 0)
	}
	body = append(body, 0)
	msg := binary.BigEndian.AppendUint32(nil, uint32(4+len(body)))
	_, err = c.Write(append(msg, body...))
	require.NoError(t, err)
	r := bufio.NewReader(c)
	head := make([]byte, 5)
	_, err = io.ReadFull(r, head)
	require.NoError(t, err)
	b := make([]byte, binary.BigEndian.Uint32(head[1:])-4)
	_, err = io.ReadFull(r, b)
	require.NoError(t, err)
	return head[0], b
}

// pgField returns an ErrorResponse's field (C for the SQLSTATE, ...).
func pgField(body []byte, code byte) string {
	for len(body) > 0 && body[0] != 0 {
		k := body[0]
		v, rest, _ := strings.Cut(string(body[1:]), "\x00")
		if k == code {
			return v
		}
		body = []byte(rest)
	}
	return ""
}

func TestPostgres(t *testing.T) {
	addr, socket := Postgres(t)
	host, port, err := net.SplitHostPort(addr)
	require.NoError(t, err)
	assert.True(t, strings.HasSuffix(socket, ".s.PGSQL."+port), socket)

	// The real pg_isready agrees that the server accepts connections.
	out, err := exec.Command("pg_isready", "-h", host, "-p", port).CombinedOutput()
	require.NoError(t, err, "%s", out)

	for _, network := range []string{"tcp", "unix"} {
		target := addr
		if network == "unix" {
			target = socket
		}
		t.Run(network, func(t *testing.T) {
			typ, body := pgStartup(t, network, target, PGApp, PGApp)
			assert.Equal(t, byte('R'), typ)
			assert.Equal(t, uint32(0), binary.BigEndian.Uint32(body), "AuthenticationOk")

			typ, body = pgStartup(t, network, target, PGRejected, "postgres")
			require.Equal(t, byte('E'), typ)
			assert.Equal(t, "28000", pgField(body, 'C'))
			assert.Contains(t, pgField(body, 'M'), "pg_hba.conf rejects connection")

			typ, body = pgStartup(t, network, target, PGPassword, "postgres")
			assert.Equal(t, byte('R'), typ)
			assert.Equal(t, uint32(10), binary.BigEndian.Uint32(body), "AuthenticationSASL")
		})
	}
}

func TestTLSCertificates(t *testing.T) {
	ca := NewCA(t)
	dial := func(addr string, roots *x509.CertPool) (*tls.Conn, error) {
		return tls.DialWithDialer(&net.Dialer{Timeout: 5 * time.Second}, "tcp", addr,
			&tls.Config{RootCAs: roots, ServerName: "localhost"})
	}

	valid := ca.Server(t, 30*Day)
	c, err := dial(ServeTLS(t, valid), ca.Pool())
	require.NoError(t, err)
	leaf := c.ConnectionState().PeerCertificates[0]
	assert.Equal(t, valid.Leaf.NotAfter, leaf.NotAfter)
	c.Close()

	expiring := ca.Server(t, 2*Day)
	left := time.Until(expiring.Leaf.NotAfter)
	assert.True(t, left > Day && left <= 2*Day, "expiring certificate has %v left", left)
	c, err = dial(ServeTLS(t, expiring), ca.Pool())
	require.NoError(t, err)
	c.Close()

	_, err = dial(ServeTLS(t, ca.Expired(t)), ca.Pool())
	var invalid x509.CertificateInvalidError
	require.ErrorAs(t, err, &invalid)
	assert.Equal(t, x509.Expired, invalid.Reason)

	_, err = dial(ServeTLS(t, SelfSigned(t, 30*Day)), ca.Pool())
	var unknown x509.UnknownAuthorityError
	require.ErrorAs(t, err, &unknown)

	// The system roots do not know the test CA.
	_, err = dial(ServeTLS(t, valid), nil)
	require.ErrorAs(t, err, &unknown)

	pemFile, err := os.ReadFile(ca.WriteFile(t))
	require.NoError(t, err)
	pool := x509.NewCertPool()
	require.True(t, pool.AppendCertsFromPEM(pemFile))
	c, err = dial(ServeTLS(t, valid), pool)
	require.NoError(t, err)
	c.Close()
}

func TestScriptAndMute(t *testing.T) {
	addr := Script(t, "PING\r\n", []byte("-LOADING Redis is loading the dataset in memory\r\n"))
	assert.Equal(t, []string{"-LOADING Redis is loading the dataset in memory"}, redisSay(t, addr, "PING"))

	c, err := net.Dial("tcp", Mute(t))
	require.NoError(t, err)
	defer c.Close()
	require.NoError(t, c.SetReadDeadline(time.Now().Add(50*time.Millisecond)))
	_, err = c.Read(make([]byte, 1))
	var ne net.Error
	require.True(t, errors.As(err, &ne) && ne.Timeout(), "a mute peer answered: %v", err)
}

func TestServeTLSWith(t *testing.T) {
	ca := NewCA(t)
	addr := ServeTLSWith(t, ca.Server(t, Day), func(c net.Conn) { _, _ = c.Write([]byte("+PONG\r\n")) })
	c, err := tls.Dial("tcp", addr, &tls.Config{RootCAs: ca.Pool(), ServerName: "127.0.0.1"})
	require.NoError(t, err)
	defer c.Close()
	line, err := bufio.NewReader(c).ReadString('\n')
	require.NoError(t, err)
	assert.Equal(t, "+PONG\r\n", line)
}

func TestServeUnix(t *testing.T) {
	sock := ServeUnix(t, func(c net.Conn) { _, _ = c.Write([]byte("+PONG\r\n")) })
	assert.Less(t, len(sock), 100, "a socket path must fit sun_path")
	c, err := net.Dial("unix", sock)
	require.NoError(t, err)
	defer c.Close()
	line, err := bufio.NewReader(c).ReadString('\n')
	require.NoError(t, err)
	assert.Equal(t, "+PONG\r\n", line)
}

// memcachedSay sends "version" over network to addr and returns the
// answer's first line.
func memcachedSay(t *testing.T, network, addr string) string {
	t.Helper()
	c, err := net.DialTimeout(network, addr, 5*time.Second)
	require.NoError(t, err)
	defer c.Close()
	require.NoError(t, c.SetDeadline(time.Now().Add(10*time.Second)))
	_, err = c.Write([]byte("version\r\n"))
	require.NoError(t, err)
	line, err := bufio.NewReader(c).ReadString('\n')
	require.NoError(t, err)
	return line
}

func TestMemcached(t *testing.T) {
	addr, stop := Memcached(t)
	assert.Regexp(t, `^VERSION \d+\.\d+\.\d+\r\n$`, memcachedSay(t, "tcp", addr))
	stop()
	_, err := net.DialTimeout("tcp", addr, time.Second)
	require.Error(t, err, "memcached still answers on %s after stop", addr)
	stop() // a second time, as the cleanup will

	sock := MemcachedUnix(t)
	assert.Less(t, len(sock), 100, "a socket path must fit sun_path")
	assert.Regexp(t, `^VERSION \d+\.\d+\.\d+\r\n$`, memcachedSay(t, "unix", sock))
}

// TestMemcachedStopsAtCleanup checks that the servers are gone once the
// test that started them has ended.
func TestMemcachedStopsAtCleanup(t *testing.T) {
	var addr, sock string
	t.Run("run", func(t *testing.T) {
		addr, _ = Memcached(t)
		sock = MemcachedUnix(t)
	})
	_, err := net.DialTimeout("tcp", addr, time.Second)
	require.Error(t, err, "memcached still answers on %s after its test ended", addr)
	_, err = net.DialTimeout("unix", sock, time.Second)
	require.Error(t, err, "memcached still answers on %s after its test ended", sock)
}
