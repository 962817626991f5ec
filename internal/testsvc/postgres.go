package testsvc

import (
	"fmt"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The roles of the cluster that Postgres starts, as its pg_hba.conf treats
// them (over TCP and over the unix socket alike).
const (
	// PGSuperuser is the cluster's superuser, trusted (no password).
	PGSuperuser = "postgres"
	// PGApp is a login role created for the tests, trusted, owning a
	// database of the same name.
	PGApp = "app"
	// PGRejected is refused by a pg_hba.conf "reject" line: a client
	// that starts up as it gets an ErrorResponse with SQLSTATE 28000.
	PGRejected = "nobody"
	// PGPassword must authenticate with scram-sha-256: a client that
	// starts up as it is asked for a password (the role need not exist;
	// the server asks anyway rather than tell).
	PGPassword = "carol"
)

// pgHBA trusts the two roles, rejects one and asks one for a password;
// any other role matches no line, which the server also rejects (28000).
const pgHBA = `# written by testsvc.Postgres
local all nobody              reject
host  all nobody 127.0.0.1/32 reject
local all carol               scram-sha-256
host  all carol  127.0.0.1/32 scram-sha-256
local all postgres              trust
host  all postgres 127.0.0.1/32 trust
local all app                   trust
host  all app      127.0.0.1/32 trust
`

// Postgres initialises a PostgreSQL cluster (Debian's postgresql package;
// scripts/test installs it) in a new temporary directory and starts it
// listening on 127.0.0.1 at a free port and on a unix socket in that
// directory, with fsync off. It returns the TCP address ("127.0.0.1:PORT")
// and the socket's path (".../.s.PGSQL.PORT") once the server accepts
// connections. The roles are PGSuperuser, PGApp (with database "app"),
// PGRejected and PGPassword. The server is stopped (pg_ctl -m immediate)
// and the directory removed when the test ends.
//
// PostgreSQL refuses to run as root, so when the test runs as root the
// server's programs run as the "postgres" system user that the package
// creates (through runuser), and the directory is given to that user; as
// any other user they run as that user. initdb takes a second or two: share
// one cluster among the cases of a test.
func Postgres(t testing.TB) (addr, socket string) {
	t.Helper()
	bin, err := pgBinDir()
	if err != nil {
		t.Fatalf("testsvc.Postgres: %v", err)
	}
	dir, err := os.MkdirTemp("", "testsvc-postgres-")
	if err != nil {
		t.Fatalf("testsvc.Postgres: %v", err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	run := pgRunner(t, bin)
	if os.Geteuid() == 0 {
		u, err := user.Lookup("postgres")
		if err != nil {
			t.Fatalf("testsvc.Postgres: running as root needs the \"postgres\" system user that Debian's postgresql package creates (scripts/test installs it): %v", err)
		}
		uid, _ := strconv.Atoi(u.Uid)
		gid, _ := strconv.Atoi(u.Gid)
		if err := os.Chown(dir, uid, gid); err != nil {
			t.Fatalf("testsvc.Postgres: %v", err)
		}
	}
	// The data directory must be 0700 and owned by the server's user; the
	// directory above it only has to be reachable by that user.
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatalf("testsvc.Postgres: %v", err)
	}
	data := filepath.Join(dir, "data")
	if out, err := run("initdb", "-D", data, "-U", PGSuperuser, "--auth=trust",
		"--no-sync", "--encoding=UTF8", "--locale=C"); err != nil {
		t.Fatalf("testsvc.Postgres: initdb: %v\n%s", err, out)
	}
	if err := pgWriteFile(filepath.Join(data, "pg_hba.conf"), pgHBA); err != nil {
		t.Fatalf("testsvc.Postgres: %v", err)
	}

	var last error
	for attempt := 0; attempt < 3; attempt++ {
		port, err := FreePort()
		if err != nil {
			t.Fatalf("testsvc.Postgres: %v", err)
		}
		opts := strings.Join([]string{
			"-c listen_addresses=127.0.0.1",
			"-c port=" + strconv.Itoa(port),
			"-c unix_socket_directories=" + dir,
			"-c fsync=off", "-c synchronous_commit=off", "-c full_page_writes=off",
			"-c max_connections=20", "-c shared_buffers=16MB",
		}, " ")
		logFile := filepath.Join(dir, "server-"+strconv.Itoa(port)+".log")
		out, err := run("pg_ctl", "start", "-D", data, "-w", "-t", strconv.Itoa(int(startWait/time.Second)),
			"-l", logFile, "-o", opts)
		if err != nil {
			log, _ := os.ReadFile(logFile)
			last = fmt.Errorf("pg_ctl start on port %d: %v\n%s\n%s", port, err, out, log)
			continue
		}
		t.Cleanup(func() {
			if out, err := run("pg_ctl", "stop", "-D", data, "-m", "immediate", "-w"); err != nil {
				t.Logf("testsvc.Postgres: pg_ctl stop: %v\n%s", err, out)
			}
		})
		addr = "127.0.0.1:" + strconv.Itoa(port)
		socket = filepath.Join(dir, ".s.PGSQL."+strconv.Itoa(port))
		if out, err := run("pg_isready", "-h", "127.0.0.1", "-p", strconv.Itoa(port), "-U", PGSuperuser, "-t", "30"); err != nil {
			t.Fatalf("testsvc.Postgres: pg_isready on %s: %v\n%s", addr, err, out)
		}
		if out, err := run("psql", "-X", "-q", "-v", "ON_ERROR_STOP=1", "-h", dir, "-p", strconv.Itoa(port),
			"-U", PGSuperuser, "-d", "postgres",
			"-c", "CREATE ROLE "+PGApp+" LOGIN", "-c", "CREATE DATABASE "+PGApp+" OWNER "+PGApp); err != nil {
			t.Fatalf("testsvc.Postgres: creating role %q: %v\n%s", PGApp, err, out)
		}
		return addr, socket
	}
	t.Fatalf("testsvc.Postgres: %v", last)
	return "", ""
}

// pgBinDir finds the server's programs: Debian installs them in
// /usr/lib/postgresql/VERSION/bin (the newest version wins); elsewhere
// they may be on PATH.
func pgBinDir() (string, error) {
	found, _ := filepath.Glob("/usr/lib/postgresql/*/bin/initdb")
	if len(found) > 0 {
		slices.SortFunc(found, func(a, b string) int { return pgVersion(a) - pgVersion(b) })
		return filepath.Dir(found[len(found)-1]), nil
	}
	if p, err := exec.LookPath("initdb"); err == nil {
		return filepath.Dir(p), nil
	}
	return "", fmt.Errorf("the PostgreSQL server is not installed (no /usr/lib/postgresql/*/bin/initdb, no initdb on PATH); scripts/test installs it, or apt-get install postgresql")
}

// pgVersion is the major version in /usr/lib/postgresql/VERSION/bin/initdb.
func pgVersion(initdb string) int {
	v, _ := strconv.Atoi(filepath.Base(filepath.Dir(filepath.Dir(initdb))))
	return v
}

// pgRunner returns a function that runs one of the server's programs, as
// the "postgres" user when the test runs as root, and returns its output.
func pgRunner(t testing.TB, bin string) func(prog string, args ...string) ([]byte, error) {
	return func(prog string, args ...string) ([]byte, error) {
		path := filepath.Join(bin, prog)
		var cmd *exec.Cmd
		if os.Geteuid() == 0 {
			cmd = exec.Command("runuser", append([]string{"-u", "postgres", "--", path}, args...)...)
		} else {
			cmd = exec.Command(path, args...)
		}
		cmd.Env = append(os.Environ(), "LC_ALL=C", "PGCONNECT_TIMEOUT=30")
		// pg_ctl start leaves the server running; should it keep the
		// output pipe, stop waiting for it after a while.
		cmd.WaitDelay = 5 * time.Second
		return cmd.CombinedOutput()
	}
}

// pgWriteFile replaces a file that initdb wrote. Writing over it keeps
// its owner (the server's user, when the test runs as root) and mode.
func pgWriteFile(path, content string) error {
	if _, err := os.Stat(path); err != nil {
		return err
	}
	return os.WriteFile(path, []byte(content), 0o600)
}
