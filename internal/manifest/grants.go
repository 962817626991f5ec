package manifest

import (
	"maps"
	"slices"
	"strings"

	"github.com/gate-dev/gate/hostfuncs"
	"github.com/gate-dev/gate/internal/probes"
)

// grantKind is one key of a probe's grants table: how its value is read
// and checked, and where it goes.
type grantKind struct {
	key string
	// example is a value of the key, for the message that shows the
	// table's shape.
	example string
	read    func(c *checker, at place, v any, g *hostfuncs.Grants)
}

// grantKinds are the keys of a grants table, in the order messages list
// them: the lists of hostfuncs.Grants, and secrets, a table of each
// secret's destinations.
var grantKinds = []grantKind{
	listGrant("env", `["VAR"]`, "variable name", "variable names",
		func(g *hostfuncs.Grants) *[]string { return &g.Env },
		func(s string) hostfuncs.Grants { return hostfuncs.Grants{Env: []string{s}} }),
	listGrant("dial", `["host:port"]`, "address", "addresses",
		func(g *hostfuncs.Grants) *[]string { return &g.Dial },
		func(s string) hostfuncs.Grants { return hostfuncs.Grants{Dial: []string{s}} }),
	listGrant("import", `["py:module"]`, "import spec", "import specs",
		func(g *hostfuncs.Grants) *[]string { return &g.Import },
		func(s string) hostfuncs.Grants { return hostfuncs.Grants{Import: []string{s}} }),
	listGrant("http", `["https://host/path/"]`, "URL prefix", "URL prefixes",
		func(g *hostfuncs.Grants) *[]string { return &g.HTTP },
		func(s string) hostfuncs.Grants { return hostfuncs.Grants{HTTP: []string{s}} }),
	{key: "secrets", example: `{ API_KEY = ["https://host/path/"] }`,
		read: func(c *checker, at place, v any, g *hostfuncs.Grants) { c.secretGrants(at, v, g) }},
	listGrant("insecure", `["host:port"]`, "address", "addresses",
		func(g *hostfuncs.Grants) *[]string { return &g.Insecure },
		func(s string) hostfuncs.Grants { return hostfuncs.Grants{Insecure: []string{s}} }),
}

// grantKeys and grantsShape are what messages about a grants table say:
// its keys, and a table that has each.
var grantKeys, grantsShape = grantTableWords()

func grantTableWords() ([]string, string) {
	keys := make([]string, len(grantKinds))
	parts := make([]string, len(grantKinds))
	for i, k := range grantKinds {
		keys[i] = k.key
		parts[i] = k.key + " = " + k.example
	}
	return keys, "a table like { " + strings.Join(parts, ", ") + " }"
}

// listGrant is a kind whose value is a list of entries, each checked by
// compiling the Grants that mk makes of it alone.
func listGrant(key, example, what, plural string, dst func(*hostfuncs.Grants) *[]string, mk func(string) hostfuncs.Grants) grantKind {
	return grantKind{key: key, example: example, read: func(c *checker, at place, v any, g *hostfuncs.Grants) {
		list, good := c.stringList(at, v, what, plural)
		for i, s := range list {
			if s == "" {
				continue // already reported
			}
			if err := mk(s).Validate(); err != nil {
				c.valueErr(c.elem(at, i), "%v", err)
				good = false
			}
		}
		if good {
			*dst(g) = list
		}
	}}
}

// someDestination is a destination every secret grant accepts: compiled
// with it, a secret's name is checked alone.
const someDestination = "127.0.0.1:1"

// secretGrants reads the secrets grant, a table of each secret's
// destinations: secrets = { REDIS_PASSWORD = ["127.0.0.1:6379"],
// API_KEY = ["https://api.example.com/v1/"] }. Each name, list and
// destination is checked as hostfuncs.Grants.Compile checks it, and a
// problem is reported where it is written, in Compile's words: a bad
// name at its key, an empty list or a bad destination at its value.
// The list form of old (secrets = ["K"]) bound a secret to nowhere in
// particular; it is refused with the table it should be.
func (c *checker) secretGrants(at place, v any, g *hostfuncs.Grants) {
	if old, isList := v.([]any); isList {
		c.valueErr(at, "name each secret's destinations: %s (a destination is written as dial and http grants are: \"127.0.0.1:6379\", \"https://api.example.com/v1/\")", secretsFor(old))
		return
	}
	t, ok := c.table(at, v, `a table of each secret's destinations, like { API_KEY = ["https://api.example.com/v1/"] }`)
	if !ok {
		return
	}
	out := make(map[string][]string, len(t))
	good := true
	for _, name := range slices.Sorted(maps.Keys(t)) {
		dests, ok := c.secretGrant(c.key(at, name), name, t[name])
		if ok {
			out[name] = dests
		}
		good = good && ok
	}
	if !good {
		return
	}
	// What no one entry shows: how many there are.
	if err := (hostfuncs.Grants{Secrets: out}).Validate(); err != nil {
		c.valueErr(at, "%v", err)
		return
	}
	g.Secrets = out
}

// secretGrant reads one secret's destinations, at the place at.
func (c *checker) secretGrant(at place, name string, v any) ([]string, bool) {
	if err := (hostfuncs.Grants{Secrets: map[string][]string{name: {someDestination}}}).Validate(); err != nil {
		c.keyErr(at, "%v", err)
		return nil, false
	}
	if s, isStr := v.(string); isStr {
		c.valueErr(at, "want an array of destinations: %s = [%q]", name, s)
		return nil, false
	}
	list, good := c.stringList(at, v, "destination", "destinations")
	if good && len(list) == 0 {
		err := (hostfuncs.Grants{Secrets: map[string][]string{name: nil}}).Validate()
		c.valueErr(at, "%v", err)
		return nil, false
	}
	for i, d := range list {
		if d == "" {
			continue // already reported
		}
		if err := (hostfuncs.Grants{Secrets: map[string][]string{name: {d}}}).Validate(); err != nil {
			c.valueErr(c.elem(at, i), "%v", err)
			good = false
		}
	}
	return list, good
}

// secretsFor writes the secrets table that the list form old meant to
// write, with a placeholder destination for each name: at most four of
// them, the names that can be written as they are.
func secretsFor(old []any) string {
	var parts []string
	for _, el := range old {
		if s, ok := el.(string); ok && probes.ValidEnvName(s) && len(parts) < 4 {
			parts = append(parts, s+` = ["host:port"]`)
		}
	}
	if len(parts) == 0 {
		parts = []string{`NAME = ["host:port"]`}
	}
	return "secrets = { " + strings.Join(parts, ", ") + " }"
}
