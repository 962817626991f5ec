package manifest_test

import (
	"fmt"

	"github.com/gate-dev/gate/internal/manifest"
)

// Parse a manifest from memory and list what it offers: each tool with
// its probe, the tool's position for messages, and a probe's budget.
func ExampleParse() {
	src := `
[runtime]
ttl = "30s"

[[tools]]
name = "search_web"
description = "Search the web for information."
probe = "env:SERP_API_KEY"

[[tools]]
name = "query_database"
[tools.probe]
module = "/opt/gate/probes/db.wasm"
grants = { env = ["DATABASE_URL"], dial = ["localhost:5432"] }
budget = "50ms"

[[tools]]
name = "always_here"
`
	m, err := manifest.Parse("gate.toml", []byte(src))
	if err != nil {
		fmt.Printf("%+v\n", err) // every problem, with its source line
		return
	}
	fmt.Println("ttl:", *m.Runtime.TTL)
	for _, t := range m.Tools {
		switch p := t.Probe; {
		case p == nil:
			fmt.Printf("%s (%v): always available\n", t.Name, t.Pos)
		case p.Standard != "":
			fmt.Printf("%s (%v): standard probe %s\n", t.Name, t.Pos, p.Standard)
		default:
			fmt.Printf("%s (%v): module %s, env %v, dial %v, budget %v\n", t.Name, t.Pos, p.Module, p.Grants.Env, p.Grants.Dial, *p.Budget)
		}
	}
	// Output:
	// ttl: 30s
	// search_web (gate.toml:5:1): standard probe env:SERP_API_KEY
	// query_database (gate.toml:10:1): module /opt/gate/probes/db.wasm, env [DATABASE_URL], dial [localhost:5432], budget 50ms
	// always_here (gate.toml:17:1): always available
}

// A manifest with problems: every one is reported, in file order, with
// the source line and a caret under the culprit.
func ExampleParse_errors() {
	src := `
[runtime]
ttl = 30

[[tools]]
name = "query database"
probe = { module = "db.wasm", grants = { env = ["DATABASE_URL"], dail = ["localhost:5432"] } }
`
	_, err := manifest.Parse("gate.toml", []byte(src))
	fmt.Printf("%+v\n", err)
	// Output:
	// gate.toml:3:7: runtime.ttl: want a duration string like "30s", got integer 30
	//    3 | ttl = 30
	//      |       ^^ want a duration string like "30s", got integer 30
	// gate.toml:6:8: tools[0].name: bad tool name "query database": want 1 to 64 letters, digits, _ or - (what the OpenAI and Anthropic APIs accept)
	//    6 | name = "query database"
	//      |        ^^^^^^^^^^^^^^^^ bad tool name "query database": want 1 to 64 letters, digits, _ or - (what the OpenAI and Anthropic APIs accept)
	// gate.toml:7:66: tools[0].probe.grants: unknown key "dail" (known: env, dial, import, http, secrets, insecure)
	//    7 | probe = { module = "db.wasm", grants = { env = ["DATABASE_URL"], dail = ["localhost:5432"] } }
	//      |                                                                  ^^^^ unknown key "dail" (known: env, dial, import, http, secrets, insecure)
}
