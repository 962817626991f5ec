package main

import (
	"errors"
	"fmt"
	"net"
	"net/netip"
	"net/url"
	"strings"

	"github.com/gate-dev/gate/internal/probes"
)

// namedService is a service that the conventional variables of the
// environment say where to find (REDIS_URL, DATABASE_URL, ...): when they
// do, init writes a probe of that address instead of looking at the
// service's usual local one, since that is the service the agent's code
// will use. Only the address and names (a user, a database) are taken
// from the values; a password in them is never written or printed.
type namedService struct {
	kind probes.Kind
	tool string // the tool's name, as localServices names it
	// service is how a description and a comment name it ("Redis").
	service string
	vars    []string // what it reads, for the help
	// read returns the shorthand of the service the environment names
	// (a target and options) and the variables it came from, ok false
	// when they name none; an error when they are set but cannot be used,
	// which says which and why, never what they hold.
	read func(getenv func(string) string) (sh namedShorthand, ok bool, err error)
}

// namedShorthand is a shorthand read from the environment, before it is
// checked by probes.ParseShorthand.
type namedShorthand struct {
	target  string
	options []string
	from    string // the variables it came from, for the comment
	note    string // a line after the comment, if any
}

var namedServices = []namedService{
	{probes.Redis, "redis", "Redis", []string{"REDIS_URL"}, redisFromEnv},
	{probes.Postgres, "postgres", "PostgreSQL", []string{"DATABASE_URL", "PGHOST", "PGPORT", "PGUSER", "PGDATABASE"}, postgresFromEnv},
	{probes.Memcached, "memcached", "memcached", []string{"MEMCACHED_SERVERS", "MEMCACHE_SERVERS"}, memcachedFromEnv},
	{probes.Docker, "docker", "Docker", []string{"DOCKER_HOST"}, dockerFromEnv},
}

// redisPasswordVar is the secret a redis probe authenticates with when
// REDIS_URL holds a password: REDIS_URL itself cannot be the secret (it
// is a URL, not a password), and REDIS_PASSWORD is where Redis's own
// images and many clients look for it.
const redisPasswordVar = "REDIS_PASSWORD"

// redisFromEnv reads REDIS_URL: redis://[USER[:PASSWORD]@]HOST[:PORT][/DB],
// or rediss:// for TLS.
func redisFromEnv(getenv func(string) string) (namedShorthand, bool, error) {
	v := getenv("REDIS_URL")
	if v == "" {
		return namedShorthand{}, false, nil
	}
	u, err := url.Parse(v)
	if err != nil || (u.Scheme != "redis" && u.Scheme != "rediss") || !validHost(u.Hostname()) {
		return namedShorthand{}, false, errors.New("REDIS_URL is set but is not a redis:// or rediss:// URL with a host")
	}
	sh := namedShorthand{target: hostPort(u, "6379"), from: "REDIS_URL"}
	if u.Scheme == "rediss" {
		sh.target = "tls:" + sh.target
	}
	if pw, ok := u.User.Password(); ok && pw != "" {
		sh.options = append(sh.options, "password="+redisPasswordVar)
		if name := u.User.Username(); name != "" && name != "default" {
			sh.options = append(sh.options, "user="+name)
		}
		sh.note = "REDIS_URL holds a password, which is not written here: the probe sends the secret " + redisPasswordVar +
			" with AUTH, to this address only, and cannot read it"
		if getenv(redisPasswordVar) == "" {
			sh.note += "; set " + redisPasswordVar + " to the password"
		}
	}
	return sh, true, nil
}

// postgresFromEnv reads DATABASE_URL when it is a postgres:// or
// postgresql:// URL (a database URL of another kind is not this
// service's), else PGHOST and PGPORT as libpq does: a PGHOST that is a
// directory holds the server's socket. The user and database are
// DATABASE_URL's, else PGUSER and PGDATABASE. The probe starts up as
// pg_isready does and sends no password: a server that asks for one is
// up.
func postgresFromEnv(getenv func(string) string) (namedShorthand, bool, error) {
	var sh namedShorthand
	var user, database string
	if v := getenv("DATABASE_URL"); v != "" {
		u, err := url.Parse(v)
		if err == nil && (u.Scheme == "postgres" || u.Scheme == "postgresql") {
			port := u.Port()
			if port == "" {
				port = "5432"
			}
			switch socketDir := u.Query().Get("host"); {
			case validHost(u.Hostname()):
				sh.target = hostPort(u, "5432")
			case strings.HasPrefix(socketDir, "/"):
				sh.target = pgSocket(socketDir, port)
			default:
				return namedShorthand{}, false, errors.New("DATABASE_URL is set to a postgres URL with no host, or not one of a name or an address")
			}
			sh.from = "DATABASE_URL"
			user, database = u.User.Username(), strings.TrimPrefix(u.Path, "/")
		}
	}
	if sh.target == "" {
		host, port := firstOf(getenv("PGHOST")), getenv("PGPORT")
		if host == "" && port == "" {
			return namedShorthand{}, false, nil
		}
		var from []string
		for _, v := range []string{"PGHOST", "PGPORT"} {
			if getenv(v) != "" {
				from = append(from, v)
			}
		}
		sh.from = strings.Join(from, " and ")
		if port == "" {
			port = "5432"
		}
		switch {
		case strings.HasPrefix(host, "/"):
			sh.target = pgSocket(host, port)
		case host == "":
			sh.target = net.JoinHostPort("127.0.0.1", port)
		default:
			sh.target = net.JoinHostPort(host, port)
		}
	}
	if user == "" {
		user = getenv("PGUSER")
	}
	if database == "" {
		database = getenv("PGDATABASE")
	}
	if user != "" {
		sh.options = append(sh.options, "user="+user)
	}
	if database != "" {
		sh.options = append(sh.options, "database="+database)
	}
	return sh, true, nil
}

// pgSocket is the address of a PostgreSQL server's socket in dir.
func pgSocket(dir, port string) string {
	return "unix:" + strings.TrimSuffix(dir, "/") + "/.s.PGSQL." + port
}

// memcachedFromEnv reads the first server of MEMCACHED_SERVERS or
// MEMCACHE_SERVERS: HOST[:PORT] or a socket's /PATH, in a list separated
// by commas or spaces.
func memcachedFromEnv(getenv func(string) string) (namedShorthand, bool, error) {
	for _, name := range []string{"MEMCACHED_SERVERS", "MEMCACHE_SERVERS"} {
		server := firstOf(getenv(name))
		if server == "" {
			continue
		}
		if strings.HasPrefix(server, "/") {
			return namedShorthand{target: "unix:" + server, from: name}, true, nil
		}
		u, err := url.Parse("memcached://" + server)
		if err != nil || !validHost(u.Hostname()) || u.User != nil || u.Path != "" {
			return namedShorthand{}, false, errors.New(name + " is set but its first server is not HOST[:PORT] or a socket's /PATH")
		}
		return namedShorthand{target: hostPort(u, "11211"), from: name}, true, nil
	}
	return namedShorthand{}, false, nil
}

// dockerFromEnv reads DOCKER_HOST when it names a unix socket, the only
// kind the docker probe asks.
func dockerFromEnv(getenv func(string) string) (namedShorthand, bool, error) {
	v := getenv("DOCKER_HOST")
	if v == "" {
		return namedShorthand{}, false, nil
	}
	sock, ok := strings.CutPrefix(v, "unix://")
	if !ok || !strings.HasPrefix(sock, "/") {
		return namedShorthand{}, false, errors.New("DOCKER_HOST is set but is not a unix:///PATH socket, the only kind the docker probe asks")
	}
	return namedShorthand{target: "unix:" + sock, from: "DOCKER_HOST"}, true, nil
}

// named returns the tool for the service the environment names, ok false
// when it names none, or why what it names cannot be used. The shorthand
// is checked by the parser the manifest's loader uses, and built only of
// words that hold no space, quote or control character, so a value
// cannot add an option of its own.
func (n namedService) named(getenv func(string) string) (f found, ok bool, err error) {
	sh, ok, err := n.read(getenv)
	if !ok || err != nil {
		return found{}, false, err
	}
	words := append([]string{sh.target}, sh.options...)
	for _, w := range words {
		if strings.ContainsFunc(w, func(r rune) bool { return r <= ' ' || r == 0x7f || r == '"' || r == '\\' || r == '\'' }) {
			return found{}, false, fmt.Errorf("%s: what it names holds a space, a quote or a control character, which the %s probe's shorthand cannot take", sh.from, n.kind)
		}
	}
	parsed, err := probes.ParseShorthand(string(n.kind) + ":" + strings.Join(words, " "))
	if err != nil {
		return found{}, false, fmt.Errorf("%s: the %s probe cannot take what it names: %v", sh.from, n.kind, err)
	}
	verb := "names"
	if strings.Contains(sh.from, " and ") {
		verb = "name"
	}
	return found{tool: n.tool, description: "Use the " + n.service + " that " + sh.from + " " + verb + ".", probe: parsed.String(),
		why:  sh.from + " set (only the address and names in it are written)",
		note: sh.note}, true, nil
}

// validHost reports whether h is a host name or an IP address, the
// only hosts taken from a variable: anything else is not an address.
func validHost(h string) bool {
	if _, err := netip.ParseAddr(h); err == nil {
		return true
	}
	return h != "" && !strings.ContainsFunc(h, func(r rune) bool {
		return !('a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9' || r == '.' || r == '-' || r == '_')
	})
}

// hostPort is u's host and port, or def when it has none, as a
// shorthand writes an address.
func hostPort(u *url.URL, def string) string {
	port := u.Port()
	if port == "" {
		port = def
	}
	return net.JoinHostPort(u.Hostname(), port)
}

// firstOf is the first item of a list separated by commas or whitespace.
func firstOf(list string) string {
	f := strings.FieldsFunc(list, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' || r == '\n' })
	if len(f) == 0 {
		return ""
	}
	return f[0]
}
