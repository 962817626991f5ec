package runtime_test

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"

	"github.com/gate-dev/gate/runtime"
	"github.com/gate-dev/gate/runtime/schema"
)

// A host app gates its own tools with native Go checks; the model is then
// offered only what the registry lists.
func ExampleRegistry() {
	ctx := context.Background()
	r := runtime.NewRegistry(runtime.NewRegistryConfig().WithLogger(slog.New(slog.DiscardHandler)))
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

	g, err := runtime.Open(ctx, path, runtime.NewGateConfig().
		WithRegistry(runtime.NewRegistryConfig().WithLogger(slog.New(slog.DiscardHandler))))
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
