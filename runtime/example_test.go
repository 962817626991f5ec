package runtime_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/gate-dev/gate/runtime"
	"github.com/gate-dev/gate/runtime/schema"
)

// A host app gates its own tools with native Go checks; the model is then
// offered only what the Gate lists.
func ExampleRegistry() {
	ctx := context.Background()
	g, err := runtime.New(ctx, runtime.NewGateConfig())
	if err != nil {
		panic(err)
	}
	defer g.Close(ctx)
	r := g.Tools()
	_ = r.Register(runtime.Tool{Name: "echo"}, false) // no probe: always available
	_ = r.Register(runtime.Tool{
		Name: "gpu_infer",
		Probe: runtime.NewNativeProbe(0, func(context.Context) (bool, string, error) {
			return false, "CUDA not available", nil
		}),
	}, false)

	for _, t := range r.ListAvailable(ctx) {
		fmt.Println("offered:", t.Name)
	}
	st, _ := r.Status(ctx, "gpu_infer")
	fmt.Println("gpu_infer:", st[0].State, "-", st[0].Reason)
	// Output:
	// offered: echo
	// gpu_infer: unavailable - CUDA not available
}

// A standard probe from its shorthand: it is granted exactly the variables
// it names, and runs in the sandbox under the 100 ms budget.
func ExampleEngine_StandardProbe() {
	ctx := context.Background()
	env := map[string]string{"OPENAI_API_KEY": "sk-..."}
	engine, err := runtime.NewEngine(ctx, runtime.NewEngineConfig().
		WithLookupEnv(func(k string) (string, bool) { v, ok := env[k]; return v, ok }))
	if err != nil {
		panic(err)
	}
	defer engine.Close(ctx)

	probe, err := engine.StandardProbe(ctx, "ai_research", "env:OPENAI_API_KEY,PINECONE_API_KEY", runtime.ProbeConfig{})
	if err != nil {
		panic(err)
	}
	res := probe.Run(ctx)
	fmt.Println(res.Outcome, "-", res.Reason)
	// Output: unavailable - Missing environment variables: PINECONE_API_KEY
}

// Open a manifest and build the tool schema for the next model call.
func ExampleOpen() {
	ctx := context.Background()
	dir, _ := os.MkdirTemp("", "gate-example")
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "gate.toml")
	_ = os.WriteFile(path, []byte(`
[[tools]]
name = "search_web"
description = "Search the web for information."
parameters = { type = "object", properties = { query = { type = "string" } }, required = ["query"] }
probe = "env:GATE_EXAMPLE_UNSET_KEY"

[[tools]]
name = "echo"
description = "Repeat the input."
`), 0o644)

	g, err := runtime.Open(ctx, path, runtime.NewGateConfig())
	if err != nil {
		fmt.Printf("%+v\n", err)
		return
	}
	defer g.Close(ctx)
	out, _ := g.Schema(ctx, schema.Anthropic)
	fmt.Print(string(out))
	// Output:
	// [
	//   {
	//     "name": "echo",
	//     "description": "Repeat the input.",
	//     "input_schema": {
	//       "type": "object",
	//       "properties": {}
	//     }
	//   }
	// ]
}

// A host app that waits for changes instead of reading: while the Gate
// has an OnChange subscriber it re-probes in the background, so a tool
// that comes back is reported without a read. (The environment here is a
// map the example sets; a real one is the process's.)
func ExampleGate_OnChange() {
	ctx := context.Background()
	dir, _ := os.MkdirTemp("", "gate-example")
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "gate.toml")
	_ = os.WriteFile(path, []byte(`
[runtime]
ttl = "100ms"

[[tools]]
name = "search_web"
description = "Search the web for information."
probe = "env:SERP_API_KEY"
`), 0o644)

	var env sync.Map
	lookup := func(key string) (string, bool) {
		v, ok := env.Load(key)
		if !ok {
			return "", false
		}
		return v.(string), true
	}
	g, err := runtime.Open(ctx, path, runtime.NewGateConfig().
		WithEngine(runtime.NewEngineConfig().WithLookupEnv(lookup)))
	if err != nil {
		fmt.Printf("%+v\n", err)
		return
	}
	defer g.Close(ctx)

	changes := make(chan runtime.Change, 8)
	stop := g.OnChange(func(c runtime.Change) {
		select { // quick: the probe that noticed waits for this
		case changes <- c:
		default:
		}
	})
	defer stop()
	fmt.Println("offered:", len(g.AvailableTools(ctx)), "tools")

	env.Store("SERP_API_KEY", "sk-...") // and no read follows
	select {
	case c := <-changes:
		fmt.Println(c.Kind, c.Name, "available:", c.Available)
	case <-time.After(time.Minute):
		fmt.Println("no change within a minute")
	}
	fmt.Println("offered:", len(g.AvailableTools(ctx)), "tools")
	// Output:
	// offered: 0 tools
	// tool search_web available: true
	// offered: 1 tools
}
