package main

import (
	"context"
	"fmt"
	"github.com/gate-dev/gate/internal/resolve"
	"net"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/gate-dev/gate/internal/probes"
)

// What gatectl init looks for: three tables, one per kind of thing. Each
// row that is found becomes one tool of the manifest it writes, named by
// the row (a valid tool name: letters, digits, _ and -, unique across the
// tables; TestInitFindsEverything loads a manifest of every row).

// apiKey is an environment variable that an agent tool needs: the tool is
// offered while it is set. vars are alternatives (GITHUB_TOKEN, GH_TOKEN):
// the first one set is the one probed.
type apiKey struct {
	tool, description string
	vars              []string
}

var apiKeys = []apiKey{
	{"openai", "Call the OpenAI API.", []string{"OPENAI_API_KEY"}},
	{"anthropic", "Call the Anthropic API.", []string{"ANTHROPIC_API_KEY"}},
	{"gemini", "Call the Gemini API.", []string{"GEMINI_API_KEY", "GOOGLE_API_KEY"}},
	{"mistral", "Call the Mistral API.", []string{"MISTRAL_API_KEY"}},
	{"groq", "Call the Groq API.", []string{"GROQ_API_KEY"}},
	{"github", "Work with GitHub: issues, pull requests, code.", []string{"GITHUB_TOKEN", "GH_TOKEN"}},
	{"serpapi_search", "Search the web with SerpApi.", []string{"SERP_API_KEY", "SERPAPI_API_KEY"}},
	{"tavily_search", "Search the web with Tavily.", []string{"TAVILY_API_KEY"}},
	{"brave_search", "Search the web with Brave Search.", []string{"BRAVE_API_KEY"}},
	{"exa_search", "Search the web with Exa.", []string{"EXA_API_KEY"}},
	{"pinecone", "Query a Pinecone vector index.", []string{"PINECONE_API_KEY"}},
	{"slack", "Post to Slack.", []string{"SLACK_BOT_TOKEN", "SLACK_TOKEN"}},
}

// localService is a service that listens at a well-known address on this
// machine, and the standard probe that asks it in its own protocol.
type localService struct {
	tool, description string
	kind              probes.Kind
	addr              string // HOST:PORT or unix:/PATH, as the shorthand writes it
	asks              string // what the probe asks, for the comment
}

var localServices = []localService{
	{"redis", "Use the local Redis.", probes.Redis, "127.0.0.1:6379", "PING"},
	{"postgres", "Query the local PostgreSQL.", probes.Postgres, "127.0.0.1:5432", "for a startup, as pg_isready does"},
	{"memcached", "Use the local memcached.", probes.Memcached, "127.0.0.1:11211", "its version"},
	{"docker", "Run Docker commands.", probes.Docker, "unix:" + probes.DefaultDockerSocket, "the Docker API's /_ping"},
}

// program is a program on PATH that a tool runs.
type program struct {
	tool, description, bin string
}

var programs = []program{
	{"run_git", "Run git.", "git"},
	{"run_gh", "Run the GitHub CLI.", "gh"},
	{"run_docker", "Run the docker CLI.", "docker"},
	{"run_kubectl", "Run kubectl.", "kubectl"},
	{"run_node", "Run Node.js.", "node"},
	{"run_python3", "Run Python.", "python3"},
	{"run_rg", "Search files with ripgrep.", "rg"},
	{"run_jq", "Filter JSON with jq.", "jq"},
	{"run_curl", "Fetch URLs with curl.", "curl"},
}

// machine is what gatectl init looks at: thisMachine for the command,
// another environment, PATH and table of services in tests.
type machine struct {
	getenv   func(string) string
	path     string // a PATH value
	services []localService
	// dialTimeout bounds each connect. Loopback answers at once, refused
	// or accepted: the bound is for a firewall that drops instead.
	dialTimeout time.Duration
}

func thisMachine(getenv func(string) string) machine {
	return machine{getenv: getenv, path: getenv("PATH"), services: localServices, dialTimeout: 300 * time.Millisecond}
}

// found is one row of a table that was found: a tool of the manifest.
type found struct {
	tool, description, probe string
	// why is the comment above its probe ("# found: OPENAI_API_KEY is
	// set"), and note a line after it, if any.
	why, note string
}

// survey is what was found, by table: named holds the services that the
// environment names (namedServices), services those found at their
// usual address. problems says which variables were set but could not be
// used, and why.
type survey struct {
	keys, named, services, programs []found
	problems                        []string
}

func (s survey) count() int {
	return len(s.keys) + len(s.named) + len(s.services) + len(s.programs)
}

// look finds what m holds of the tables. Of the API keys it reads only
// which are set, never their values; of the variables that name a
// service, the address and names that the probe needs, never a password.
func (m machine) look(ctx context.Context) survey {
	var s survey
	named := map[probes.Kind]bool{}
	for _, n := range namedServices {
		f, ok, err := n.named(m.getenv)
		if err != nil {
			s.problems = append(s.problems, err.Error())
		}
		if ok {
			s.named = append(s.named, f)
			named[n.kind] = true
		}
	}
	m.services = slices.DeleteFunc(slices.Clone(m.services), func(svc localService) bool { return named[svc.kind] })
	for _, k := range apiKeys {
		for _, v := range k.vars {
			if m.getenv(v) != "" {
				s.keys = append(s.keys, found{tool: k.tool, description: k.description, probe: "env:" + v, why: v + " is set"})
				break
			}
		}
	}
	s.services = m.listening(ctx)
	bins := resolve.NewBinResolver(m.path) // the rule import:bin: probes follow
	for _, p := range programs {
		if ok, _ := bins.Resolve(ctx, p.bin); ok {
			s.programs = append(s.programs, found{tool: p.tool, description: p.description, probe: "import:bin:" + p.bin, why: p.bin + " is on PATH"})
		}
	}
	return s
}

// listening connects to every service's address at once and returns
// those that accepted, in the table's order.
func (m machine) listening(ctx context.Context) []found {
	accepted := make([]bool, len(m.services))
	var wg sync.WaitGroup
	for i, svc := range m.services {
		wg.Go(func() {
			network, addr := "tcp", svc.addr
			if p, ok := strings.CutPrefix(addr, "unix:"); ok {
				network, addr = "unix", p
			}
			d := net.Dialer{Timeout: m.dialTimeout}
			if c, err := d.DialContext(ctx, network, addr); err == nil {
				c.Close()
				accepted[i] = true
			}
		})
	}
	wg.Wait()
	var out []found
	for i, svc := range m.services {
		if !accepted[i] {
			continue
		}
		sh, err := probes.ParseShorthand(string(svc.kind) + ":" + svc.addr)
		if err != nil { // a row of the table that is not a shorthand: TestInitFindsEverything
			continue
		}
		out = append(out, found{tool: svc.tool, description: svc.description, probe: sh.String(),
			why:  fmt.Sprintf("%s (%s's address) accepts connections", svc.addr, svc.kind),
			note: "the probe asks " + svc.asks + ": a port that accepts is not yet a service that answers"})
	}
	return out
}
